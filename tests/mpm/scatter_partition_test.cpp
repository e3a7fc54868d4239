// The slab partition of the parallel particle-to-grid: every particle is in exactly one slab, in
// increasing index, and two slabs of one colour never touch a common node. Reference: the node
// sets of the particles' stencils (stencil.hpp), computed directly.
#include "tribo/mpm/scatter_partition.hpp"

#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "tribo/mpm/stencil.hpp"

namespace tribo::mpm {
namespace {

template <int Dim, class Shape>
void expect_race_free(const Grid<Dim>& grid, std::size_t n) {
  std::mt19937 random(11);
  std::vector<Vec<Dim>> x(n);
  const Vec<Dim> lo = grid.origin + grid.cell, hi = grid.upper() - grid.cell;
  for (auto& p : x)
    for (int d = 0; d < Dim; ++d) p[d] = std::uniform_real_distribution<double>(lo[d], hi[d])(random);
  ScatterPartition<Dim> partition;
  partition.allocate(grid, n);
  // Particles exactly on slab boundaries, where a rounding slip would put a stencil in the wrong slab.
  const int axis = partition.axis();
  for (int s = 1; s < 5 && s < static_cast<int>(n); ++s) {
    x[s] = 0.5 * (lo + hi);
    x[s][axis] = grid.origin[axis] + 3 * s * grid.cell[axis];
  }
  partition.bin(grid, x);
  const std::vector<int>& order = partition.order();
  std::vector<int> seen(n, 0);
  std::vector<std::set<long>> nodes(partition.slabs());
  for (int s = 0; s < partition.slabs(); ++s)
    for (long k = partition.slab_begin(s); k < partition.slab_begin(s + 1); ++k) {
      if (k > partition.slab_begin(s)) {
        EXPECT_LT(order[k - 1], order[k]);
      }
      ++seen[order[k]];
      Stencil<Dim, Shape> stencil;
      stencil.compute(grid, x[order[k]], 0.25);
      for (int i = 0; i < stencil.size; ++i) nodes[s].insert(stencil.node[i]);
    }
  for (std::size_t p = 0; p < n; ++p) EXPECT_EQ(seen[p], 1) << "particle " << p;
  for (int s = 0; s + 2 < partition.slabs(); ++s)
    for (int t = s + 2; t < partition.slabs(); t += 2)
      for (long node : nodes[s]) EXPECT_EQ(nodes[t].count(node), 0u) << "slabs " << s << " and " << t;
}

TEST(ScatterPartition, SlabsOfOneColourShareNoNodeWithGimpIn2D) {
  const Grid<2> grid(Vec2(0, 0), Vec2(1.0, 0.1), Vec2(0.02, 0.025));  // 4 cells in y: slabs across x
  expect_race_free<2, GimpShape>(grid, 4000);
}
TEST(ScatterPartition, SlabsOfOneColourShareNoNodeWithBSplinesIn3D) {
  const Grid<3> grid(Vec3(0, 0, 0), Vec3(0.3, 0.3, 0.6), Vec3::Constant(0.02));
  expect_race_free<3, BSpline2Shape>(grid, 4000);
}
TEST(ScatterPartition, SlabsOfOneColourShareNoNodeWithLinearShapes) {
  const Grid<2> grid(Vec2(0, 0), Vec2(1.0, 1.0), Vec2(0.02, 0.02));
  expect_race_free<2, LinearShape>(grid, 4000);
}

TEST(ScatterPartition, CutsTheLastAxisWhenItHoldsEightSlabs) {
  ScatterPartition<3> partition;
  partition.allocate(Grid<3>(Vec3::Zero(), Vec3(0.3, 0.9, 0.24), Vec3::Constant(0.01)), 1);
  EXPECT_EQ(partition.axis(), 2);
  EXPECT_EQ(partition.slabs(), 8);  // 24 cells in slabs of 3
}

TEST(ScatterPartition, CutsTheAxisWithTheMostCellsWhenTheLastIsShort) {
  ScatterPartition<3> partition;
  partition.allocate(Grid<3>(Vec3::Zero(), Vec3(0.3, 0.9, 0.2), Vec3::Constant(0.01)), 1);
  EXPECT_EQ(partition.axis(), 1);
  EXPECT_EQ(partition.slabs(), 30);  // 90 cells in slabs of 3
}

TEST(ScatterPartition, BinsInTheSameOrderOnAnyNumberOfThreads) {
  // bin() counts and places in parallel over fixed index ranges: the order must be the serial
  // stable sort's (increasing index in each slab, checked above) with 1, 2 or 3 threads, also
  // when there are fewer particles than ranges.
  const Grid<2> grid(Vec2(0, 0), Vec2(0.2, 0.1), Vec2(0.002, 0.002));
  for (std::size_t n : {std::size_t{5}, std::size_t{3001}}) {
    std::mt19937 random(5);
    std::vector<Vec2> x(n);
    for (auto& p : x) p = Vec2(std::uniform_real_distribution<double>(0.01, 0.19)(random),
                               std::uniform_real_distribution<double>(0.01, 0.09)(random));
    std::vector<std::vector<int>> orders;
    std::vector<std::vector<long>> begins;
    for (int threads : {1, 2, 3}) {
      omp_set_num_threads(threads);
      ScatterPartition<2> partition;
      partition.allocate(grid, n);
      partition.bin(grid, x);
      orders.push_back(partition.order());
      std::vector<long> b;
      for (int s = 0; s <= partition.slabs(); ++s) b.push_back(partition.slab_begin(s));
      begins.push_back(b);
    }
    omp_set_num_threads(1);
    EXPECT_EQ(orders[0], orders[1]);
    EXPECT_EQ(orders[0], orders[2]);
    EXPECT_EQ(begins[0], begins[1]);
    EXPECT_EQ(begins[0], begins[2]);
    EXPECT_EQ(begins[0].back(), static_cast<long>(n));
  }
}


// for_each_particle shares the particles out in equal counts, cutting slabs where it must, and
// still gives every node its particles in one order (even slab's, then odd slab's, each in index
// order) on any number of threads, and never two threads at once: each node's list is appended to
// without a lock, so a race would lose or reorder entries, and a piece scattered before the one it
// must follow would reorder them. 2 to 7 threads, three rounds each (the flags of one call must not
// leak into the next).
void expect_equal_shares_and_one_order(const Grid<2>& grid, const std::vector<Vec2>& x) {
  ScatterPartition<2> partition;
  partition.allocate(grid, x.size());
  partition.bin(grid, x);
  const long n = static_cast<long>(x.size());
  // Each node's particles in the order of the scatter, and the number each thread visited.
  const auto sums = [&](int threads, std::vector<long>* counts) {
    std::vector<std::vector<long>> at(static_cast<std::size_t>(grid.node_count()));
    if (counts) counts->assign(threads, 0);
    omp_set_num_threads(threads);
    partition.for_each_particle([&](long p) {
      Stencil<2, GimpShape> stencil;
      stencil.compute(grid, x[p], 0.25);
      for (int i = 0; i < stencil.size; ++i) at[stencil.node[i]].push_back(p);
      if (counts) ++(*counts)[omp_get_thread_num()];
    });
    omp_set_num_threads(1);
    return at;
  };
  const auto serial = sums(1, nullptr);
  long visits = 0;
  for (const auto& list : serial) visits += static_cast<long>(list.size());
  EXPECT_GT(visits, 4 * n);  // GIMP: 4 to 9 nodes a particle
  for (int threads = 2; threads <= 7; ++threads)
    for (int round = 0; round < 3; ++round) {
      std::vector<long> counts;
      EXPECT_TRUE(sums(threads, &counts) == serial) << threads << " threads, round " << round;
      // Thread t scatters positions [n t / T, n (t + 1) / T) of the sorted list.
      for (int t = 0; t < threads; ++t) {
        EXPECT_EQ(counts[t], n * (t + 1) / threads - n * t / threads) << threads << " threads";
      }
    }
}

// Particles crowded into one end of the grid, as two disks leave the slabs at the edges empty:
// slab populations from a few to a few hundred, shares of 850 to 3000, cuts in even and odd slabs.
TEST(ScatterPartition, SharesTheParticlesEquallyAndKeepsTheOrderOfEverySum) {
  const Grid<2> grid(Vec2(0, 0), Vec2(0.2, 0.3), Vec2(0.002, 0.002));  // 150 cells in y: 50 slabs
  std::mt19937 random(3);
  std::vector<Vec2> x(6000);
  for (auto& p : x) {
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(random);
    p = Vec2(std::uniform_real_distribution<double>(0.01, 0.19)(random), 0.03 + 0.26 * std::sqrt(u));
  }
  expect_equal_shares_and_one_order(grid, x);
}

// Four slabs of about 70, 200, 200 and 130 particles (cells 50 to 58) and shares of 86 to 300: a
// slab cut between three threads, whose middle piece waits for the one before and is waited for.
TEST(ScatterPartition, CutsOneSlabBetweenSeveralThreadsInOrder) {
  const Grid<2> grid(Vec2(0, 0), Vec2(0.2, 0.3), Vec2(0.002, 0.002));
  std::mt19937 random(7);
  std::vector<Vec2> x(600);
  for (auto& p : x)
    p = Vec2(std::uniform_real_distribution<double>(0.01, 0.19)(random),
             std::uniform_real_distribution<double>(0.1001, 0.1179)(random));
  expect_equal_shares_and_one_order(grid, x);
}

// reached_node_rows() bounds the node loops of a step (MpmSimulation's active nodes): it must hold
// every node row any binned particle's stencil touches. Reference: the stencils, computed directly,
// for particles in a band of rows away from the grid's edges, with each shape function. Two of
// them sit at the band's ends, in the lowest quarter of the first slab's first cell (cell 6) and
// the highest of the last slab's last cell (cell 17), where GIMP (half-width 0.25) and quadratic
// B-spline stencils reach one node row beyond their cell's (rows 5 and 19): there the bound must be
// exact. Linear stencils reach their cell's two rows only, inside the bound.
template <int Dim, class Shape>
void expect_rows_cover_the_stencils(const Grid<Dim>& grid, bool exact) {
  std::mt19937 random(5);
  std::vector<Vec<Dim>> x(500);
  const int axis = Dim - 1;
  for (auto& p : x)
    for (int d = 0; d < Dim; ++d) {
      const double lo = d == axis ? grid.origin[d] + 6.05 * grid.cell[d] : grid.origin[d] + grid.cell[d];
      const double hi = d == axis ? grid.origin[d] + 17.95 * grid.cell[d] : grid.upper()[d] - grid.cell[d];
      p[d] = std::uniform_real_distribution<double>(lo, hi)(random);
    }
  x[0][axis] = grid.origin[axis] + 6.05 * grid.cell[axis];
  x[1][axis] = grid.origin[axis] + 17.95 * grid.cell[axis];
  ScatterPartition<Dim> partition;
  partition.allocate(grid, x.size());
  ASSERT_EQ(partition.axis(), axis);
  partition.bin(grid, x);
  int first = -1, last = -1;
  ASSERT_TRUE(partition.reached_node_rows(grid.nodes[axis], first, last));
  int touched_first = grid.nodes[axis], touched_last = -1;
  for (const auto& p : x) {
    Stencil<Dim, Shape> stencil;
    stencil.compute(grid, p, 0.25);
    for (int i = 0; i < stencil.size; ++i) {
      const int row = grid.node_ijk(stencil.node[i])[axis];
      touched_first = std::min(touched_first, row);
      touched_last = std::max(touched_last, row);
    }
  }
  EXPECT_LE(first, touched_first);
  EXPECT_GE(last, touched_last);
  if (exact) {
    EXPECT_EQ(first, 5);
    EXPECT_EQ(last, 19);
    EXPECT_EQ(touched_first, 5);
    EXPECT_EQ(touched_last, 19);
  }
}

TEST(ScatterPartition, ReachedNodeRowsHoldEveryStencilWithGimp) {
  expect_rows_cover_the_stencils<2, GimpShape>(Grid<2>(Vec2(0, 0), Vec2(0.5, 0.6), Vec2(0.02, 0.02)), true);
}
TEST(ScatterPartition, ReachedNodeRowsHoldEveryStencilWithBSplinesIn3D) {
  expect_rows_cover_the_stencils<3, BSpline2Shape>(Grid<3>(Vec3(0, 0, 0), Vec3(0.2, 0.2, 0.6), Vec3::Constant(0.02)),
                                                   true);
}
TEST(ScatterPartition, ReachedNodeRowsHoldEveryStencilWithLinearShapes) {
  expect_rows_cover_the_stencils<2, LinearShape>(Grid<2>(Vec2(0, 0), Vec2(0.5, 0.6), Vec2(0.02, 0.02)), false);
}
TEST(ScatterPartition, NoParticleReachesNoRow) {
  const Grid<2> grid(Vec2(0, 0), Vec2(0.5, 0.6), Vec2(0.02, 0.02));
  ScatterPartition<2> partition;
  partition.allocate(grid, 0);
  partition.bin(grid, {});
  int first = 0, last = 0;
  EXPECT_FALSE(partition.reached_node_rows(grid.nodes[1], first, last));
}

}  // namespace
}  // namespace tribo::mpm
