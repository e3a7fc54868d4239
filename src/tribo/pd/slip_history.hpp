#pragma once
// The slip history of static friction on PD contact points (docs/pd-friction.md, "Static
// friction"): the load-weighted slip speed of a point, and the ageing of its slip history.
#include <cmath>
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

// One step dt of the slip history D of a sliding point under Dieterich's ageing law
// (Dieterich 1979, J. Geophys. Res. 84:2161; Ruina 1983, J. Geophys. Res. 88:10359):
//   d theta / dt = 1 - s theta / D_c,
// theta the contact's age, s the slip speed. Written for the slip-weakening variable
// D = D_c ln(theta0 / theta) (D = 0 at the fully aged contact theta0 = D_c / V0, D >= 0):
//   dD/dt = s - V0 exp(D / D_c),
// the slip-weakening rule D' = s (the ageing term dropped) plus healing at the rate V0 e^(D/D_c).
// With x = exp(-D / D_c) the law is linear, dx/dt = (V0 - s x) / D_c, and one step with s and V0
// held is solved exactly (stable for any step):
//   x1 = V0/s + (x0 - V0/s) exp(-s dt / D_c)   (s > 0),   x1 = x0 + V0 dt / D_c   (s = 0),
// then x1 <= 1 (a contact ages no further than full static strength). Steady sliding at s > V0
// holds D = D_c ln(s / V0). V0 = 0 (no ageing) is the plain history D + s dt.
inline double aged_slip(double slip, double slip_speed, double healing_speed,
                        double weakening_distance, double dt) {
  if (!(healing_speed > 0.0)) return slip + slip_speed * dt;
  if (std::isinf(healing_speed)) return 0.0;  // heals at once (a rigid point)
  const double x0 = std::exp(-slip / weakening_distance);
  double x;
  if (slip_speed > 0.0) {
    const double steady = healing_speed / slip_speed;
    x = steady + (x0 - steady) * std::exp(-slip_speed * dt / weakening_distance);
  } else {
    x = x0 + healing_speed * dt / weakening_distance;
  }
  return x >= 1.0 ? 0.0 : -weakening_distance * std::log(x);
}

}  // namespace tribo::pd
