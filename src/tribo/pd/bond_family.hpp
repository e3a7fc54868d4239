#pragma once
// Bond families as a flat CSR list: the bonds of point i are [offset[i], offset[i+1]). Each bond
// is stored twice (i->j in i's family, j->i in j's) so that the force pass is owner-computes:
// point i sums its own bonds only, with no write to j, which is race-free under OpenMP and gives
// results independent of the thread count (LAMMPS' PERI keeps the same full partner lists).
//
// Memory: a bond entry holds its neighbour (4 B) and |xi| (8 B); the solver adds one weight
// (8 B), 20 B in all (issue 17: at most 24). The quadrature weight beta V_j is not stored: it is a
// function of |xi| and V_j alone (partial_volume_fraction below), recomputed where it is needed
// (set-up, a bond breaking, the friction model's shape tensor) with the same expression the
// search used, so every value is bit-for-bit the one it would have stored.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace tribo::pd {

// Partial volume of a neighbour cell of side h whose centre is at distance r from the family's
// centre, for a horizon delta: 1 inside delta - h/2, then falling linearly, (delta + h/2 - r)/h
// (neighbor_search.hpp cites the two rules that differ in where the family ends).
inline double partial_volume_fraction(double r, double horizon, double spacing) {
  const double half = 0.5 * spacing;
  if (r <= horizon - half) return 1.0;
  return std::clamp((horizon + half - r) / spacing, 0.0, 1.0);
}

struct BondFamilies {
  std::vector<std::int64_t> offset;      // size points + 1
  std::vector<std::int32_t> neighbor;    // j of each bond
  std::vector<double> reference_length;  // |xi| = |X_j - X_i|, m
  // What beta V_j is made of: each point's volume (m^3), the horizon and the lattice spacing.
  std::vector<double> point_volume;
  double horizon = 0.0;
  double spacing = 0.0;

  int point_count() const { return offset.empty() ? 0 : static_cast<int>(offset.size()) - 1; }
  std::int64_t bond_count() const { return offset.empty() ? 0 : offset.back(); }
  std::int64_t begin(int i) const { return offset[i]; }
  std::int64_t end(int i) const { return offset[i + 1]; }
  // Partial-volume fraction beta of the neighbour's cell inside the horizon (in [0.5, 1]), times
  // the neighbour's volume: beta V_j, m^3. The quadrature weight of the bond.
  double neighbor_volume(std::int64_t b) const {
    return partial_volume_fraction(reference_length[b], horizon, spacing) * point_volume[neighbor[b]];
  }
};

}  // namespace tribo::pd
