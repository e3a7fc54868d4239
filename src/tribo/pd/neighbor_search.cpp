#include "tribo/pd/neighbor_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "tribo/pd/cell_list.hpp"
#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

double family_radius(PartialVolumeRule rule, double horizon, double spacing) {
  return rule == PartialVolumeRule::Hhb ? horizon + 0.5 * spacing : horizon;
}

namespace {

// Calls visit(j) for every point j != i of the grid within the horizon of i.
template <int Dim, class Visit>
void for_each_neighbor(const CellList<Dim>& grid, const std::vector<Vec<Dim>>& x, int i,
                       double horizon_squared, Visit&& visit) {
  grid.for_each_near(x[i], [&](int j) {
    if (j != i && (x[j] - x[i]).squaredNorm() <= horizon_squared) visit(j);
  });
}

}  // namespace

template <int Dim>
BondFamilies build_bond_families(const NeighborSearchInput<Dim>& input) {
  const auto& x = *input.reference_position;
  const auto& group = *input.group;
  const int n = static_cast<int>(x.size());
  const double delta = input.horizon;
  const double radius = family_radius(input.rule, delta, input.spacing);
  const double radius_squared = input.rule == PartialVolumeRule::Hhb
                                    ? radius * radius * (1.0 - 1e-10)
                                    : radius * radius * (1.0 + 1e-10);

  // Group the bonded points by body; each body gets its own grid over its own bounds.
  int groups = 0;
  for (int g : group) groups = std::max(groups, g + 1);
  std::vector<std::vector<int>> members(groups);
  for (int i = 0; i < n; ++i)
    if (!input.bonded || (*input.bonded)[i]) members[group[i]].push_back(i);
  // Each group's own grid over its own points (a family is sorted below, so the walk's order
  // does not matter).
  std::vector<CellList<Dim>> grids(groups);
  for (int g = 0; g < groups; ++g)
    if (!members[g].empty()) {
      const std::vector<int>& m = members[g];
      grids[g].build(std::span<const Vec<Dim>>(x), static_cast<std::int64_t>(m.size()),
                     [&](std::int64_t k) { return m[k]; }, radius);
    }

  BondFamilies bonds;
  bonds.offset.assign(n + 1, 0);
  for (int g = 0; g < groups; ++g) {
    const auto& m = members[g];
#pragma omp parallel for schedule(static) if (worth_threads(64 * std::int64_t(m.size())))
    for (std::size_t k = 0; k < m.size(); ++k) {
      std::int64_t count = 0;
      for_each_neighbor<Dim>(grids[g], x, m[k], radius_squared, [&](int) { ++count; });
      bonds.offset[m[k] + 1] = count;
    }
  }
  for (int i = 0; i < n; ++i) bonds.offset[i + 1] += bonds.offset[i];
  const std::int64_t total = bonds.offset[n];
  if (total > std::int64_t{1} << 40) throw std::length_error("pd: too many bonds");
  bonds.neighbor.resize(total);
  bonds.reference_length.resize(total);
  bonds.point_volume = *input.volume;
  bonds.horizon = delta;
  bonds.spacing = input.spacing;

  for (int g = 0; g < groups; ++g) {
    const auto& m = members[g];
#pragma omp parallel for schedule(static) if (worth_threads(64 * std::int64_t(m.size())))
    for (std::size_t k = 0; k < m.size(); ++k) {
      const int i = m[k];
      std::int64_t b = bonds.offset[i];
      for_each_neighbor<Dim>(grids[g], x, i, radius_squared,
                             [&](int j) { bonds.neighbor[b++] = static_cast<std::int32_t>(j); });
      // Ascending neighbour order: the force pass then walks memory forward.
      std::sort(bonds.neighbor.begin() + bonds.offset[i], bonds.neighbor.begin() + b);
      for (std::int64_t q = bonds.offset[i]; q < b; ++q) {
        const int j = bonds.neighbor[q];
        const double r = (x[j] - x[i]).norm();
        bonds.reference_length[q] = r;
      }
    }
  }
  return bonds;
}

template BondFamilies build_bond_families<2>(const NeighborSearchInput<2>&);
template BondFamilies build_bond_families<3>(const NeighborSearchInput<3>&);

}  // namespace tribo::pd
