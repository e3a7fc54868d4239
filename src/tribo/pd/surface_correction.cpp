#include "tribo/pd/surface_correction.hpp"

namespace tribo::pd {

void energy_surface_correction(PointRange range, const BondFamilies& bonds, double full_integral,
                               std::span<double> correction) {
#pragma omp parallel for schedule(static)
  for (int i = range.begin; i < range.end; ++i) {
    double sum = 0.0;
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b)
      sum += bonds.reference_length[b] * bonds.neighbor_volume[b];
    correction[i] = sum > 0.0 ? full_integral / sum : 1.0;
  }
}

}  // namespace tribo::pd
