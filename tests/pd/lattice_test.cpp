// Where fill_bodies puts the points: a box holds the lattice cells that fit in it, centred, so
// that no point's cell stands proud of a face; a whole number of spacings fills exactly as the
// lower-corner anchoring did; a disk set on a floor of any thickness starts no nearer it than the
// contact's rest gap, one spacing (docs/pd.md, "Bodies").
#include "tribo/pd/lattice.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "spec_builder.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;

constexpr double kH = 1e-3;

LatticeBodies<2> fill(const std::vector<Shape>& shapes) {
  SimulationSpec spec = pd_spec(2, kH);
  const int m = add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e9, 0.25));
  const char* names[] = {"first", "second"};
  for (std::size_t b = 0; b < shapes.size(); ++b) add_body(spec, names[b], m, shapes[b]);
  return fill_bodies<2>(spec);
}

// Sorted distinct coordinates of body b's points along axis d.
std::vector<double> rows(const LatticeBodies<2>& l, int b, int d) {
  std::vector<double> v;
  for (int p = l.bodies[b].begin; p < l.bodies[b].end; ++p) v.push_back(l.points.position[p][d]);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end(), [](double a, double c) { return std::abs(a - c) < 1e-12; }), v.end());
  return v;
}

TEST(LatticeFill, AWholeNumberOfSpacingsFillsFromTheLowerCornerAsBefore) {
  const auto l = fill({box(2, Vec3(0.01, -0.003, 0), Vec3(0.014, 0, 0))});
  const std::vector<double> x = rows(l, 0, 0), y = rows(l, 0, 1);
  ASSERT_EQ(x.size(), 4u);
  ASSERT_EQ(y.size(), 3u);
  // Bit for bit the earlier positions lo + (i + 1/2) h.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(x[i], 0.01 + (i + 0.5) * kH);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(y[i], -0.003 + (i + 0.5) * kH);
}

TEST(LatticeFill, ABoxOfAFractionalNumberOfSpacingsHoldsTheCellsThatFitCentred) {
  // 1.5 h tall: one row at the middle (it was two, the upper one on the top face); 3.4 h wide:
  // three columns with 0.2 h spare at either side; 0.6 h: a plate of one row.
  const auto l = fill({box(2, Vec3(0, 0, 0), Vec3(3.4 * kH, 1.5 * kH, 0)),
                       box(2, Vec3(0, 0.01, 0), Vec3(2 * kH, 0.01 + 0.6 * kH, 0))});
  const std::vector<double> x = rows(l, 0, 0), y = rows(l, 0, 1);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_NEAR(y[0], 0.75 * kH, 1e-15);
  ASSERT_EQ(x.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(x[i], (0.2 + 0.5 + i) * kH, 1e-15);
  // No cell beyond a face: x_p +- h/2 inside the box (to round-off).
  for (int p = l.bodies[0].begin; p < l.bodies[0].end; ++p) {
    EXPECT_LE(l.points.position[p].y() + 0.5 * kH, 1.5 * kH + 1e-15);
    EXPECT_LE(l.points.position[p].x() + 0.5 * kH, 3.4 * kH + 1e-15);
  }
  EXPECT_EQ(rows(l, 1, 1).size(), 1u);
}

// The deck that found it: examples/pd-rolling-disk.yaml at twice its spacing puts a disk of 10
// spacings radius on a floor 1.5 spacings thick. Each body's points sit half a spacing inside its
// faces, so bodies whose shapes touch start one spacing apart, the contact's rest gap; with the
// top row on the floor's face they started half a spacing apart and the disk was thrown 12 mm up.
TEST(LatticeFill, ADiskSetOnAFloorOfAnyThicknessStartsAtLeastOneSpacingFromIt) {
  for (const double thickness : {1.0, 1.5, 2.0, 2.5, 3.7}) {
    const auto l = fill({ball(2, Vec3(0.01, 0.01, 0), 0.01), box(2, Vec3(0, -thickness * kH, 0), Vec3(0.02, 0, 0))});
    double nearest = std::numeric_limits<double>::infinity();
    for (int p = l.bodies[0].begin; p < l.bodies[0].end; ++p)
      for (int q = l.bodies[1].begin; q < l.bodies[1].end; ++q)
        nearest = std::min(nearest, (l.points.position[p] - l.points.position[q]).norm());
    EXPECT_GE(nearest, kH * (1.0 - 1e-12)) << "floor " << thickness << " spacings thick";
    EXPECT_LE(nearest, 1.5 * kH + 1e-12) << "floor " << thickness << " spacings thick";
  }
}

}  // namespace
}  // namespace tribo::pd
