#pragma once
// Bond families as a flat CSR list: the bonds of point i are [offset[i], offset[i+1]). Each bond
// is stored twice (i->j in i's family, j->i in j's) so that the force pass is owner-computes:
// point i sums its own bonds only, with no write to j, which is race-free under OpenMP and gives
// results independent of the thread count (LAMMPS' PERI keeps the same full partner lists).
#include <cstdint>
#include <vector>

namespace tribo::pd {

struct BondFamilies {
  std::vector<std::int64_t> offset;      // size points + 1
  std::vector<std::int32_t> neighbor;    // j of each bond
  std::vector<double> reference_length;  // |xi| = |X_j - X_i|, m
  // Partial-volume fraction beta of the neighbour's cell inside the horizon (in [0.5, 1]), times
  // the neighbour's volume: beta V_j, m^3. The quadrature weight of the bond.
  std::vector<double> neighbor_volume;

  int point_count() const { return offset.empty() ? 0 : static_cast<int>(offset.size()) - 1; }
  std::int64_t bond_count() const { return offset.empty() ? 0 : offset.back(); }
  std::int64_t begin(int i) const { return offset[i]; }
  std::int64_t end(int i) const { return offset[i + 1]; }
};

}  // namespace tribo::pd
