// The inside test of a triangle surface: exact on a closed surface even for points whose rays run
// through edges and vertices, and right by majority when the surface has a gap.
#include "tribo/core/triangle_solid.hpp"
#include "../support/uv_sphere.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace tribo {
namespace {

using tribo::test_support::uv_sphere;

using Triangle = TriangleSolid::Triangle;

// The 12 triangles of the box [lo, hi], each face split along a diagonal.
std::vector<Triangle> box(const Vec3& lo, const Vec3& hi) {
  std::vector<Triangle> t;
  auto corner = [&](int i) {
    return Vec3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  };
  const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    t.push_back({corner(f[0]), corner(f[1]), corner(f[2])});
    t.push_back({corner(f[0]), corner(f[2]), corner(f[3])});
  }
  return t;
}

TEST(TriangleSolid, BoxIsExactOnALatticeThroughItsDiagonalsEdgesAndVertices) {
  // Points at multiples of 0.125 lie on the faces' diagonals, edges and corners in projection
  // along every axis: each must be decided exactly (inside the closed box or not).
  const TriangleSolid solid(box(Vec3(0, 0, 0), Vec3(1, 1, 1)));
  int wrong = 0, checked = 0;
  for (int i = -2; i <= 10; ++i)
    for (int j = -2; j <= 10; ++j)
      for (int k = -2; k <= 10; ++k) {
        const Vec3 x(0.125 * i, 0.125 * j, 0.125 * k);
        const bool inside = (x.array() >= 0.0).all() && (x.array() <= 1.0).all();
        wrong += solid.contains(x) != inside;
        ++checked;
      }
  EXPECT_EQ(wrong, 0) << "of " << checked;
  EXPECT_DOUBLE_EQ(solid.volume(), 1.0);
}

TEST(TriangleSolid, SphereAgreesWithTheBallAwayFromTheTessellation) {
  const Vec3 c(0.1, -0.2, 0.3);
  const double r = 0.5;
  const TriangleSolid solid(uv_sphere(c, r, 48, 24));
  // The chords of a 48 x 24 sphere sag at most r (1 - cos(pi/24)) < 0.5% of r; points further
  // than 1% of r from the sphere are decided as for the ball.
  int wrong = 0, checked = 0;
  for (int i = 0; i < 30; ++i)
    for (int j = 0; j < 30; ++j)
      for (int k = 0; k < 30; ++k) {
        const Vec3 x = c + Vec3(-0.6 + 0.04 * i, -0.6 + 0.04 * j, -0.6 + 0.04 * k);
        const double d = (x - c).norm();
        if (std::abs(d - r) < 0.01 * r) continue;
        wrong += solid.contains(x) != (d < r);
        ++checked;
      }
  EXPECT_EQ(wrong, 0) << "of " << checked;
  EXPECT_NEAR(std::abs(solid.winding_number(c)), 1.0, 1e-12);  // this sphere faces inward
  EXPECT_NEAR(solid.winding_number(c + Vec3(2 * r, 0, 0)), 0.0, 1e-12);
}

TEST(TriangleSolid, SmallGapsDoNotLeakTheInside) {
  // Remove a few scattered triangles: rays through the holes vote wrong, the others outvote them.
  const Vec3 c(0, 0, 0);
  const double r = 1.0;
  std::vector<Triangle> t = uv_sphere(c, r, 32, 16);
  for (std::size_t k = 0; k < 4; ++k) t.erase(t.begin() + static_cast<long>(97 * k + 40));
  const TriangleSolid solid(std::move(t));
  int wrong = 0, checked = 0;
  for (int i = 0; i < 25; ++i)
    for (int j = 0; j < 25; ++j)
      for (int k = 0; k < 25; ++k) {
        const Vec3 x(-1.2 + 0.1 * i, -1.2 + 0.1 * j, -1.2 + 0.1 * k);
        const double d = x.norm();
        if (std::abs(d - r) < 0.02) continue;  // within the chords' sag of 1 - cos(pi/16) = 2%
        wrong += solid.contains(x) != (d < r);
        ++checked;
      }
  EXPECT_EQ(wrong, 0) << "of " << checked;
}

}  // namespace
}  // namespace tribo
