#include "tribo/pd/time_step.hpp"

#include <cmath>
#include <limits>

namespace tribo::pd {

namespace {
template <class Stiffness>
double min_time_step(PointRange range, double density, const BondFamilies& bonds,
                     std::span<const double> extra, Stiffness&& stiffness) {
  double dt = std::numeric_limits<double>::infinity();
  for (int i = range.begin; i < range.end; ++i) {
    double sum = 0.0;
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) sum += stiffness(b);
    if (sum > 0.0 && !extra.empty()) sum += extra[i];
    if (sum > 0.0) dt = std::min(dt, std::sqrt(2.0 * density / sum));
  }
  return dt;
}
}  // namespace

double critical_time_step(PointRange range, double density, const BondFamilies& bonds,
                          std::span<const double> bond_stiffness, std::span<const double> extra) {
  return min_time_step(range, density, bonds, extra,
                       [&](std::int64_t b) { return bond_stiffness[b]; });
}

double critical_time_step(PointRange range, double density, const BondFamilies& bonds,
                          double micromodulus, std::span<const double> extra) {
  return min_time_step(range, density, bonds, extra, [&](std::int64_t b) {
    return micromodulus * bonds.neighbor_volume(b) / bonds.reference_length[b];
  });
}

}  // namespace tribo::pd
