// The slab partition of the parallel particle-to-grid: every particle is in exactly one slab, in
// increasing index, and two slabs of one colour never touch a common node. Reference: the node
// sets of the particles' stencils (stencil.hpp), computed directly.
#include "tribo/mpm/scatter_partition.hpp"

#include <gtest/gtest.h>

#include <omp.h>

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

}  // namespace
}  // namespace tribo::mpm
