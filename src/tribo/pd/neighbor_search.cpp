#include "tribo/pd/neighbor_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

double family_radius(PartialVolumeRule rule, double horizon, double spacing) {
  return rule == PartialVolumeRule::Hhb ? horizon + 0.5 * spacing : horizon;
}

namespace {

// A uniform grid of cells of side `cell` over one group's points, as a counting sort: the points
// of cell c are points[start[c] .. start[c+1]).
template <int Dim>
struct CellGrid {
  Vec<Dim> lo = Vec<Dim>::Zero();
  IVec<Dim> dims = IVec<Dim>::Ones();
  double cell = 1.0;
  std::vector<int> start;
  std::vector<int> points;

  IVec<Dim> cell_of(const Vec<Dim>& x) const {
    IVec<Dim> c;
    for (int d = 0; d < Dim; ++d)
      c[d] = std::clamp(static_cast<int>(std::floor((x[d] - lo[d]) / cell)), 0, dims[d] - 1);
    return c;
  }
  std::int64_t linear(const IVec<Dim>& c) const {
    std::int64_t k = 0;
    for (int d = Dim - 1; d >= 0; --d) k = k * dims[d] + c[d];
    return k;
  }
};

template <int Dim>
CellGrid<Dim> bin_points(const std::vector<Vec<Dim>>& x, const std::vector<int>& members,
                         double cell) {
  CellGrid<Dim> grid;
  grid.cell = cell;
  Vec<Dim> lo = x[members.front()], hi = lo;
  for (int p : members) {
    lo = lo.cwiseMin(x[p]);
    hi = hi.cwiseMax(x[p]);
  }
  grid.lo = lo;
  std::int64_t cells = 1;
  for (int d = 0; d < Dim; ++d) {
    grid.dims[d] = static_cast<int>(std::floor((hi[d] - lo[d]) / cell)) + 1;
    cells *= grid.dims[d];
  }
  if (cells > std::int64_t{1} << 31)
    throw std::length_error("pd neighbour search: too many cells for one body");
  grid.start.assign(static_cast<std::size_t>(cells) + 1, 0);
  for (int p : members) ++grid.start[grid.linear(grid.cell_of(x[p])) + 1];
  for (std::size_t c = 1; c < grid.start.size(); ++c) grid.start[c] += grid.start[c - 1];
  grid.points.resize(members.size());
  std::vector<int> fill(grid.start.begin(), grid.start.end() - 1);
  for (int p : members) grid.points[fill[grid.linear(grid.cell_of(x[p]))]++] = p;
  return grid;
}

// Calls visit(j) for every point j != i of the grid within the horizon of i.
template <int Dim, class Visit>
void for_each_neighbor(const CellGrid<Dim>& grid, const std::vector<Vec<Dim>>& x, int i,
                       double horizon_squared, Visit&& visit) {
  const IVec<Dim> ci = grid.cell_of(x[i]);
  IVec<Dim> lo, hi;
  for (int d = 0; d < Dim; ++d) {
    lo[d] = std::max(ci[d] - 1, 0);
    hi[d] = std::min(ci[d] + 1, grid.dims[d] - 1);
  }
  IVec<Dim> c = lo;
  while (true) {
    const std::int64_t k = grid.linear(c);
    for (int s = grid.start[k]; s < grid.start[k + 1]; ++s) {
      const int j = grid.points[s];
      if (j != i && (x[j] - x[i]).squaredNorm() <= horizon_squared) visit(j);
    }
    int d = 0;
    for (; d < Dim; ++d) {
      if (++c[d] <= hi[d]) break;
      c[d] = lo[d];
    }
    if (d == Dim) break;
  }
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
  std::vector<CellGrid<Dim>> grids(groups);
  for (int g = 0; g < groups; ++g)
    if (!members[g].empty()) grids[g] = bin_points<Dim>(x, members[g], radius);

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
