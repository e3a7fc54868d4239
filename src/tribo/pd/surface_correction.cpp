#include "tribo/pd/surface_correction.hpp"

#include <cmath>
#include <numbers>

#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

template <int Dim>
double full_horizon_axial_integral(double horizon, double thickness, int power, double poisson) {
  // Angular means: 3D <n_x^2> = 1/3, <n_x^4> = 1/5; 2D <cos^2> = 1/2, <cos^4> = 3/8.
  constexpr double pi = std::numbers::pi;
  const double nu = poisson;
  const double mean2 = Dim == 3 ? 1.0 / 3.0 : 0.5, mean4 = Dim == 3 ? 0.2 : 0.375;
  const double a = (1 + nu) * (1 + nu) * mean4 - 2 * nu * (1 + nu) * mean2 + nu * nu;
  if constexpr (Dim == 3) {
    return 4.0 * pi * a * std::pow(horizon, power + 3) / (power + 3);
  } else {
    return 2.0 * pi * a * thickness * std::pow(horizon, power + 2) / (power + 2);
  }
}

template <int Dim>
void axial_energy_factors(PointRange range, std::span<const Vec<Dim>> reference_position,
                          const BondFamilies& bonds, int power, double poisson,
                          double full_integral, std::span<double> correction) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      Vec<Dim> sum = Vec<Dim>::Zero();
      for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
        const Vec<Dim> xi = reference_position[bonds.neighbor[b]] - reference_position[i];
        const double l = bonds.reference_length[b];
        // Stretch per unit zeta of the uniaxial stress state along each axis.
        const Vec<Dim> s = ((1.0 + poisson) * (xi / l).array().square() - poisson).matrix();
        sum += (std::pow(l, power) * bonds.neighbor_volume(b)) * s.cwiseProduct(s);
      }
      for (int d = 0; d < Dim; ++d)
        correction[Dim * i + d] = sum[d] > 0.0 ? full_integral / sum[d] : 1.0;
    }
  });
}

template <int Dim>
void bond_correction_factors(PointRange range, std::span<const Vec<Dim>> reference_position,
                             const BondFamilies& bonds, std::span<const double> correction,
                             std::span<double> bond_factor) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
        const int j = bonds.neighbor[b];
        const Vec<Dim> n =
            (reference_position[j] - reference_position[i]) / bonds.reference_length[b];
        double s = 0.0;
        for (int d = 0; d < Dim; ++d) {
          const double g = 0.5 * (correction[Dim * i + d] + correction[Dim * j + d]);
          s += n[d] * n[d] / (g * g);
        }
        bond_factor[b] = 1.0 / std::sqrt(s);
      }
    }
  });
}

template double full_horizon_axial_integral<2>(double, double, int, double);
template double full_horizon_axial_integral<3>(double, double, int, double);
template void axial_energy_factors<2>(PointRange, std::span<const Vec<2>>, const BondFamilies&, int,
                                      double, double, std::span<double>);
template void axial_energy_factors<3>(PointRange, std::span<const Vec<3>>, const BondFamilies&, int,
                                      double, double, std::span<double>);
template void bond_correction_factors<2>(PointRange, std::span<const Vec<2>>, const BondFamilies&,
                                         std::span<const double>, std::span<double>);
template void bond_correction_factors<3>(PointRange, std::span<const Vec<3>>, const BondFamilies&,
                                         std::span<const double>, std::span<double>);

}  // namespace tribo::pd
