#include "tribo/mpm/scatter_partition.hpp"

#include <algorithm>

namespace tribo::mpm {

template <int Dim>
void ScatterPartition<Dim>::allocate(const Grid<Dim>& grid, std::size_t particle_count) {
  // Slabs across the last axis are contiguous ranges of the flat node index, so two threads share
  // cache lines only where two slab ranges meet; across another axis they would meet in every
  // row (false sharing cost 30% of the scatter's time on 2 threads in bench_mpm_oblique_disks).
  // The last axis unless it gives fewer than 8 slabs; then the axis with the most cells.
  axis_ = Dim - 1;
  if (grid.nodes[axis_] - 1 < kMinimumSlabs * kSlabCells)
    for (int d = Dim - 2; d >= 0; --d)
      if (grid.nodes[d] > grid.nodes[axis_]) axis_ = d;
  const int cells = std::max(1, grid.nodes[axis_] - 1);
  slabs_ = (cells + kSlabCells - 1) / kSlabCells;
  origin_ = grid.global_origin[axis_];
  first_ = grid.first[axis_];
  cell_ = grid.cell[axis_];
  slab_of_.assign(particle_count, 0);
  order_.assign(particle_count, 0);
  begin_.assign(slabs_ + 1, 0);
  chunk_place_.assign(static_cast<std::size_t>(kChunks) * slabs_, 0);
  progress_ = std::vector<std::atomic<std::uint64_t>>(slabs_);
  epoch_ = 0;
}

template <int Dim>
void ScatterPartition<Dim>::bin(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions) {
  const long n = static_cast<long>(positions.size());
  if (static_cast<long>(order_.size()) != n) allocate(grid, positions.size());  // never in a run
  const int axis = axis_, slabs = slabs_;
  const double origin = origin_, cell = cell_, first = first_;
  // Chunk c holds particles [c n / kChunks, (c + 1) n / kChunks); each chunk bins its particles
  // and counts them per slab in one pass (one parallel loop fewer per step than two passes).
  const auto chunk_begin = [n](int c) { return n * c / kChunks; };
  long* place = chunk_place_.data();
  const double last = static_cast<double>(slabs * kSlabCells - 1);
#pragma omp parallel for schedule(static)
  for (int c = 0; c < kChunks; ++c) {
    long* count = place + static_cast<long>(c) * slabs;
    std::fill(count, count + slabs, 0L);
    for (long p = chunk_begin(c); p < chunk_begin(c + 1); ++p) {
      // The cell by the very expression of the stencils (Grid::coordinate), so that the nodes the
      // particle's stencil touches are those of its slab's range; a particle off the grid (about
      // to fail the health check) goes to the nearest slab.
      const double cell_index = std::floor((positions[p][axis] - origin) / cell - first);
      const int slab = static_cast<int>(std::clamp(cell_index, 0.0, last)) / kSlabCells;
      slab_of_[p] = slab;
      ++count[slab];
    }
  }
  // Slab by slab, chunk by chunk: the first place of chunk c's particles in slab s.
  long next = 0;
  for (int s = 0; s < slabs; ++s) {
    begin_[s] = next;
    for (int c = 0; c < kChunks; ++c) {
      const long count = place[static_cast<long>(c) * slabs + s];
      place[static_cast<long>(c) * slabs + s] = next;
      next += count;
    }
  }
  begin_[slabs] = next;
#pragma omp parallel for schedule(static)
  for (int c = 0; c < kChunks; ++c) {
    long* at = place + static_cast<long>(c) * slabs;
    for (long p = chunk_begin(c); p < chunk_begin(c + 1); ++p) order_[at[slab_of_[p]]++] = static_cast<int>(p);
  }
}

template <int Dim>
int ScatterPartition<Dim>::piece_order(long lo, long hi, int* order) const {
  // The slabs holding positions lo and hi - 1: the last slab starting at or before each.
  const auto slab_at = [this](long position) {
    const auto after = std::upper_bound(begin_.begin(), begin_.begin() + slabs_ + 1, position);
    return static_cast<int>(after - begin_.begin()) - 1;
  };
  const int a = slab_at(lo), b = slab_at(hi - 1);
  const bool shares_first = lo > begin_[a];     // another thread scatters slab a's first particles
  const bool shares_last = hi < begin_[b + 1];  // another thread scatters slab b's last particles
  // Per slab of the range, when it goes: 0, first of its colour, ..., 3, last. The even slabs
  // first, then the odd ones (the order of the sums). A piece other threads' pieces wait for
  // (slab b's first part) goes first in its colour, one that waits for another thread's piece
  // (slab a's last part) last. Of the whole slabs, those next to a slab not wholly this thread's:
  // the even ones early (the other thread's odd slab waits for them), the odd ones late (they
  // wait for the other thread's even slab).
  const auto wholly_mine = [&](int s) {
    return s >= a && s <= b && !(s == a && shares_first) && !(s == b && shares_last);
  };
  const auto next_to_another = [&](int s) {
    for (const int e : {s - 1, s + 1})
      if (e >= 0 && e < slabs_ && begin_[e + 1] > begin_[e] && !wholly_mine(e)) return true;
    return false;
  };
  const auto rank = [&](int s) {
    if (s == b && shares_last) return 0;
    if (s == a && shares_first) return 3;
    if (s % 2 == 0) return next_to_another(s) ? 1 : 2;
    return next_to_another(s) ? 2 : 1;
  };
  int n = 0;
  for (int parity = 0; parity < 2; ++parity)
    for (int r = 0; r < 4; ++r)
      for (int s = a + ((a % 2) != parity); s <= b; s += 2)
        if (begin_[s + 1] > begin_[s] && rank(s) == r) order[n++] = s;
  return n;
}

template <int Dim>
bool ScatterPartition<Dim>::reached_node_rows(int nodes_on_axis, int& first, int& last) const {
  int low = 0, high = slabs_ - 1;
  while (low < slabs_ && begin_[low + 1] == begin_[low]) ++low;
  if (low == slabs_) return false;
  while (begin_[high + 1] == begin_[high]) --high;
  first = std::max(0, low * kSlabCells - 1);
  last = std::min(nodes_on_axis - 1, high * kSlabCells + kSlabCells + 1);
  return true;
}

template class ScatterPartition<2>;
template class ScatterPartition<3>;

}  // namespace tribo::mpm
