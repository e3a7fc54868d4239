#pragma once
// The stress of a point from its bonds, for output (PMB and LPS share it): the virial of the bond
// forces over the family, sigma_i = sym( sum_j (1/2) (t_ij / |Y|) Y (x) xi ) (the estimate that
// pmb.hpp and lps.hpp document), where
// `scaled_tension(b, i, j, r)` returns the bond's (1/2) t_ij / |Y| for bond b between i and j at
// current length r. A template, so the per-bond call inlines.
#include <cstdint>
#include <span>

#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

template <int Dim, class ScaledTension>
void bond_virial_stress(PointRange range, std::span<const Vec<Dim>> position,
                        std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                        std::span<const double> weight, std::span<Mat3> stress, ScaledTension scaled_tension) {
  for_each_block<int>(range.begin, range.end, worth_threads(bond_work(bonds, range)), [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      Mat<Dim> s = Mat<Dim>::Zero();
      for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
        if (weight[b] == 0.0) continue;
        const int j = bonds.neighbor[b];
        const Vec<Dim> y = position[j] - position[i];
        const Vec<Dim> xi = reference_position[j] - reference_position[i];
        s += scaled_tension(b, i, j, y.norm()) * y * xi.transpose();
      }
      Mat3 out = Mat3::Zero();
      out.template topLeftCorner<Dim, Dim>() = 0.5 * (s + s.transpose());
      stress[i] = out;
    }
  });
}

}  // namespace tribo::pd
