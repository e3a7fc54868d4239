// The sort of particles by grid cell: the order is by flat cell index and stable, and permute()
// moves every array with the same permutation. References: the cell index computed by hand and a
// copy of the arrays permuted out of place.
#include "tribo/mpm/particle_sort.hpp"

#include <gtest/gtest.h>

#include <random>

namespace tribo::mpm {
namespace {

TEST(ParticleSort, OrdersParticlesByFlatCellIndexKeepingTiesInIndexOrder) {
  const Grid<2> grid(Vec2(0, 0), Vec2(1.0, 0.5), Vec2(0.1, 0.1));  // 10 x 5 cells
  // Cells (x, y): p0 (3, 2) -> 23, p1 (0, 0) -> 0, p2 (3, 2) -> 23, p3 (9, 4) -> 49, p4 (1, 0) -> 1.
  const std::vector<Vec2> x{{0.35, 0.25}, {0.05, 0.05}, {0.31, 0.22}, {0.95, 0.45}, {0.15, 0.01}};
  ParticleSorter<2> sorter;
  sorter.allocate(grid, x.size());
  ASSERT_TRUE(sorter.sort_by_cell(grid, x));
  EXPECT_EQ(sorter.order(), (std::vector<int>{1, 4, 0, 2, 3}));
}

TEST(ParticleSort, ReportsSortedParticlesAsNothingToDo) {
  const Grid<2> grid(Vec2(0, 0), Vec2(1.0, 0.5), Vec2(0.1, 0.1));
  const std::vector<Vec2> x{{0.05, 0.05}, {0.15, 0.01}, {0.35, 0.25}};
  ParticleSorter<2> sorter;
  sorter.allocate(grid, x.size());
  EXPECT_FALSE(sorter.sort_by_cell(grid, x));
}

TEST(ParticleSort, PermuteMovesEveryArrayWithTheSamePermutation) {
  const Grid<3> grid(Vec3::Zero(), Vec3::Ones(), Vec3::Constant(0.1));
  std::mt19937 random(3);
  std::uniform_real_distribution<double> inside(0.0, 1.0);
  const std::size_t n = 500;
  std::vector<Vec3> x(n);
  std::vector<Mat3> stress(n);
  std::vector<double> mass(n);
  std::vector<int> id(n);
  std::vector<char> flag(n);
  for (std::size_t p = 0; p < n; ++p) {
    x[p] = Vec3(inside(random), inside(random), inside(random));
    stress[p] = Mat3::Constant(static_cast<double>(p));
    mass[p] = 1.0 + p;
    id[p] = static_cast<int>(p);
    flag[p] = static_cast<char>(p % 7);
  }
  ParticleSorter<3> sorter;
  sorter.allocate(grid, n);
  ASSERT_TRUE(sorter.sort_by_cell(grid, x));
  const std::vector<int> order = sorter.order();
  const std::vector<Vec3> x0 = x;
  sorter.permute(x, stress, mass, id, flag);
  long previous_cell = -1;
  for (std::size_t k = 0; k < n; ++k) {
    const int p = order[k];
    EXPECT_EQ(id[k], p);
    EXPECT_EQ(x[k], x0[p]);
    EXPECT_EQ(stress[k](1, 2), static_cast<double>(p));
    EXPECT_EQ(mass[k], 1.0 + p);
    EXPECT_EQ(flag[k], static_cast<char>(p % 7));
    const long cell = static_cast<long>(x[k].x() / 0.1) + 10 * (static_cast<long>(x[k].y() / 0.1) +
                                                                10 * static_cast<long>(x[k].z() / 0.1));
    EXPECT_GE(cell, previous_cell);
    previous_cell = cell;
  }
}

}  // namespace
}  // namespace tribo::mpm
