#include "tribo/mpm/particle_sort.hpp"

#include <algorithm>

namespace tribo::mpm {

template <int Dim>
void ParticleSorter<Dim>::allocate(const Grid<Dim>& grid, std::size_t particle_count) {
  long cells = 1;
  for (int d = 0; d < Dim; ++d) cells *= std::max(1, grid.nodes[d] - 1);
  cell_of_.assign(particle_count, 0);
  count_.assign(cells + 1, 0);
  order_.assign(particle_count, 0);
}

template <int Dim>
bool ParticleSorter<Dim>::sort_by_cell(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions) {
  const long n = static_cast<long>(positions.size());
  if (static_cast<long>(order_.size()) != n) allocate(grid, positions.size());  // never in a run
  IVec<Dim> cells;
  for (int d = 0; d < Dim; ++d) cells[d] = std::max(1, grid.nodes[d] - 1);
#pragma omp parallel for schedule(static)
  for (long p = 0; p < n; ++p) {
    long key = 0;
    for (int d = Dim - 1; d >= 0; --d) {
      // Clamped: a particle off the grid (about to fail the health check) sorts to the edge.
      const double c = std::floor(grid.coordinate(positions[p][d], d));
      key = key * cells[d] + static_cast<long>(std::clamp(c, 0.0, static_cast<double>(cells[d] - 1)));
    }
    cell_of_[p] = key;
  }
  bool sorted = true;
  for (long p = 1; p < n && sorted; ++p) sorted = cell_of_[p - 1] <= cell_of_[p];
  if (sorted) return false;
  std::fill(count_.begin(), count_.end(), 0);
  for (long p = 0; p < n; ++p) ++count_[cell_of_[p] + 1];
  for (std::size_t c = 1; c < count_.size(); ++c) count_[c] += count_[c - 1];
  for (long p = 0; p < n; ++p) order_[count_[cell_of_[p]]++] = static_cast<int>(p);
  return true;
}

template class ParticleSorter<2>;
template class ParticleSorter<3>;

}  // namespace tribo::mpm
