#include "tribo/pd/pmb.hpp"

#include <cmath>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "tribo/pd/bond_stress.hpp"
#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

void pmb_bond_weights(PointRange range, double micromodulus, const BondFamilies& bonds,
                      std::span<const double> bond_factor, std::span<double> weight) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
        const double lambda = bond_factor.empty() ? 1.0 : bond_factor[b];
        weight[b] = micromodulus * lambda * bonds.neighbor_volume(b) / bonds.reference_length[b];
      }
    }
  });
}

namespace {

// Two doubles in one SSE register (GCC/Clang vector extension): the square roots and divisions
// of two bonds issue as one instruction each. Both are correctly rounded in IEEE 754, so the
// values are those of the scalar code, bit for bit, and the sum below adds them in bond order.
typedef double Pair __attribute__((vector_size(16)));

inline Pair pair_sqrt(Pair v) {
#ifdef __SSE2__
  return _mm_sqrt_pd(v);
#else
  return Pair{std::sqrt(v[0]), std::sqrt(v[1])};
#endif
}

// One bond, scalar: the force term of bond b, or its breaking (returns false when it broke or was
// broken).
template <int Dim>
[[gnu::always_inline]] inline bool bond_term(std::int64_t b, const Vec<Dim>& y, double stretch_limit,
                                             const double* length, double* w, const BondFamilies& bonds,
                                             double& broken, Vec<Dim>& sum) {
  const double wb = w[b];
  if (wb == 0.0) return false;  // broken
  const double r = std::sqrt(y.squaredNorm());
  const double l = length[b];
  if (r > stretch_limit * l) {  // s > s_c: break for good (Silling & Askari 2005, mu = 0)
    w[b] = 0.0;
    broken += bonds.neighbor_volume(b);
    return false;
  }
  sum += (wb * (r - l) / r) * y;
  return true;
}

// The bond forces of points [first, last): add_pmb_forces()'s loop as a function of its own, whose
// arrays are its parameters (read through a lambda's captures, the loop ran 10% slower).
template <int Dim>
void add_pmb_forces_of(int first, int last, double stretch_limit, const Vec<Dim>* x, const double* volume,
                       const BondFamilies& bonds, double* w, double* broken_volume, Vec<Dim>* force) {
  const std::int64_t* offset = bonds.offset.data();
  const std::int32_t* neighbor = bonds.neighbor.data();
  const double* length = bonds.reference_length.data();
  for (int i = first; i < last; ++i) {
    const Vec<Dim> xi = x[i];
    Vec<Dim> sum = Vec<Dim>::Zero();
    double& broken = broken_volume[i];
    std::int64_t b = offset[i];
    const std::int64_t end = offset[i + 1];
    // Bonds two at a time while both are intact and stay so; any other pair goes bond by bond.
    for (; b + 1 < end; b += 2) {
      const Vec<Dim> y0 = x[neighbor[b]] - xi;
      const Vec<Dim> y1 = x[neighbor[b + 1]] - xi;
      const Pair wb = {w[b], w[b + 1]};
      const Pair l = {length[b], length[b + 1]};
      const Pair r2 = {y0.squaredNorm(), y1.squaredNorm()};
      const Pair r = pair_sqrt(r2);
      const Pair limit = stretch_limit * l;
      if (wb[0] == 0.0 || wb[1] == 0.0 || r[0] > limit[0] || r[1] > limit[1]) {
        bond_term<Dim>(b, y0, stretch_limit, length, w, bonds, broken, sum);
        bond_term<Dim>(b + 1, y1, stretch_limit, length, w, bonds, broken, sum);
        continue;
      }
      const Pair c = wb * (r - l) / r;
      sum += c[0] * y0;
      sum += c[1] * y1;
    }
    if (b < end) bond_term<Dim>(b, x[neighbor[b]] - xi, stretch_limit, length, w, bonds, broken, sum);
    force[i] += volume[i] * sum;
  }
}

}  // namespace

template <int Dim>
void add_pmb_forces(PointRange range, double stretch_limit, std::span<const Vec<Dim>> position,
                    std::span<const double> volume, const BondFamilies& bonds,
                    std::span<double> weight, std::span<double> broken_volume,
                    std::span<Vec<Dim>> force) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    add_pmb_forces_of<Dim>(first, last, stretch_limit, position.data(), volume.data(), bonds, weight.data(),
                           broken_volume.data(), force.data());
  });
}

template <int Dim>
void pmb_point_energy(PointRange range, std::span<const Vec<Dim>> position,
                      std::span<const double> volume, const BondFamilies& bonds,
                      std::span<const double> weight, std::span<double> energy) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
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
  });
}

template <int Dim>
void pmb_stress(PointRange range, std::span<const Vec<Dim>> position,
                std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                std::span<const double> weight, std::span<Mat3> stress) {
  bond_virial_stress<Dim>(range, position, reference_position, bonds, weight, stress,
                          [&](std::int64_t b, int, int, double r) {
                            return 0.5 * weight[b] * (r - bonds.reference_length[b]) / r;
                          });
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
