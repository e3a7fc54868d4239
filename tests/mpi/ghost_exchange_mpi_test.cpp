// Ghost points across processes (ctest label mpi, 2 and 3 processes): after the decomposition and a
// ghost refresh of width w, a sum over all neighbours within w of each owned point (a stand-in for
// a PD bond or contact pass) equals the one-process sum, and the ghosts are exactly the other
// processes' points within w of this process's box.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tribo/core/particles.hpp"
#include "tribo/parallel/ghost_exchange.hpp"

namespace tribo::parallel {
namespace {

constexpr int nx = 40, ny = 24;
constexpr double h = 0.001, horizon = 3.015 * h;

Vec<2> lattice_point(int i) { return Vec<2>((i % nx + 0.5) * h, (i / nx + 0.5) * h); }
// A displaced configuration (a smooth field, so neighbours within the horizon change).
Vec<2> moved(int i) {
  const Vec<2> x = lattice_point(i);
  return x + 0.2 * h * Vec<2>(std::sin(200.0 * x.y()), std::cos(150.0 * x.x()));
}

// The stand-in pass: sum over j != i within the horizon of (x_j - x_i) |x_j - x_i| m_j.
Vec<2> neighbour_sum(const Vec<2>& xi, const std::vector<Vec<2>>& x, const std::vector<double>& m, int self) {
  Vec<2> sum = Vec<2>::Zero();
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (static_cast<int>(j) == self) continue;
    const Vec<2> r = x[j] - xi;
    if (r.norm() <= horizon) sum += r * r.norm() * m[j];
  }
  return sum;
}

TEST(GhostExchange, OwnedPlusGhostsSeeEveryNeighbourAsOneProcessDoes) {
  const auto world = Communicator::world();
  Particles<2> points;
  for (int i = world.rank(); i < nx * ny; i += world.size())
    points.push_back(moved(i), Vec<2>::Zero(), 1.0 + 0.01 * (i % 17), h * h, 0, i);
  const Box<2> domain{Vec<2>(-0.01, -0.01), Vec<2>(0.05, 0.035)};
  const auto partition = RcbPartition<2>::build(points.position, world.size(), domain, world);
  std::vector<int> owner(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) owner[k] = partition.owner(points.position[k]);
  migrate_particles(Particles<2>::arrays(points), owner, world);
  const std::size_t owned = points.size();

  const auto ghosts = GhostExchange<2>::build(points.position, partition, horizon, world);
  const std::size_t received = ghosts.refresh(Particles<2>::arrays(points), owned, world);
  ASSERT_EQ(points.size(), owned + received);

  // The ghosts are exactly the others' points within the width of this box.
  long expected_ghosts = 0;
  for (int i = 0; i < nx * ny; ++i)
    if (partition.owner(moved(i)) != world.rank() && distance_to_box(moved(i), partition.box(world.rank())) <= horizon)
      ++expected_ghosts;
  EXPECT_EQ(static_cast<long>(received), expected_ghosts);
  for (std::size_t k = owned; k < points.size(); ++k) {
    EXPECT_NE(partition.owner(points.position[k]), world.rank());
    EXPECT_EQ(points.position[k], moved(points.material[k]));  // arrived whole
  }

  // The stand-in pass over owned + ghosts equals the one-process pass, owned point by point.
  std::vector<Vec<2>> all_x(nx * ny);
  std::vector<double> all_m(nx * ny);
  for (int i = 0; i < nx * ny; ++i) {
    all_x[i] = moved(i);
    all_m[i] = 1.0 + 0.01 * (i % 17);
  }
  for (std::size_t k = 0; k < owned; ++k) {
    const int i = points.material[k];
    const Vec<2> here = neighbour_sum(points.position[k], points.position, points.mass, static_cast<int>(k));
    const Vec<2> reference = neighbour_sum(all_x[i], all_x, all_m, i);
    // ~28 terms of size h^2 = 1e-6: round-off of another order of addition is ~1e-21.
    EXPECT_LT((here - reference).norm(), 1e-18) << "point " << i;
  }
  EXPECT_GT(world.sum(static_cast<long long>(received)), 0LL);
}

}  // namespace
}  // namespace tribo::parallel
