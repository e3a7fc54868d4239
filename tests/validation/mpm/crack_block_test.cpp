// A square block with a closed horizontal crack right across it (docs/mpm-cracks.md, issue 4).
// Compressed normal to the crack between frictionless rigid platens, the crack must transmit the
// load as if it were not there: the reference is the same block without the crack, and the
// plane-strain closed form sigma_yy = E / (1 - nu^2) eps_yy (sigma_xx = 0: free sides,
// frictionless platens). Pulled, the crack must open and carry nothing: the lower half, held at its
// bottom, stays unstressed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "crack_problems.hpp"

namespace tribo {
namespace {

using namespace tribo::testing;

constexpr double kCrackY = 0.0205;  // m: between the particle rows at 20.25 and 20.75 mm
constexpr double kWidth = kBlockHi - kBlockLo;

CrackedBlock horizontal_crack() {
  CrackedBlock o;
  o.crack = {Vec3(0.005, kCrackY, 0), Vec3(0.035, kCrackY, 0)};  // beyond both sides of the block
  return o;
}

struct CompressionRun {
  double mean_reaction = 0.0;    // N per m of thickness: mean over the last quarter of the run
  double final_reaction = 0.0;   // N/m, last step
  double far_stress = 0.0;       // Pa, mean sigma_yy of the particles more than 5 mm from the crack
  double worst_overlap = 0.0;    // m, the most negative crack opening (surfaces above - below) . n
  double row_overlap = 0.0;      // m, particle rows either side of the crack, beyond their elastic closing
  double mean_time = 0.0;        // s, mean time of the averaging window
};

// Compresses at 0.02 m/s for 5 ms: eps = 5e-3, 0.1 mm of platen travel (a tenth of a cell, ten
// times the 1% interpenetration allowance, so that a crack without contact would fail).
CompressionRun compress(CrackedBlock o) {
  constexpr double kSpeed = 0.02, kEnd = 5.0e-3;
  o.platen_speed = -kSpeed;
  const SimulationSpec spec = cracked_block_spec(o);
  auto sim = mpm::make_simulation<2>(spec);
  CompressionRun run;
  double sum = 0.0, time_sum = 0.0;
  int samples = 0;
  while (sim->time() < kEnd - 0.5 * sim->dt()) {
    sim->step();
    sim->check_health();
    const double reaction = -sim->contact_force(0, 2)[1];
    if (sim->time() > 0.75 * kEnd) {
      sum += reaction;
      time_sum += sim->time();
      ++samples;
    }
    run.final_reaction = reaction;
    if (o.with_crack) {
      // Opening (above - below) . n, n the crack's normal (left of its direction), at the crack
      // particles inside the block less a cell.
      const Vec2 t = (o.crack.back() - o.crack.front()).head<2>().normalized();
      const Vec2 n(-t[1], t[0]);
      const CrackSurfaces c = crack_surfaces(*sim);
      for (std::size_t i = 0; i < c.above.size(); ++i) {
        const Vec2 x = c.plane[i];
        if ((x.array() < kBlockLo + kCrackCell).any() || (x.array() > kBlockHi - kCrackCell).any()) continue;
        run.worst_overlap = std::min(run.worst_overlap, (c.above[i] - c.below[i]).dot(n));
      }
    }
  }
  run.mean_reaction = sum / samples;
  run.mean_time = time_sum / samples;
  run.far_stress = mean_block_stress(*sim, 1, 1, [](const Vec2& X) { return std::abs(X[1] - kCrackY) > 0.005; });
  // The rows of particles next to the crack: their mean vertical gap, less the elastic closing
  // of the uncracked block over the same 0.5 mm (eps_yy of the far field times the row spacing).
  const Particles<2>& p = sim->particles();
  double above = 0.0, below = 0.0;
  int n_above = 0, n_below = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.body[i] != 0) continue;
    const double dy = p.reference_position[i][1] - kCrackY;
    const double u = p.position[i][1] - p.reference_position[i][1];
    if (std::abs(dy - 0.25 * kCrackCell) < 1e-6) above += u, ++n_above;
    if (std::abs(dy + 0.25 * kCrackCell) < 1e-6) below += u, ++n_below;
  }
  const double strain = run.far_stress * (1 - kBlockNu * kBlockNu) / kBlockE;
  run.row_overlap = (above / n_above - below / n_below) - strain * 0.5 * kCrackCell;
  return run;
}

TEST(CrackedBlock, ClosedCrackCompressedNormalToItCarriesTheLoadOfTheUncrackedBlock) {
  CrackedBlock cracked = horizontal_crack();
  CrackedBlock whole = cracked;
  whole.with_crack = false;
  const CompressionRun c = compress(cracked);
  const CompressionRun u = compress(whole);
  // Closed form at the mean time of the window: F = E / (1 - nu^2) (v t / H) W per m of thickness.
  const double closed_form = kBlockE / (1 - kBlockNu * kBlockNu) * (0.02 * c.mean_time / kWidth) * kWidth;
  std::printf("    reaction (mean of the last quarter): cracked %.6g N/m, uncracked %.6g N/m, closed form %.6g N/m\n",
              c.mean_reaction, u.mean_reaction, closed_form);
  std::printf("    final reaction: cracked %.6g, uncracked %.6g N/m; far-field sigma_yy: cracked %.6g, uncracked %.6g Pa\n",
              c.final_reaction, u.final_reaction, c.far_stress, u.far_stress);
  std::printf("    worst crack-surface overlap %.3g m (%.3g cells); particle rows %.3g m (%.3g cells)\n",
              c.worst_overlap, c.worst_overlap / kCrackCell, c.row_overlap, c.row_overlap / kCrackCell);
  // The 2%: the crack faces in contact must transmit the normal load as bonded material.
  EXPECT_NEAR(c.mean_reaction, u.mean_reaction, 0.02 * std::abs(u.mean_reaction));
  EXPECT_NEAR(c.final_reaction, u.final_reaction, 0.02 * std::abs(u.final_reaction));
  EXPECT_NEAR(c.far_stress, u.far_stress, 0.02 * std::abs(u.far_stress));
  // The uncracked block against the closed form: the dynamic ringing of a platen started at
  // constant speed is rho c v ~ 2.3 kPa on ~50 kPa, averaged down over the window; 5%.
  EXPECT_NEAR(u.mean_reaction, closed_form, 0.05 * closed_form);
  // The interpenetration bound: 1% of a cell.
  EXPECT_GT(c.worst_overlap, -0.01 * kCrackCell);
  EXPECT_GT(c.row_overlap, -0.01 * kCrackCell);
}

// Cracks and multimaterial contact at the same nodes: a vertical crack along the grid line x = 20 mm
// (nodes on the crack count as above it, here on the left: the polyline points up) right through
// the block and into both rigid platens, so that the nodes of the block-platen interface near the
// crack hold crack fields each with block and platen in them. Under frictionless platens the
// uncracked block is in uniaxial stress (sigma_xx = 0): the crack carries no traction and the
// cracked block must give the same reaction and stress (2%), its halves neither overlapping nor
// leaving the platens.
TEST(CrackedBlock, CrackThroughBlockAndPlatensWorksWithMaterialContactAtTheSameNodes) {
  CrackedBlock cracked;
  cracked.crack = {Vec3(0.020, kBlockLo - 1.5e-3, 0), Vec3(0.020, kBlockHi + 1.5e-3, 0)};
  CrackedBlock whole = cracked;
  whole.with_crack = false;
  const CompressionRun c = compress(cracked);
  const CompressionRun u = compress(whole);
  std::printf("    vertical crack: reaction %.6g (uncracked %.6g) N/m, final %.6g (%.6g), far sigma_yy %.6g (%.6g) Pa\n",
              c.mean_reaction, u.mean_reaction, c.final_reaction, u.final_reaction, c.far_stress, u.far_stress);
  EXPECT_NEAR(c.mean_reaction, u.mean_reaction, 0.02 * std::abs(u.mean_reaction));
  EXPECT_NEAR(c.final_reaction, u.final_reaction, 0.02 * std::abs(u.final_reaction));
  EXPECT_NEAR(c.far_stress, u.far_stress, 0.02 * std::abs(u.far_stress));
  std::printf("    vertical crack: worst overlap of the faces %.3g m (%.3g cells)\n", c.worst_overlap,
              c.worst_overlap / kCrackCell);
  EXPECT_GT(c.worst_overlap, -0.01 * kCrackCell);
}

TEST(CrackedBlock, PulledBlockOpensTheCrackAndTheHalvesCarryNoLoadAcrossIt) {
  constexpr double kSpeed = 0.02, kEnd = 5.0e-3;
  CrackedBlock o = horizontal_crack();
  o.pull_by_boundary_conditions = true;
  o.platen_speed = kSpeed;
  auto sim = mpm::make_simulation<2>(cracked_block_spec(o));
  double largest_crack_force = 0.0, largest_lower_stress = 0.0;
  while (sim->time() < kEnd - 0.5 * sim->dt()) {
    sim->step();
    sim->check_health();
    largest_crack_force = std::max(largest_crack_force, sim->crack_force(0).norm());
    const Particles<2>& p = sim->particles();
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p.reference_position[i][1] < kCrackY)
        largest_lower_stress = std::max(largest_lower_stress, p.stress[i].norm());
  }
  const CrackSurfaces c = crack_surfaces(*sim);
  double smallest_opening = 1.0, lower_travel = 0.0;
  for (std::size_t i = 0; i < c.above.size(); ++i) {
    const double x = c.plane[i][0];
    if (x < kBlockLo + kCrackCell || x > kBlockHi - kCrackCell) continue;
    smallest_opening = std::min(smallest_opening, c.above[i][1] - c.below[i][1]);
    lower_travel = std::max(lower_travel, std::abs(c.below[i][1] - kCrackY));
  }
  // The same pull on the uncracked block would stress it to E / (1 - nu^2) v t / H.
  const double uncracked = kBlockE / (1 - kBlockNu * kBlockNu) * kSpeed * kEnd / kWidth;
  const double travel = kSpeed * kEnd;
  std::printf("    opening: smallest %.4g m (top face travel %.4g m); lower surface moved %.3g m\n", smallest_opening,
              travel, lower_travel);
  std::printf("    largest crack contact force %.3g N/m; largest stress in the lower half %.3g Pa (uncracked: %.4g Pa)\n",
              largest_crack_force, largest_lower_stress, uncracked);
  // Nothing pushes the faces together: no contact at all, exactly.
  EXPECT_EQ(largest_crack_force, 0.0);
  // The lower half, fixed at its bottom and cut off by the open crack, is never loaded: exactly
  // zero stress (any coupling through the shared nodes would strain it).
  EXPECT_EQ(largest_lower_stress, 0.0);
  EXPECT_LT(lower_travel, 1e-12);
  // The upper half is carried off by its top face: the opening is the face's travel less the
  // elastic ringing of the free half (a wave of amplitude v, so the free end lags by at most one
  // transit, ~0.2 ms of 5 ms): within 10%.
  EXPECT_GT(smallest_opening, 0.9 * travel);
  EXPECT_LT(smallest_opening, 1.1 * travel);
}

}  // namespace
}  // namespace tribo
