// The PD cell list (src/tribo/pd/cell_list.hpp) against a brute-force search: the walk around a
// position visits every binned point within the cell size of it exactly once, on a dense lattice
// and on a sparse cloud whose grid is coarsened.
#include "tribo/pd/cell_list.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace tribo::pd {
namespace {

template <int Dim>
void expect_walk_finds_every_point_within(const std::vector<Vec<Dim>>& x, const std::vector<int>& members,
                                          double radius) {
  CellList<Dim> grid;
  grid.build(std::span<const Vec<Dim>>(x), static_cast<std::int64_t>(members.size()),
             [&](std::int64_t k) { return members[k]; }, radius);
  EXPECT_GE(grid.cell(), radius);
  std::vector<char> binned(x.size(), 0);
  for (int m : members) binned[m] = 1;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<int> seen(x.size(), 0);
    grid.for_each_near(x[i], [&](int j) { ++seen[j]; });
    for (std::size_t j = 0; j < x.size(); ++j) {
      EXPECT_LE(seen[j], 1) << i << " " << j;  // a point is in one cell
      EXPECT_TRUE(binned[j] || seen[j] == 0) << j << " was not binned";
      if (binned[j] && (x[j] - x[i]).norm() <= radius) {
        EXPECT_EQ(seen[j], 1) << i << " misses " << j;
      }
    }
  }
}

TEST(CellList, WalkFindsEveryPointWithinTheRadiusOnALattice2D) {
  std::vector<Vec<2>> x;
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 12; ++j) x.push_back(Vec<2>(0.1 * i, 0.1 * j));
  std::vector<int> every(x.size()), odd;
  for (std::size_t k = 0; k < x.size(); ++k) {
    every[k] = static_cast<int>(k);
    if (k % 2) odd.push_back(static_cast<int>(k));
  }
  expect_walk_finds_every_point_within<2>(x, every, 0.3015);
  expect_walk_finds_every_point_within<2>(x, odd, 0.25);  // a subset binned (one body of several)
}

TEST(CellList, SparseCloudIsCoarsenedAndStillComplete3D) {
  // 60 points spread over a box 1e4 radii wide: the grid at the radius would need ~1e12 cells.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0e4);
  std::vector<Vec<3>> x;
  for (int k = 0; k < 30; ++k) {
    const Vec<3> c(u(rng), u(rng), u(rng));
    x.push_back(c);
    x.push_back(c + Vec<3>(0.5, 0.2, -0.3));  // a close partner
  }
  std::vector<int> every(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) every[k] = static_cast<int>(k);
  CellList<3> grid;
  grid.build(std::span<const Vec<3>>(x), static_cast<std::int64_t>(x.size()), [](std::int64_t k) { return static_cast<int>(k); },
             1.0);
  EXPECT_GT(grid.cell(), 1.0);  // coarsened
  expect_walk_finds_every_point_within<3>(x, every, 1.0);
}

}  // namespace
}  // namespace tribo::pd
