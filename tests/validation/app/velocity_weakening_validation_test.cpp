// Issue 15: velocity-weakening friction mu(v) = mu_k + (mu_s - mu_k) exp(-|v| / v_c), one
// implementation for MPM and PD. A block launched at 1 m/s on a flat rigid floor (mu_k = 0.2,
// mu_s = 0.4, v_c = 0.2 m/s, default contact settings) slows down as the closed form
// t(v) = [(v0 - v) + v_c ln((mu_k + d e^(-v0/v_c)) / (mu_k + d e^(-v/v_c)))] / (mu_k g) says, within
// the 2% at five speeds (src/tribo/app/validation_velocity_weakening.cpp).
#include <gtest/gtest.h>

#include <cstdio>

#include "tribo/app/validation_problem.hpp"

namespace tribo::app {
namespace {

void expect_all_rows_pass(const std::string& problem) {
  for (const ValidationRow& r : run_validation_problem_ctest(problem)) {
    std::printf("    %-22s %-26s reference %.6g result %.6g error %.3g (tolerance %.3g)\n", r.problem.c_str(),
                r.quantity.c_str(), r.reference, r.result, r.error, r.tolerance);
    EXPECT_TRUE(r.pass) << r.problem << ": " << r.quantity << " = " << r.result << ", reference " << r.reference
                        << ", error " << r.error << " > " << r.tolerance;
  }
}

TEST(VelocityWeakeningValidation, MpmBlockSlowsDownAsTheClosedForm) { expect_all_rows_pass("velocity-weakening"); }
TEST(VelocityWeakeningValidation, PdBlockSlowsDownAsTheClosedForm) { expect_all_rows_pass("pd-velocity-weakening"); }

}  // namespace
}  // namespace tribo::app
