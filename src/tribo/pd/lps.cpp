#include "tribo/pd/lps.hpp"

#include <cmath>

#include "tribo/pd/bond_stress.hpp"
#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

void lps_weighted_volume(PointRange range, const BondFamilies& bonds,
                         std::span<const double> weight, std::span<double> weighted_volume) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      double m = 0.0;
      for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
        const double l = bonds.reference_length[b];
        m += l * l * weight[b];
      }
      weighted_volume[i] = m;
    }
  });
}

template <int Dim>
void lps_dilatation(PointRange range, double stretch_limit, std::span<const Vec<Dim>> position,
                    const BondFamilies& bonds, std::span<const double> weighted_volume,
                    std::span<double> weight, std::span<double> broken_volume,
                    std::span<double> dilatation) {
  const std::int64_t* offset = bonds.offset.data();
  const std::int32_t* neighbor = bonds.neighbor.data();
  const double* length = bonds.reference_length.data();
  const Vec<Dim>* x = position.data();
  double* w = weight.data();
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      const Vec<Dim> xi = x[i];
      double sum = 0.0;
      for (std::int64_t b = offset[i]; b < offset[i + 1]; ++b) {
        const double wb = w[b];
        if (wb == 0.0) continue;
        const double r = (x[neighbor[b]] - xi).norm();
        const double l = length[b];
        if (r > stretch_limit * l) {
          w[b] = 0.0;
          broken_volume[i] += bonds.neighbor_volume(b);
          continue;
        }
        sum += wb * l * (r - l);
      }
      const double m = weighted_volume[i];
      dilatation[i] = m > 0.0 ? Dim * sum / m : 0.0;
    }
  });
}

template <int Dim>
void lps_force_coefficients(PointRange range, double bulk_modulus, double shear_factor,
                            std::span<const double> weighted_volume,
                            std::span<const double> dilatation, std::span<double> coefficient,
                            std::span<double> alpha) {
  for_each_block<int>(range.begin, range.end, worth_threads(range.size()), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      const double m = weighted_volume[i];
      if (m <= 0.0) {
        coefficient[i] = alpha[i] = 0.0;
        continue;
      }
      alpha[i] = shear_factor / m;
      coefficient[i] = dilatation[i] * (Dim * bulk_modulus / m - alpha[i] / Dim);
    }
  });
}

template <int Dim>
void add_lps_forces(PointRange range, std::span<const Vec<Dim>> position,
                    std::span<const double> volume, const BondFamilies& bonds,
                    std::span<const double> weight, std::span<const double> coefficient,
                    std::span<const double> alpha, std::span<Vec<Dim>> force) {
  const std::int64_t* offset = bonds.offset.data();
  const std::int32_t* neighbor = bonds.neighbor.data();
  const double* length = bonds.reference_length.data();
  const Vec<Dim>* x = position.data();
  const double* w = weight.data();
  const double* a = coefficient.data();
  const double* al = alpha.data();
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      const Vec<Dim> xi = x[i];
      const double ai = a[i], ali = al[i];
      Vec<Dim> sum = Vec<Dim>::Zero();
      for (std::int64_t b = offset[i]; b < offset[i + 1]; ++b) {
        const double wb = w[b];
        if (wb == 0.0) continue;
        const int j = neighbor[b];
        const Vec<Dim> y = x[j] - xi;
        const double r = y.norm();
        const double l = length[b];
        const double t = (ai + a[j]) * l + (ali + al[j]) * (r - l);  // t_ij + t_ji
        sum += (wb * t / r) * y;
      }
      force[i] += volume[i] * sum;
    }
  });
}

template <int Dim>
void lps_point_energy(PointRange range, double bulk_modulus, std::span<const Vec<Dim>> position,
                      std::span<const double> volume, const BondFamilies& bonds,
                      std::span<const double> weight, std::span<const double> dilatation,
                      std::span<const double> alpha, std::span<double> energy) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      const double theta = dilatation[i];
      double deviatoric = 0.0;
      for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
        if (weight[b] == 0.0) continue;
        const double l = bonds.reference_length[b];
        const double e = (position[bonds.neighbor[b]] - position[i]).norm() - l;
        const double ed = e - theta * l / Dim;
        deviatoric += weight[b] * ed * ed;
      }
      energy[i] = volume[i] * (0.5 * bulk_modulus * theta * theta + 0.5 * alpha[i] * deviatoric);
    }
  });
}

template <int Dim>
void lps_stress(PointRange range, std::span<const Vec<Dim>> position,
                std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                std::span<const double> weight, std::span<const double> coefficient,
                std::span<const double> alpha, std::span<Mat3> stress) {
  bond_virial_stress<Dim>(range, position, reference_position, bonds, weight, stress,
                          [&](std::int64_t b, int i, int j, double r) {
                            const double l = bonds.reference_length[b];
                            const double t = (coefficient[i] + coefficient[j]) * l + (alpha[i] + alpha[j]) * (r - l);
                            return 0.5 * weight[b] * t / r;
                          });
}

#define TRIBO_PD_LPS_INSTANTIATE(D)                                                                \
  template void lps_dilatation<D>(PointRange, double, std::span<const Vec<D>>,                     \
                                  const BondFamilies&, std::span<const double>, std::span<double>, \
                                  std::span<double>, std::span<double>);                           \
  template void lps_force_coefficients<D>(PointRange, double, double, std::span<const double>,     \
                                          std::span<const double>, std::span<double>,              \
                                          std::span<double>);                                      \
  template void add_lps_forces<D>(PointRange, std::span<const Vec<D>>, std::span<const double>,    \
                                  const BondFamilies&, std::span<const double>,                    \
                                  std::span<const double>, std::span<const double>,                \
                                  std::span<Vec<D>>);                                              \
  template void lps_point_energy<D>(PointRange, double, std::span<const Vec<D>>,                   \
                                    std::span<const double>, const BondFamilies&,                  \
                                    std::span<const double>, std::span<const double>,              \
                                    std::span<const double>, std::span<double>);                   \
  template void lps_stress<D>(PointRange, std::span<const Vec<D>>, std::span<const Vec<D>>,        \
                              const BondFamilies&, std::span<const double>,                        \
                              std::span<const double>, std::span<const double>, std::span<Mat3>);
TRIBO_PD_LPS_INSTANTIATE(2)
TRIBO_PD_LPS_INSTANTIATE(3)
#undef TRIBO_PD_LPS_INSTANTIATE

}  // namespace tribo::pd
