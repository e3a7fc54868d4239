#pragma once
// The slip history of static friction on PD contact points (docs/pd-friction.md, "Static
// friction"): the slip speed of a point, from which pd_contact.cpp update_slip advances it.
#include <cstddef>
#include <span>

namespace tribo::pd {

// A point's slip speed: the mean of its pairs' slip speeds (0 for a pair that sticks, marked by
// a negative pair slip) weighted by the part of the point's normal force each carries,
// N_k / N_p with N_p = sum of its pairs' N_k: the slip of its contact as a whole. out[p] stays
// -1 when no pair of p slides. `normal_of_point` holds N_p for every point of a pair.
inline void load_weighted_slip_speed(std::span<const int> first, std::span<const int> second,
                                     std::span<const double> normal,
                                     std::span<const double> normal_of_point,
                                     std::span<const double> pair_slip, std::span<double> out) {
  for (double& s : out) s = -1.0;
  for (std::size_t k = 0; k < first.size(); ++k) {
    if (pair_slip[k] < 0.0) continue;  // sticks
    for (int point : {first[k], second[k]}) {
      const double sum = out[point] < 0.0 ? 0.0 : out[point];
      out[point] = sum + normal[k] / normal_of_point[point] * pair_slip[k];
    }
  }
}

}  // namespace tribo::pd
