// The PD friction-model comparison of `tribo validate` (issue 6), run from its decks in examples/:
// every row must pass - the references and tolerances are written next to each problem in
// src/tribo/app/validation_pd.cpp (mu_eff of NFCM and the objective model within 5% of mu = 0.3;
// no dissipation in rigid co-rotation and angular momentum to 1e-8 for BFCM and the objective
// model; the incline within 5% of 0.5 g (sin th - mu cos th) t^2), and the seed's claims about
// the other models (BFCM's mu_eff below mu; NFCM dissipates and drifts) must show.
#include <gtest/gtest.h>

#include <cstdio>

#include "tribo/app/validation_problem.hpp"

namespace tribo::app {
namespace {

void expect_all_rows_pass(const std::string& problem) {
  for (const ValidationRow& r : run_validation_problem(problem)) {
    std::printf("    %-24s %-44s reference %.6g result %.6g error %.3g (tolerance %.3g)\n",
                r.problem.c_str(), r.quantity.c_str(), r.reference, r.result, r.error, r.tolerance);
    EXPECT_TRUE(r.pass) << r.problem << ": " << r.quantity << " = " << r.result << ", reference "
                        << r.reference << ", error " << r.error;
  }
}

TEST(PdFrictionValidation, NaiveAndObjectiveModelsGiveMuInPureSlidingAndBondFrictionLess) {
  expect_all_rows_pass("pd-friction-slide");
}
TEST(PdFrictionValidation, RigidCoRotationDissipatesNothingWithObjectiveAndBondFriction) {
  expect_all_rows_pass("pd-friction-objectivity");
}
TEST(PdFrictionValidation, ObjectiveAndBondFrictionConserveAngularMomentumOfFreeBodies) {
  expect_all_rows_pass("pd-friction-angular-mom");
}
TEST(PdFrictionValidation, ObjectiveBlockSlipsDownTheInclineAtTheAnalyticRate) {
  expect_all_rows_pass("pd-incline");
}

}  // namespace
}  // namespace tribo::app
