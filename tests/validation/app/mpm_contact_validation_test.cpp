// The MPM contact validation problems of `tribo validate`, run from their decks in examples/.
// Each row compares a measured quantity with its closed-form reference at the tolerance the
// issue sets (written in src/tribo/app/validation_mpm.cpp next to each reference).
#include <gtest/gtest.h>

#include <cstdio>

#include "tribo/app/validation_problem.hpp"

namespace tribo::app {
namespace {

void expect_all_rows_pass(const std::string& problem) {
  for (const ValidationRow& r : run_validation_problem(problem)) {
    std::printf("    %-22s %-34s reference %.6g result %.6g error %.3g (tolerance %.3g)\n", r.problem.c_str(),
                r.quantity.c_str(), r.reference, r.result, r.error, r.tolerance);
    EXPECT_TRUE(r.pass) << r.problem << ": " << r.quantity << " = " << r.result << ", reference " << r.reference
                        << ", error " << r.error << " > " << r.tolerance;
  }
}

TEST(MpmContactValidation, CoulombBlockSlipsDownTheInclineAtTheAnalyticRate) { expect_all_rows_pass("incline-slip"); }
TEST(MpmContactValidation, FrictionlessBlockSlidesAtGSinTheta) { expect_all_rows_pass("incline-frictionless"); }
TEST(MpmContactValidation, CylinderRollsWithTwoThirdsGSinTheta) { expect_all_rows_pass("rolling-cylinder"); }
TEST(MpmContactValidation, StaticFrictionAboveTanThetaHoldsTheBlock) { expect_all_rows_pass("incline-stick"); }
TEST(MpmContactValidation, StaticFrictionBelowTanThetaLetsTheBlockSlideAtTheKineticRate) {
  expect_all_rows_pass("incline-static-slip");
}
TEST(MpmContactValidation, ObliqueDiskImpactConservesMomentumToRoundOff) { expect_all_rows_pass("oblique-disks"); }
// Issue 13: kinetic + strain + frictional work within 1% of E0 through the impact and after it (with
// APIC transfers, the default since stop 16: 0.77%; FLIP's 1.68% failed; docs/mpm-contact.md).
TEST(MpmContactValidation, ObliqueDiskImpactClosesItsEnergyBalance) { expect_all_rows_pass("oblique-disks-energy"); }
// Issue 13: two deformable bodies (elastic floor) with the default normals, within 3% as on a rigid floor.
// Since stop 18 the defaults are logistic-regression normals with the position check: -0.76%.
TEST(MpmContactValidation, BlockSlipsDownAnElasticFloorAtTheAnalyticRate) {
  expect_all_rows_pass("incline-elastic-floor");
}
// The same half a cell off the node rows, where the earlier defaults (max-volume-gradient normals,
// displacement check) stuck the block (-99.8%: a corner node's normal nearly horizontal). Measured
// with the stop-18 defaults: +0.50% (docs/mpm-contact.md, "Defaults that generalize").
TEST(MpmContactValidation, BlockSlipsDownAnElasticFloorOffTheNodeRows) {
  expect_all_rows_pass("incline-elastic-floor-offset");
}
// Issue 13: travel within 3% of v0^2 / (2 mu g), energy within 1%, drift after the stop < 0.1%.
TEST(MpmContactValidation, BlockSlidesToRestConservesEnergyAndStays) { expect_all_rows_pass("slide-to-rest"); }
// The same with the block and floor half a cell off the node rows (the floor's top between two
// rows): a result that holds only on the aligned lattice would be tuned to it. Measured: travel
// +1.59%, energy 0.93%, drift 4.9e-5 (docs/mpm-contact.md, "Lattice offset").
TEST(MpmContactValidation, BlockSlidesToRestOffTheNodeRows) { expect_all_rows_pass("slide-to-rest-offset"); }
// The same with NairnMPM's pass semantics (first pass not reaching the particles; frictional work
// of the post-update pass alone).
TEST(MpmContactValidation, BlockSlidesToRestWithNairnPassSemantics) {
  expect_all_rows_pass("slide-to-rest-nairn-passes");
}
// Issue 13 with the default normal law (the penalty since stop 19): sliding deceleration within 3%
// of mu g, rolling speed within 3% of (2/3) v0 at 10 cells per radius, energy within 1%. The
// impulse law's approach check loads the front half of the contact row and rolls at -4.58%
// (rolling-disk-impulse, not here: it fails). Measured: +1.05%, -1.32%, 0.28% (docs/mpm-contact.md,
// "Penalty normal law").
TEST(MpmContactValidation, DiskLaunchedWithoutSpinDeceleratesAtMuGRollsAtTwoThirdsAndConservesEnergy) {
  expect_all_rows_pass("rolling-disk");
}
// The same half a cell off the node rows: +1.00%, +0.08%, 0.40% (impulse law -3.67%, energy 2.56%).
TEST(MpmContactValidation, DiskLaunchedWithoutSpinRollsAtTwoThirdsOffTheNodeRows) {
  expect_all_rows_pass("rolling-disk-offset");
}
// The seed's impulse law still slides a block to rest off the rows (travel +1.59%, energy 0.93%,
// drift 4.5e-5), for decks that name it.
TEST(MpmContactValidation, BlockWithTheImpulseNormalLawSlidesToRestOffTheNodeRows) {
  expect_all_rows_pass("slide-to-rest-impulse-offset");
}
// The oblique impact with the penalty law (its deck names the impulse law's keys): its springs'
// energy booked as the work done on them; measured 0.58% of E0.
TEST(MpmContactValidation, ObliqueDiskImpactWithThePenaltyLawClosesItsEnergyBalance) {
  expect_all_rows_pass("oblique-disks-energy-penalty");
}

}  // namespace
}  // namespace tribo::app
