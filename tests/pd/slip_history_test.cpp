// The slip history of PD static friction (pd/slip_history.hpp): the load-weighted slip speed of
// a point, and one step of Dieterich's ageing law in slip form, dD/dt = s - V0 exp(D / D_c),
// against its closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tribo/pd/slip_history.hpp"

namespace tribo::pd {
namespace {

// Three points, three pairs: point 0 in pairs 0 (N = 1, slides at 2) and 1 (N = 3, sticks);
// point 1 in pairs 0 and 2 (N = 2, slides at 5); point 2 in pairs 1 and 2. The slip speed of a
// point is sum_k (N_k / N_p) s_k over its sliding pairs, N_p the sum of its pairs' N:
//   point 0: (1/4) 2 = 0.5;  point 1: (1/3) 2 + (2/3) 5 = 4;  point 2: (2/5) 5 = 2.
// Point 3 is in no pair: -1 (no pair slides: its history restarts).
TEST(SlipHistory, LoadWeightedSlipSpeedIsTheMeanOfItsPairsByLoad) {
  const std::vector<int> first{0, 0, 1}, second{1, 2, 2};
  const std::vector<double> normal{1.0, 3.0, 2.0}, pair_slip{2.0, -1.0, 5.0};
  const std::vector<double> normal_of_point{4.0, 3.0, 5.0, 0.0};
  std::vector<double> speed(4, 123.0);
  load_weighted_slip_speed(first, second, normal, normal_of_point, pair_slip, speed);
  // Exact sums of at most two terms: round-off only.
  EXPECT_NEAR(speed[0], 0.5, 1e-15);
  EXPECT_NEAR(speed[1], 4.0, 1e-15);
  EXPECT_NEAR(speed[2], 2.0, 1e-15);
  EXPECT_EQ(speed[3], -1.0);
}

// A point whose pairs all slide at one speed s slips at s whatever their loads (the weights
// N_k / N_p add up to 1), and a point whose pairs all stick is marked -1.
TEST(SlipHistory, UniformSlipGivesThatSpeedAndAllStickGivesNone) {
  const std::vector<int> first{0, 0, 0, 2}, second{1, 1, 3, 3};
  const std::vector<double> normal{0.3, 1.7, 5.0, 2.0};
  const std::vector<double> normal_of_point{7.0, 2.0, 2.0, 7.0};
  std::vector<double> speed(4);
  load_weighted_slip_speed(first, second, normal, normal_of_point,
                           std::vector<double>{0.25, 0.25, 0.25, -1.0}, speed);
  EXPECT_NEAR(speed[0], 0.25, 1e-15);
  EXPECT_NEAR(speed[1], 0.25, 1e-15);
  EXPECT_EQ(speed[2], -1.0);
  EXPECT_NEAR(speed[3], 0.25 * 5.0 / 7.0, 1e-15);
}

// Without ageing (V0 = 0) the history is the plain slip, D + s dt.
TEST(SlipHistory, NoAgeingIsThePlainSlip) {
  EXPECT_EQ(aged_slip(0.3, 2.0, 0.0, 1.0, 0.01), 0.3 + 2.0 * 0.01);
}

// Dieterich's ageing law in theta, d theta/dt = 1 - s theta / D_c, with s constant, has
//   theta(t) = D_c/s + (theta0' - D_c/s) exp(-s t / D_c);
// D = D_c ln(theta0 / theta), theta0 = D_c / V0. Many small steps and one large step of
// aged_slip must both give it (the step is exact for constant s and V0): to round-off.
TEST(SlipHistory, AgeingStepIsDieterichsLawExactly) {
  const double dc = 2.5e-3, v0 = 0.015, s = 0.05;
  const double theta0 = dc / v0;
  const double d_start = 0.4 * dc;
  const double theta_start = theta0 * std::exp(-d_start / dc);
  const double t = 0.2;
  const double theta = dc / s + (theta_start - dc / s) * std::exp(-s * t / dc);
  const double expected = dc * std::log(theta0 / theta);
  double d = d_start;
  const int n = 1000;
  for (int i = 0; i < n; ++i) d = aged_slip(d, s, v0, dc, t / n);
  EXPECT_NEAR(d, expected, 1e-12 * dc);
  EXPECT_NEAR(aged_slip(d_start, s, v0, dc, t), expected, 1e-12 * dc);
  // Long steady sliding at s > V0 holds D = D_c ln(s / V0) (dD/dt = 0 there).
  EXPECT_NEAR(aged_slip(0.0, s, v0, dc, 100.0), dc * std::log(s / v0), 1e-12 * dc);
  // Slip below V0 heals the contact to full strength, D = 0.
  EXPECT_EQ(aged_slip(0.5 * dc, 0.5 * v0, v0, dc, 100.0), 0.0);
}

// At rest (s = 0) theta grows linearly, theta = theta_start + t, until the contact is aged
// (theta = theta0, D = 0): D(t) = -D_c ln(exp(-D_start / D_c) + V0 t / D_c).
TEST(SlipHistory, AtRestTheContactAgesLinearlyInTheta) {
  const double dc = 1e-3, v0 = 0.01, d_start = 3.0 * dc, t = 0.02;
  const double expected = -dc * std::log(std::exp(-d_start / dc) + v0 * t / dc);
  EXPECT_NEAR(aged_slip(d_start, 0.0, v0, dc, t), expected, 1e-12 * dc);
  // A fully weakened contact heals in theta0 = D_c / V0 at most.
  EXPECT_EQ(aged_slip(d_start, 0.0, v0, dc, dc / v0), 0.0);
  // A rigid point (V0 infinite) keeps no history.
  EXPECT_EQ(aged_slip(d_start, 1.0, INFINITY, dc, 1e-6), 0.0);
}

}  // namespace
}  // namespace tribo::pd
