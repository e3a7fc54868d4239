// The slip speed of a PD contact point for its static-friction slip history
// (pd/slip_history.hpp): the mean of its pairs' slip speeds weighted by the normal load each
// carries, against hand sums and the weights' closed form (they add up to 1).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tribo::pd
