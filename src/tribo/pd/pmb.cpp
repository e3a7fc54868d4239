#include "tribo/pd/pmb.hpp"

#include <cmath>

#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

void pmb_bond_weights(PointRange range, double micromodulus, const BondFamilies& bonds,
                      std::span<const double> bond_factor, std::span<double> weight) {
#pragma omp parallel for schedule(static) if (worth_threads(bond_work(bonds, range)))
  for (int i = range.begin; i < range.end; ++i) {
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
      const double lambda = bond_factor.empty() ? 1.0 : bond_factor[b];
      weight[b] = micromodulus * lambda * bonds.neighbor_volume(b) / bonds.reference_length[b];
    }
  }
}

template <int Dim>
void add_pmb_forces(PointRange range, double stretch_limit, std::span<const Vec<Dim>> position,
                    std::span<const double> volume, const BondFamilies& bonds,
                    std::span<double> weight, std::span<double> broken_volume,
                    std::span<Vec<Dim>> force) {
  const std::int64_t* offset = bonds.offset.data();
  const std::int32_t* neighbor = bonds.neighbor.data();
  const double* length = bonds.reference_length.data();
  const Vec<Dim>* x = position.data();
  double* w = weight.data();
#pragma omp parallel for schedule(static) if (worth_threads(bond_work(bonds, range)))
  for (int i = range.begin; i < range.end; ++i) {
    const Vec<Dim> xi = x[i];
    Vec<Dim> sum = Vec<Dim>::Zero();
    for (std::int64_t b = offset[i]; b < offset[i + 1]; ++b) {
      const double wb = w[b];
      if (wb == 0.0) continue;  // broken
      const Vec<Dim> y = x[neighbor[b]] - xi;
      const double r = std::sqrt(y.squaredNorm());
      const double l = length[b];
      if (r > stretch_limit * l) {  // s > s_c: break for good (Silling & Askari 2005, mu = 0)
        w[b] = 0.0;
        broken_volume[i] += bonds.neighbor_volume(b);
        continue;
      }
      sum += (wb * (r - l) / r) * y;
    }
    force[i] += volume[i] * sum;
  }
}

template <int Dim>
void pmb_point_energy(PointRange range, std::span<const Vec<Dim>> position,
                      std::span<const double> volume, const BondFamilies& bonds,
                      std::span<const double> weight, std::span<double> energy) {
#pragma omp parallel for schedule(static) if (worth_threads(bond_work(bonds, range)))
  for (int i = range.begin; i < range.end; ++i) {
    double e = 0.0;
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
      if (weight[b] == 0.0) continue;
      const double stretch =
          (position[bonds.neighbor[b]] - position[i]).norm() - bonds.reference_length[b];
      // (1/4) c lambda s^2 |xi| beta V_j V_i = (1/4) w (|Y| - |xi|)^2 V_i
      e += 0.25 * weight[b] * stretch * stretch;
    }
    energy[i] = e * volume[i];
  }
}

template <int Dim>
void pmb_stress(PointRange range, std::span<const Vec<Dim>> position,
                std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                std::span<const double> weight, std::span<Mat3> stress) {
#pragma omp parallel for schedule(static) if (worth_threads(bond_work(bonds, range)))
  for (int i = range.begin; i < range.end; ++i) {
    Mat<Dim> s = Mat<Dim>::Zero();
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
      if (weight[b] == 0.0) continue;
      const int j = bonds.neighbor[b];
      const Vec<Dim> y = position[j] - position[i];
      const Vec<Dim> xi = reference_position[j] - reference_position[i];
      const double r = y.norm();
      s += (0.5 * weight[b] * (r - bonds.reference_length[b]) / r) * y * xi.transpose();
    }
    Mat3 out = Mat3::Zero();
    out.template topLeftCorner<Dim, Dim>() = 0.5 * (s + s.transpose());
    stress[i] = out;
  }
}

template void add_pmb_forces<2>(PointRange, double, std::span<const Vec<2>>,
                                std::span<const double>, const BondFamilies&, std::span<double>,
                                std::span<double>, std::span<Vec<2>>);
template void add_pmb_forces<3>(PointRange, double, std::span<const Vec<3>>,
                                std::span<const double>, const BondFamilies&, std::span<double>,
                                std::span<double>, std::span<Vec<3>>);
template void pmb_point_energy<2>(PointRange, std::span<const Vec<2>>, std::span<const double>,
                                  const BondFamilies&, std::span<const double>, std::span<double>);
template void pmb_point_energy<3>(PointRange, std::span<const Vec<3>>, std::span<const double>,
                                  const BondFamilies&, std::span<const double>, std::span<double>);
template void pmb_stress<2>(PointRange, std::span<const Vec<2>>, std::span<const Vec<2>>,
                            const BondFamilies&, std::span<const double>, std::span<Mat3>);
template void pmb_stress<3>(PointRange, std::span<const Vec<3>>, std::span<const Vec<3>>,
                            const BondFamilies&, std::span<const double>, std::span<Mat3>);

}  // namespace tribo::pd
