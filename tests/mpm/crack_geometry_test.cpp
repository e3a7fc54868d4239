// Crack geometry (crack_geometry.hpp): crack particles from a deck polyline, the crossing test of
// particle-node lines with its side and half-open rule, and the normals. References: hand-drawn
// configurations (worked in the comments).
#include "tribo/mpm/crack_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tribo::mpm {
namespace {

Crack straight_crack(Vec2 a, Vec2 b, double spacing = 0.25) {
  CrackSpec spec;
  spec.points = {Vec3(a[0], a[1], 0), Vec3(b[0], b[1], 0)};
  return build_cracks({spec}, spacing).front();
}

TEST(BuildCracks, SplitsEachSegmentEvenlyNoCoarserThanTheSpacing) {
  CrackSpec spec;
  spec.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 0.3, 0)};
  const Crack c = build_cracks({spec}, 0.25).front();
  // 1 / 0.25 = 4 pieces, then 0.3 / 0.25 -> 2 pieces of 0.15: 4 + 2 segments, 7 particles.
  ASSERT_EQ(c.plane.size(), 7u);
  EXPECT_NEAR(c.plane[2][0], 0.5, 1e-15);
  EXPECT_EQ(c.plane[4], Vec2(1, 0));
  EXPECT_NEAR(c.plane[5][1], 0.15, 1e-15);
  EXPECT_EQ(c.plane.back(), Vec2(1, 0.3));
  // A new crack is closed: both surfaces on the plane.
  EXPECT_EQ(c.above, c.plane);
  EXPECT_EQ(c.below, c.plane);
  EXPECT_EQ(c.box_min, Vec2(0, 0));
  EXPECT_EQ(c.box_max, Vec2(1, 0.3));
}

TEST(CrossesCrack, ALineThroughTheCrackCrossesFromTheParticlesSide) {
  const Crack c = straight_crack(Vec2(0, 0), Vec2(2, 0));  // direction +x: above is +y
  CrackSide side;
  ASSERT_TRUE(crosses_crack(c, Vec2(0.5, 0.3), Vec2(0.7, -0.4), side));
  EXPECT_EQ(side, CrackSide::Above);
  ASSERT_TRUE(crosses_crack(c, Vec2(0.7, -0.4), Vec2(0.5, 0.3), side));
  EXPECT_EQ(side, CrackSide::Below);
  // Same side, or past the tip: no crossing.
  EXPECT_FALSE(crosses_crack(c, Vec2(0.5, 0.3), Vec2(0.7, 0.1), side));
  EXPECT_FALSE(crosses_crack(c, Vec2(2.5, 0.3), Vec2(2.5, -0.3), side));
  EXPECT_FALSE(crosses_crack(c, Vec2(-0.1, 0.3), Vec2(-0.2, -0.3), side));
}

TEST(CrossesCrack, ANodeOnTheCrackLineCountsAsAbove) {
  const Crack c = straight_crack(Vec2(0, 0), Vec2(2, 0));
  CrackSide side;
  // A node exactly on the crack: a particle below crosses to it, one above does not.
  ASSERT_TRUE(crosses_crack(c, Vec2(1.1, -0.25), Vec2(1.0, 0.0), side));
  EXPECT_EQ(side, CrackSide::Below);
  EXPECT_FALSE(crosses_crack(c, Vec2(1.1, 0.25), Vec2(1.0, 0.0), side));
}

TEST(CrossesCrack, ALineThroughACrackParticleCrossesExactlyOnce) {
  // A kinked crack (0,0) - (1,0) - (2,1): the line x = 1 passes through the kink particle. The
  // half-open rule gives it to one segment; the answer is a crossing, from the particle's side.
  CrackSpec spec;
  spec.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 1, 0)};
  const Crack c = build_cracks({spec}, 10.0).front();
  ASSERT_EQ(c.plane.size(), 3u);
  CrackSide side;
  ASSERT_TRUE(crosses_crack(c, Vec2(1, 0.5), Vec2(1, -0.5), side));
  EXPECT_EQ(side, CrackSide::Above);
  // Through the tip particle along the crack's own line: no crossing of a straight crack's end.
  const Crack s = straight_crack(Vec2(0, 0), Vec2(2, 0), 10.0);
  EXPECT_FALSE(crosses_crack(s, Vec2(-1, 0.5), Vec2(-1, -0.5), side));
}

TEST(CrackNormal, IsTheUnitLeftNormalOfTheNearestSegment) {
  CrackSpec spec;
  spec.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0)};  // +x, then +y
  const Crack c = build_cracks({spec}, 10.0).front();
  const Vec2 first = crack_normal_near(c, Vec2(0.3, -0.2));
  EXPECT_NEAR(first[0], 0.0, 1e-15);
  EXPECT_NEAR(first[1], 1.0, 1e-15);
  const Vec2 second = crack_normal_near(c, Vec2(1.2, 0.8));  // left of +y is -x
  EXPECT_NEAR(second[0], -1.0, 1e-15);
  EXPECT_NEAR(second[1], 0.0, 1e-15);
  // At the kink particle: the mean direction (+x then +y -> (1,1)/sqrt2), normal (-1,1)/sqrt2.
  const Vec2 kink = crack_particle_normal(c, 1);
  EXPECT_NEAR(kink[0], -std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(kink[1], std::sqrt(0.5), 1e-15);
}

}  // namespace
}  // namespace tribo::mpm
