#pragma once
// A race-free, deterministic partition of the particle-to-grid scatter for OpenMP.
//
// The grid is cut into slabs of `kSlabCells` cells across one axis (the last, whose slabs are
// contiguous in memory, unless it is too short; then the one with the most cells). The cut
// depends on the grid only, never on the number of threads.
// A particle in cell c of that axis touches nodes c - 1 .. c + 2 with every shape function of
// shape_function.hpp (linear: c, c + 1; GIMP and quadratic B-splines: at most c - 1 .. c + 2), so
// slab s (cells 3s .. 3s + 2) touches nodes 3s - 1 .. 3s + 4 and slab s + 2 starts at node 3s + 5:
// two slabs with one slab between them touch disjoint nodes, and a node is touched by two slabs
// at most, an even one and an odd one. The scatter visits every even slab before the odd slabs
// next to it; each slab is one thread's, its particles in increasing index. No two threads write
// one node, no atomics, and the order of the sum at every node (even slab's particles, then odd
// slab's, each in index order) depends only on the particles and the grid, never on the number of
// threads: results are bit-for-bit the same with 1 or N threads.
// Each thread takes a contiguous range of slabs with an equal share of the particles, so it
// scatters to the node rows its particles (sorted by cell, split by index in the other loops)
// read, and waits only where its range meets a neighbour's (issue 17: a barrier between the two
// colours, each split in blocks of whole slabs, left one thread 4 406 particles of the oblique
// disks' odd slabs and the other 3 454, and the particle-to-grid pass at 1.5 times its 1-thread
// speed on 2).
//
// bin() is a stable counting sort of particle indices by slab, O(particles + slabs), with every
// buffer allocated by allocate() (no allocation in the step). It runs in parallel over a fixed
// number of index ranges (kChunks, not the thread count): each range counts its particles per slab,
// the ranges' places in each slab follow in range order, so every slab lists its particles in
// increasing index, the order of a serial stable sort, whatever the number of threads.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
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

  // Calls visit(p) for every binned particle, the particles of a slab in increasing index, every
  // even slab before the odd slabs next to it. Each thread takes a contiguous range of slabs
  // holding an equal share of the particles (to one slab), visits its even slabs, then its odd
  // ones; an odd slab next to another thread's even slab waits for that slab alone (its done
  // flag), not for every thread. visit must write only the grid nodes of p's stencil.
  template <class Visit>
  void for_each_particle(Visit&& visit) const {
    const long pass = ++passes_;
    std::atomic<long>* const done = done_.get();
#pragma omp parallel
    {
      const int threads = omp_get_num_threads(), thread = omp_get_thread_num();
      const int lo = first_slab_of_share(thread, threads), hi = first_slab_of_share(thread + 1, threads);
      const auto visit_slab = [&](int s) {
        for (long k = begin_[s]; k < begin_[s + 1]; ++k) visit(static_cast<long>(order_[k]));
      };
      // Even slabs never wait: every node they share is with an odd slab, which comes after.
      for (int s = lo + (lo & 1); s < hi; s += 2) {
        visit_slab(s);
        done[s].store(pass, std::memory_order_release);
      }
      // Odd slabs from the top: the one below the next thread's range waits for that thread's
      // first even slab (its first visit), the one above the previous range comes last.
      for (int s = (hi - 1) - ((hi - 1) & 1 ? 0 : 1); s >= lo; s -= 2) {
        if (s - 1 >= 0 && s - 1 < lo) wait_for(done[s - 1], pass);
        if (s + 1 < slabs_ && s + 1 >= hi) wait_for(done[s + 1], pass);
        visit_slab(s);
      }
    }
  }

 private:
  // The first slab of thread t's range among `threads`: where the particles before it reach t / threads
  // of all (0 for t = 0, slabs_ for t = threads). Depends on the bin only: every thread computes it.
  int first_slab_of_share(int t, int threads) const {
    if (t >= threads) return slabs_;
    const long target = begin_[slabs_] * t / threads;
    return static_cast<int>(std::lower_bound(begin_.begin(), begin_.begin() + slabs_, target) - begin_.begin());
  }
  static void wait_for(const std::atomic<long>& flag, long pass) {
    for (int spins = 0; flag.load(std::memory_order_acquire) != pass; ++spins)
      if (spins > 4096) std::this_thread::yield();  // more threads than cores: let the owner run
  }

  int axis_ = 0;
  int slabs_ = 1;
  double origin_ = 0.0;  // the global grid's origin along the axis, m
  double first_ = 0.0;   // the global index of the grid's first node along the axis
  double cell_ = 1.0;    // cell size along the axis, m
  std::vector<int> slab_of_;  // per particle, scratch of bin()
  std::vector<int> order_;    // particle indices sorted by slab
  std::vector<long> begin_;   // slabs + 1 offsets into order_
  std::vector<long> chunk_place_;  // kChunks x slabs: counts, then next free place, of bin()
  // Per slab, the last pass of for_each_particle() that visited it (an odd slab's neighbour in
  // another thread's range waits for it), and the count of passes.
  std::unique_ptr<std::atomic<long>[]> done_;
  mutable long passes_ = 0;
};

}  // namespace tribo::mpm
