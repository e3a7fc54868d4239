#pragma once
// A race-free, deterministic partition of the particle-to-grid scatter for OpenMP.
//
// The grid is cut into slabs of `kSlabCells` cells across one axis (the last, whose slabs are
// contiguous in memory, unless it is too short; then the one with the most cells). The cut
// depends on the grid only, never on the number of threads.
// A particle in cell c of that axis touches nodes c - 1 .. c + 2 with every shape function of
// shape_function.hpp (linear: c, c + 1; GIMP and quadratic B-splines: at most c - 1 .. c + 2), so
// slab s (cells 3s .. 3s + 2) touches nodes 3s - 1 .. 3s + 4 and slab s + 2 starts at node 3s + 5:
// two slabs with one slab between them touch disjoint nodes. The scatter runs in two colours: the even slabs in parallel, then the odd ones;
// each slab is one thread's, its particles in increasing index. No two threads write one node, no
// atomics, and the order of the sum at every node (even slab's particles, then odd slab's, each
// in index order) depends only on the particles and the grid, never on the number of threads:
// results are bit-for-bit the same with 1 or N threads.
//
// bin() is a stable counting sort of particle indices by slab, O(particles + slabs), with every
// buffer allocated by allocate() (no allocation in the step). It runs in parallel over a fixed
// number of index ranges (kChunks, not the thread count): each range counts its particles per slab,
// the ranges' places in each slab follow in range order, so every slab lists its particles in
// increasing index, the order of a serial stable sort, whatever the number of threads.
#include <omp.h>

#include <cmath>
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

  // The slabs of `colour` (0: even, 1: odd) that hold particles, in increasing order:
  // colour_slab(j) for j in [colour_begin(colour), colour_begin(colour + 1)).
  int colour_begin(int colour) const { return colour_begin_[colour]; }
  int colour_slab(int j) const { return schedule_[j]; }
  // The first place j of thread `thread`'s run of `colour` among `threads` (for_each_particle):
  // the runs cut the colour's particles into equal counts, to within a slab.
  int run_start(int colour, int thread, int threads) const;

  // Calls visit(p) for every binned particle: the even slabs in parallel, a barrier, then the odd
  // slabs. visit must write only the grid nodes of p's stencil.
  template <class Visit>
  void for_each_particle(Visit&& visit) const {
#pragma omp parallel
    {
      const int threads = omp_get_num_threads(), me = omp_get_thread_num();
      for (int colour = 0; colour < 2; ++colour) {
        // The previous colour is done.
        if (colour > 0) {
#pragma omp barrier
        }
        // Each thread's run of consecutive slabs, cut at equal particle counts: each thread writes
        // the same node rows every step, the rows its particles (sorted by cell, split by index
        // in the other loops) read and the node loops (split by index) clear and update, so that
        // the grid's cache lines stay in one core. Slabs of one colour touch disjoint nodes, so
        // no cut changes a sum. Runs of equal slab counts left 53% of the oblique disks'
        // particles to one thread of two (1.45-1.58 s against 1.39-1.42 s on 2 threads); dynamic
        // slabs, largest first, balanced better but moved the rows between cores every step
        // (2.6-3.0 s against 2.1-2.3 s), and so did a thread done with its run taking slabs off
        // its neighbour's (bench/README.md, stop 28).
        const int end = run_start(colour, me + 1, threads);
        for (int j = run_start(colour, me, threads); j < end; ++j) {
          const int s = schedule_[j];
          for (long k = begin_[s]; k < begin_[s + 1]; ++k) visit(static_cast<long>(order_[k]));
        }
      }
    }
  }

 private:

  int axis_ = 0;
  int slabs_ = 1;
  double origin_ = 0.0;  // the global grid's origin along the axis, m
  double first_ = 0.0;   // the global index of the grid's first node along the axis
  double cell_ = 1.0;    // cell size along the axis, m
  std::vector<int> slab_of_;  // per particle, scratch of bin()
  std::vector<int> order_;    // particle indices sorted by slab
  std::vector<long> begin_;   // slabs + 1 offsets into order_
  std::vector<long> chunk_place_;  // kChunks x slabs: counts, then next free place, of bin()
  // The slabs holding particles, the even ones then the odd ones, each in increasing order:
  // schedule_[colour_begin_[c] .. colour_begin_[c + 1]).
  // before_[j]: the particles of the slabs schedule_[0 .. j), for run_start().
  std::vector<int> schedule_;
  std::vector<long> before_;
  int colour_begin_[3] = {0, 0, 0};
};

}  // namespace tribo::mpm
