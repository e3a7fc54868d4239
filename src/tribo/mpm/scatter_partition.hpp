#pragma once
// A race-free, deterministic partition of the particle-to-grid scatter for OpenMP.
//
// The grid is cut into slabs of `kSlabCells` cells across one axis (the last, whose slabs are
// contiguous in memory, unless it is too short; then the one with the most cells). The cut
// depends on the grid only, never on the number of threads.
// A particle in cell c of that axis touches nodes c - 1 .. c + 2 with every shape function of
// shape_function.hpp (linear: c, c + 1; GIMP and quadratic B-splines: at most c - 1 .. c + 2), so
// slab s (cells 3s .. 3s + 2) touches nodes 3s - 1 .. 3s + 4 and slab s + 2 starts at node 3s + 5:
// only neighbouring slabs touch common nodes. At every node the sum is taken in one order: the
// particles of its even slab, then those of its odd slab, each slab's in increasing index. That
// order depends only on the particles and the grid, never on the number of threads: results are
// bit-for-bit the same with 1 or N threads.
//
// In parallel (for_each_particle), thread t of T scatters positions [n t / T, n (t + 1) / T) of the
// particles sorted by slab: equal counts, consecutive slabs, with a slab cut between two threads
// at each end. So it writes the node rows its particles (sorted by cell, split by index in the
// other loops) read and the node loops (split by index) clear and update, and the grid's cache
// lines stay in one core. It scatters its even slabs, then its odd ones: inside a thread's share
// that is the order above. Across threads a flag per slab says how many of its particles are
// scattered, and a piece of slab waits for the pieces its sums must follow: a cut slab's later
// piece for its earlier one, an odd slab for both neighbouring even slabs. Each thread scatters
// first the pieces others wait for and last those that wait, so that the waits are rare. No two
// threads write one node at once, no atomics on the grid, no barrier between the colours.
// Why not whole slabs, in two colours with a barrier between them (until stop 28): each colour was
// shared out to within a slab of equal counts (a slab is 7% of a colour on the oblique disks), and
// the faster thread waited at both barriers of every scatter: 0.15 s of a 1.3 s run on 2 threads,
// 0.05 s with the cut slabs (per-thread timing, bench/README.md, stop 28).
//
// bin() is a stable counting sort of particle indices by slab, O(particles + slabs), with every
// buffer allocated by allocate() (no allocation in the step; for_each_particle's order of the
// slabs, a few ints a thread, on its first call). It runs in parallel over a fixed
// number of index ranges (kChunks, not the thread count): each range counts its particles per slab,
// the ranges' places in each slab follow in range order, so every slab lists its particles in
// increasing index, the order of a serial stable sort, whatever the number of threads.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/mpm/grid.hpp"

namespace tribo::mpm {

template <int Dim>
class ScatterPartition {
 public:
  static constexpr int kSlabCells = 3;
  static constexpr int kMinimumSlabs = 8;  // on the last axis, before another axis is preferred
  static constexpr int kChunks = 32;       // index ranges of bin()'s parallel counting sort

  void allocate(const Grid<Dim>& grid, std::size_t particle_count);
  // Sorts the particle indices by slab from the current positions.
  void bin(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions);

  int axis() const { return axis_; }
  int slabs() const { return slabs_; }
  // Particle indices of slab s, in increasing order: order()[slab_begin(s) .. slab_begin(s + 1)).
  const std::vector<int>& order() const { return order_; }
  long slab_begin(int s) const { return begin_[s]; }
  // The node rows along axis() that the binned particles' stencils reach, [first, last] (slab s
  // reaches rows 3s - 1 .. 3s + 4, within 0 .. nodes_on_axis - 1); false when no slab holds a
  // particle.
  bool reached_node_rows(int nodes_on_axis, int& first, int& last) const;

  // Calls visit(p) for every binned particle, in parallel as above. visit must write only the
  // grid nodes of p's stencil (and p's own data).
  template <class Visit>
  void for_each_particle(Visit&& visit) const {
    const std::uint64_t epoch = std::uint64_t{++epoch_} << 32;  // this call's flags: epoch | progress
    const std::size_t places = static_cast<std::size_t>(omp_get_max_threads()) * (slabs_ + 1);
    if (sequence_.size() < places) sequence_.resize(places);  // the first call only
#pragma omp parallel
    {
      const int threads = omp_get_num_threads(), me = omp_get_thread_num();
      const long total = begin_[slabs_];
      const long lo = total * me / threads, hi = total * (me + 1) / threads;
      int* order = sequence_.data() + static_cast<std::size_t>(me) * (slabs_ + 1);
      const int n = lo < hi ? piece_order(lo, hi, order) : 0;
      // One loop over the pieces, so that visit is inlined once.
      for (int j = 0; j < n; ++j) {
        const int s = order[j];
        const long from = std::max(lo, begin_[s]), to = std::min(hi, begin_[s + 1]);
        // The slab's particles before this piece (another thread's piece of it) come first.
        if (from > begin_[s]) wait_until(s, epoch | static_cast<std::uint64_t>(from - begin_[s]));
        // An odd slab's sums come after those of both neighbouring even slabs at their common nodes.
        if (s % 2 == 1)
          for (const int e : {s - 1, s + 1})
            if (e >= 0 && e < slabs_ && begin_[e + 1] > begin_[e])
              wait_until(e, epoch | static_cast<std::uint64_t>(begin_[e + 1] - begin_[e]));
        for (long k = from; k < to; ++k) visit(static_cast<long>(order_[k]));
        progress_[s].store(epoch | static_cast<std::uint64_t>(to - begin_[s]), std::memory_order_release);
      }
    }
  }

 private:
  // Waits until slab s's flag reaches `value` (this call's epoch and a progress) or passes it.
  void wait_until(int s, std::uint64_t value) const {
    for (int spins = 0;; ++spins) {
      const std::uint64_t v = progress_[s].load(std::memory_order_acquire);
      if ((v & kEpochBits) == (value & kEpochBits) && v >= value) return;
      // More threads than cores (--threads above the core count): the thread waited for may be
      // off its core, so give the core away once the wait is long.
      if (spins >= 4096) std::this_thread::yield();
#if defined(__x86_64__) || defined(__i386__)
      else __builtin_ia32_pause();
#endif
    }
  }
  // The slabs of the pieces of positions [lo, hi) of order_, in the order they are scattered
  // (for_each_particle); returns their number.
  int piece_order(long lo, long hi, int* order) const;

  int axis_ = 0;
  int slabs_ = 1;
  double origin_ = 0.0;  // the global grid's origin along the axis, m
  double first_ = 0.0;   // the global index of the grid's first node along the axis
  double cell_ = 1.0;    // cell size along the axis, m
  std::vector<int> slab_of_;  // per particle, scratch of bin()
  std::vector<int> order_;    // particle indices sorted by slab
  std::vector<long> begin_;   // slabs + 1 offsets into order_
  std::vector<long> chunk_place_;  // kChunks x slabs: counts, then next free place, of bin()
  // Per slab: the for_each_particle() call (upper 32 bits) and the number of the slab's particles,
  // from its first, that it has scattered (lower 32 bits).
  mutable std::vector<std::atomic<std::uint64_t>> progress_;
  mutable std::uint32_t epoch_ = 0;
  static constexpr std::uint64_t kEpochBits = ~std::uint64_t{0xffffffffu};
  // for_each_particle()'s order of the slabs, slabs() + 1 places per thread.
  mutable std::vector<int> sequence_;
};

}  // namespace tribo::mpm
