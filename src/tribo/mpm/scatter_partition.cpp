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
  schedule_.assign(slabs_, 0);
  before_.assign(slabs_ + 1, 0);
  colour_begin_[0] = colour_begin_[1] = colour_begin_[2] = 0;
}

template <int Dim>
void ScatterPartition<Dim>::bin(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions) {
  const long n = static_cast<long>(positions.size());
  if (static_cast<long>(order_.size()) != n) allocate(grid, positions.size());  // never in a run
  const int axis = axis_, slabs = slabs_;
  const double origin = origin_, cell = cell_, first = first_;
#pragma omp parallel for schedule(static)
  for (long p = 0; p < n; ++p) {
    // The cell by the very expression of the stencils (Grid::coordinate), so that the nodes the
    // particle's stencil touches are those of its slab's range; a particle off the grid (about to
    // fail the health check) goes to the nearest slab.
    const double c = std::floor((positions[p][axis] - origin) / cell - first);
    const double last = static_cast<double>(slabs * kSlabCells - 1);
    slab_of_[p] = static_cast<int>(std::clamp(c, 0.0, last)) / kSlabCells;
  }
  // Chunk c holds particles [c n / kChunks, (c + 1) n / kChunks).
  const auto chunk_begin = [n](int c) { return n * c / kChunks; };
  long* place = chunk_place_.data();
#pragma omp parallel for schedule(static)
  for (int c = 0; c < kChunks; ++c) {
    long* count = place + static_cast<long>(c) * slabs;
    std::fill(count, count + slabs, 0L);
    for (long p = chunk_begin(c); p < chunk_begin(c + 1); ++p) ++count[slab_of_[p]];
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
  // The slabs of each colour that hold particles (for_each_particle). In place: the buffer is
  // allocate()'s.
  int filled = 0;
  long particles = 0;
  for (int colour = 0; colour < 2; ++colour) {
    colour_begin_[colour] = filled;
    for (int s = colour; s < slabs; s += 2)
      if (begin_[s + 1] > begin_[s]) {
        before_[filled] = particles;
        particles += begin_[s + 1] - begin_[s];
        schedule_[filled++] = s;
      }
  }
  colour_begin_[2] = filled;
  before_[filled] = particles;
#pragma omp parallel for schedule(static)
  for (int c = 0; c < kChunks; ++c) {
    long* at = place + static_cast<long>(c) * slabs;
    for (long p = chunk_begin(c); p < chunk_begin(c + 1); ++p) order_[at[slab_of_[p]]++] = static_cast<int>(p);
  }
}

template <int Dim>
int ScatterPartition<Dim>::run_start(int colour, int thread, int threads) const {
  const int begin = colour_begin_[colour], end = colour_begin_[colour + 1];
  if (thread <= 0) return begin;
  if (thread >= threads) return end;
  const long target = before_[begin] + (before_[end] - before_[begin]) * thread / threads;
  // The cut nearest the target: the first place at or past it, or the one before.
  int j = static_cast<int>(std::lower_bound(before_.begin() + begin, before_.begin() + end, target) - before_.begin());
  if (j > begin && target - before_[j - 1] < before_[j] - target) --j;
  return j;
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
