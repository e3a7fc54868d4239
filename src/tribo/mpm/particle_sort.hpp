#pragma once
// Particles reordered by grid cell, so that the particle loops walk the grid (and the scatter's
// slabs, scatter_partition.hpp) in memory order instead of jumping across it as bodies move and
// mix. A stable counting sort by flat cell index gives the permutation; permute() applies it to
// any number of per-particle arrays, one after the other through one scratch buffer, so that every
// array of a solver moves together. Buffers are allocated by allocate() and, for the scratch, by
// the first permute() of a particle count (a distributed run's count changes as particles migrate;
// the buffer only grows). After a sort, particle i is another material point: identify points by
// their reference_position, not by index.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <new>
#include <tuple>
#include <type_traits>
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

  // new[k] = old[order[k]] for every array: gathered into a scratch buffer, then copied back, both
  // in parallel with the particle loops' static split, so that each thread's particles stay in its
  // core's cache (a serial walk of the permutation's cycles moved every array through the master
  // thread's cache every 20 steps, and the other thread fetched its half back; issue 17).
  template <class... Arrays>
  void permute(Arrays&... arrays) {
    const std::size_t bytes = order_.size() * std::max({sizeof(typename Arrays::value_type)...});
    const std::size_t blocks = (bytes + sizeof(Block) - 1) / sizeof(Block);
    if (scratch_.size() < blocks) scratch_.resize(blocks);  // grows with the particle count only
    (gather(arrays), ...);
  }

 private:
  std::vector<long> cell_of_;  // per particle
  std::vector<int> count_;     // per cell + 1
  std::vector<int> order_;
  // permute()'s scratch: as many bytes as the widest array holds, in blocks aligned for any
  // vectorised value type (Eigen's fixed-size types need 16 bytes with SSE, 32 with AVX, 64 with
  // AVX-512; a build with another -march must not misalign them).
  struct alignas(64) Block {
    std::byte bytes[64];
  };
  std::vector<Block> scratch_;

  template <class Array>
  void gather(Array& values) {
    using T = typename Array::value_type;
    // Copies are constructed in the scratch storage and never destroyed: no destructor to skip.
    static_assert(std::is_trivially_destructible_v<T>, "permute() leaves its scratch copies undestroyed");
    static_assert(alignof(T) <= alignof(Block), "the scratch blocks are not aligned for this type");
    const long n = static_cast<long>(order_.size());
    T* const held = reinterpret_cast<T*>(scratch_.data());
    T* const data = values.data();
    const int* const order = order_.data();
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (long k = 0; k < n; ++k) ::new (static_cast<void*>(held + k)) T(data[order[k]]);
#pragma omp for schedule(static)
      for (long k = 0; k < n; ++k) data[k] = *std::launder(held + k);
    }
  }
};

}  // namespace tribo::mpm
