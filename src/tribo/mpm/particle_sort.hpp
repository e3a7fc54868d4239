#pragma once
// Particles reordered by grid cell, so that the particle loops walk the grid (and the scatter's
// slabs, scatter_partition.hpp) in memory order instead of jumping across it as bodies move and
// mix. A stable counting sort by flat cell index gives the permutation; permute() applies it in
// place to any number of per-particle arrays at once (one walk of the permutation's cycles), so
// that every array of a solver moves together. Buffers are allocated once (allocate()), none in a
// step. After a sort, particle i is another material point: identify points by their
// reference_position, not by index.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/mpm/grid.hpp"

namespace tribo::mpm {

template <int Dim>
class ParticleSorter {
 public:
  void allocate(const Grid<Dim>& grid, std::size_t particle_count);

  // Computes the permutation: after permute(), index k holds the particle that was order()[k].
  // Ties (one cell) keep their index order. Returns false when the particles are already sorted
  // (permute() is then not needed).
  bool sort_by_cell(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions);
  const std::vector<int>& order() const { return order_; }

  // new[k] = old[order[k]] for every array, in place, following the cycles of the permutation.
  template <class... Arrays>
  void permute(Arrays&... arrays) {
    const std::size_t n = order_.size();
    std::fill(placed_.begin(), placed_.end(), char{0});
    for (std::size_t start = 0; start < n; ++start) {
      if (placed_[start]) continue;
      if (order_[start] == static_cast<int>(start)) {
        placed_[start] = 1;
        continue;
      }
      std::tuple<typename Arrays::value_type...> held{arrays[start]...};
      std::size_t j = start;
      while (true) {
        placed_[j] = 1;
        const std::size_t from = static_cast<std::size_t>(order_[j]);
        if (from == start) {
          std::apply([&](const auto&... value) { ((arrays[j] = value), ...); }, held);
          break;
        }
        ((arrays[j] = arrays[from]), ...);
        j = from;
      }
    }
  }

 private:
  std::vector<long> cell_of_;  // per particle
  std::vector<int> count_;     // per cell + 1
  std::vector<int> order_;
  std::vector<char> placed_;
};

}  // namespace tribo::mpm
