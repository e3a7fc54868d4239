// Two cracks at the same nodes (docs/mpm-cracks.md, fields [1] to [3]): two parallel horizontal
// cracks half a cell apart right across the block of crack_block_test.cpp, so that a middle layer
// one particle thick lies between them and the nodes near them see both (a particle above both
// crosses two cracks to the nodes below: field [3]). Compressed, the block must carry the load of
// the uncracked block (2%) with no face overlapping another by 1% of a cell; pulled, the upper
// crack opens by the top face's travel while the middle layer and the lower part, cut off from
// the load, stay unstressed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "crack_problems.hpp"

namespace tribo {
namespace {

using namespace tribo::testing;

// Particle rows at 20.25, 20.75, 21.25 mm: the cracks pass between them.
constexpr double kLower = 0.0205, kUpper = 0.0210;

CrackedBlock two_cracks() {
  CrackedBlock o;
  o.crack = {Vec3(0.005, kLower, 0), Vec3(0.035, kLower, 0)};
  o.second_crack = {Vec3(0.005, kUpper, 0), Vec3(0.035, kUpper, 0)};
  return o;
}

// Smallest (above - below) . y over the crack particles of crack c inside the block less a cell.
double smallest_opening(const Simulation<2>& sim, int c) {
  const SurfaceMesh mesh = sim.surfaces().front();
  const std::vector<int>& plane = mesh.cells[3 * c];
  const std::vector<int>& above = mesh.cells[3 * c + 1];
  const std::vector<int>& below = mesh.cells[3 * c + 2];
  double smallest = 1.0;
  for (std::size_t i = 0; i < plane.size(); ++i) {
    const double x = mesh.points[plane[i]][0];
    if (x < kBlockLo + kCrackCell || x > kBlockHi - kCrackCell) continue;
    smallest = std::min(smallest, mesh.points[above[i]][1] - mesh.points[below[i]][1]);
  }
  return smallest;
}

TEST(TwoCracks, TwoCracksHalfACellApartCarryTheCompressiveLoadOfTheUncrackedBlock) {
  constexpr double kSpeed = 0.02, kEnd = 5.0e-3;
  double reaction[2] = {0, 0}, worst = 0.0;
  for (int cracked = 0; cracked < 2; ++cracked) {
    CrackedBlock o = two_cracks();
    o.with_crack = cracked == 1;
    o.platen_speed = -kSpeed;
    auto sim = mpm::make_simulation<2>(cracked_block_spec(o));
    double sum = 0.0;
    int samples = 0;
    while (sim->time() < kEnd - 0.5 * sim->dt()) {
      sim->step();
      sim->check_health();
      if (sim->time() > 0.75 * kEnd) sum += -sim->contact_force(0, 2)[1], ++samples;
      if (cracked) worst = std::min({worst, smallest_opening(*sim, 0), smallest_opening(*sim, 1)});
    }
    reaction[cracked] = sum / samples;
  }
  std::printf("    reaction (mean of the last quarter): two cracks %.6g N/m, uncracked %.6g N/m; worst overlap %.3g cells\n",
              reaction[1], reaction[0], worst / kCrackCell);
  EXPECT_NEAR(reaction[1], reaction[0], 0.02 * reaction[0]);
  EXPECT_GT(worst, -0.01 * kCrackCell);
}

TEST(TwoCracks, PulledBlockOpensTheUpperCrackAndLeavesTheLayersBelowItUnstressed) {
  constexpr double kSpeed = 0.02, kEnd = 5.0e-3;
  CrackedBlock o = two_cracks();
  o.pull_by_boundary_conditions = true;
  o.platen_speed = kSpeed;
  auto sim = mpm::make_simulation<2>(cracked_block_spec(o));
  double largest_stress = 0.0;
  while (sim->time() < kEnd - 0.5 * sim->dt()) {
    sim->step();
    sim->check_health();
    const Particles<2>& p = sim->particles();
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p.reference_position[i][1] < kUpper) largest_stress = std::max(largest_stress, p.stress[i].norm());
  }
  const double lower = smallest_opening(*sim, 0), upper = smallest_opening(*sim, 1);
  std::printf("    openings: lower crack %.4g m, upper crack %.4g m (top face travel %.4g m); largest stress below the "
              "upper crack %.3g Pa\n",
              lower, upper, kSpeed * kEnd, largest_stress);
  // Nothing reaches the middle layer or the lower part: exactly zero stress, the lower crack
  // exactly closed.
  EXPECT_EQ(largest_stress, 0.0);
  EXPECT_EQ(lower, 0.0);
  // The upper part goes with its top face (within 10%, as the single crack).
  EXPECT_GT(upper, 0.9 * kSpeed * kEnd);
  EXPECT_LT(upper, 1.1 * kSpeed * kEnd);
}

}  // namespace
}  // namespace tribo
