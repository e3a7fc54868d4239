// MPM nodal sums across processes (ctest label mpi, 2 and 3 processes): particles decomposed by
// RCB, each process scattering its own into its sub-grid, then the halo sum. Every node of every
// sub-grid must then hold the complete sum over all particles (as one process scattering them all
// computes it, to round-off of a different order of addition), and every node shared by several
// processes must hold the same bits on each of them.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tribo/core/particles.hpp"
#include "tribo/mpm/node_halo.hpp"
#include "tribo/parallel/particle_exchange.hpp"

namespace tribo::mpm {
namespace {

using parallel::Communicator;

constexpr int kParticles = 4000, kFields = 2;

// Particle i of the global set: a position in [0.02, 0.38] x [0.02, 0.18] from a fixed integer
// hash (every process can make every particle), mass, velocity and field from i.
Vec<2> position_of(int i) {
  auto u = [](unsigned x) {
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return (x & 0xffffff) / double(0x1000000);
  };
  return Vec<2>(0.02 + 0.36 * u(2u * i + 1u), 0.02 + 0.16 * u(2u * i + 2u));
}
double mass_of(int i) { return 1.0 + 0.1 * (i % 7); }
Vec<2> velocity_of(int i) { return Vec<2>(0.5 - 0.01 * (i % 100), 0.02 * (i % 13)); }

// Linear hat functions: mass and momentum of particle i into the four nodes of its cell.
void scatter(const Grid<2>& grid, int i, std::vector<double>& mass, std::vector<Vec<2>>& momentum) {
  const Vec<2> x = position_of(i);
  const Vec<2> s = (x - grid.origin).cwiseQuotient(grid.cell);
  const IVec<2> base(static_cast<int>(std::floor(s.x())), static_cast<int>(std::floor(s.y())));
  for (int dj = 0; dj < 2; ++dj)
    for (int di = 0; di < 2; ++di) {
      const double w = (di ? s.x() - base.x() : 1.0 - (s.x() - base.x())) * (dj ? s.y() - base.y() : 1.0 - (s.y() - base.y()));
      const IVec<2> ijk = base + IVec<2>(di, dj);
      ASSERT_TRUE((ijk.array() >= 0).all() && (ijk.array() < grid.nodes.array()).all()) << "particle " << i << " off the sub-grid";
      const long entry = grid.node_index(ijk) * kFields + i % kFields;
      mass[entry] += w * mass_of(i);
      momentum[entry] += w * mass_of(i) * velocity_of(i);
    }
}

TEST(NodeHalo, SubGridSumsEqualTheOneProcessScatterAndAgreeBitwiseOnSharedNodes) {
  const auto world = Communicator::world();
  const Grid<2> global(Vec<2>(0, 0), Vec<2>(0.4, 0.2), Vec<2>(0.01, 0.01));

  // Decompose: each process starts with the particles i % size == rank, then they move to the
  // owner of their position (the particle's id travels in `material`).
  Particles<2> particles;
  for (int i = world.rank(); i < kParticles; i += world.size())
    particles.push_back(position_of(i), velocity_of(i), mass_of(i), 1e-6, 0, i);
  const parallel::Box<2> domain{global.origin, global.upper()};
  const auto partition = parallel::RcbPartition<2>::build(particles.position, world.size(), domain, world);
  std::vector<int> owner(particles.size());
  for (std::size_t k = 0; k < particles.size(); ++k) owner[k] = partition.owner(particles.position[k]);
  parallel::migrate_particles(Particles<2>::arrays(particles), owner, world);

  const SubGrid<2> sub = sub_grid_for_box(global, partition.box(world.rank()), 1);
  const auto halo = NodeHalo<2>::build(sub, world);
  EXPECT_FALSE(halo.peers().empty()) << "every box touches another on a 2- or 3-way cut";

  std::vector<double> mass(sub.grid.node_count() * kFields, 0.0);
  std::vector<Vec<2>> momentum(mass.size(), Vec<2>::Zero());
  for (std::size_t k = 0; k < particles.size(); ++k) scatter(sub.grid, particles.material[k], mass, momentum);
  const HaloColumn columns[] = {halo_column(mass), halo_column<2>(momentum)};
  halo.sum(world, kFields, columns);

  // Reference: one process scattering every particle on the global grid.
  std::vector<double> mass_all(global.node_count() * kFields, 0.0);
  std::vector<Vec<2>> momentum_all(mass_all.size(), Vec<2>::Zero());
  for (int i = 0; i < kParticles; ++i) scatter(global, i, mass_all, momentum_all);
  long nonzero = 0;
  for (long n = 0; n < sub.grid.node_count(); ++n) {
    const long g = global.node_index(sub.grid.node_ijk(n) + sub.first);
    for (int f = 0; f < kFields; ++f) {
      // A node sums at most ~40 weights of order 1 kg: round-off of a reordered sum is ~1e-14.
      EXPECT_NEAR(mass[n * kFields + f], mass_all[g * kFields + f], 1e-12) << "node " << g << " field " << f;
      EXPECT_LT((momentum[n * kFields + f] - momentum_all[g * kFields + f]).norm(), 1e-12);
      nonzero += mass_all[g * kFields + f] > 0;
    }
  }
  EXPECT_GT(nonzero, 100);

  // Shared nodes: send the completed values back to each peer and compare the bits.
  std::vector<std::vector<std::byte>> send(halo.peers().size());
  for (std::size_t k = 0; k < halo.peers().size(); ++k)
    for (long n : halo.shared_nodes(k))
      for (int f = 0; f < kFields; ++f) {
        const auto* bytes = reinterpret_cast<const std::byte*>(&mass[n * kFields + f]);
        send[k].insert(send[k].end(), bytes, bytes + sizeof(double));
        const auto* vbytes = reinterpret_cast<const std::byte*>(momentum[n * kFields + f].data());
        send[k].insert(send[k].end(), vbytes, vbytes + 2 * sizeof(double));
      }
  const auto back = world.exchange(halo.peers(), send);
  for (std::size_t k = 0; k < halo.peers().size(); ++k) {
    ASSERT_EQ(back[k].size(), send[k].size());
    EXPECT_EQ(std::memcmp(back[k].data(), send[k].data(), send[k].size()), 0) << "shared with rank " << halo.peers()[k];
  }
}

// The sub-grid of a box: its nodes cover the cells the box cuts plus `reach` cells, clipped.
TEST(NodeHalo, SubGridCoversTheBoxAndItsReachClippedToTheGrid) {
  const Grid<2> global(Vec<2>(0, 0), Vec<2>(1, 0.5), Vec<2>(0.1, 0.1));
  const parallel::Box<2> box{Vec<2>(0.25, -1.0), Vec<2>(0.55, 9.0)};
  const auto sub = sub_grid_for_box(global, box, 2);
  EXPECT_EQ(sub.first, IVec<2>(0, 0));        // floor(2.5) - 2 = 0; y clipped at 0
  EXPECT_EQ(sub.grid.nodes, IVec<2>(9, 6));   // x nodes 0..8 (ceil(5.5) + 2 = 8), y all 6
  EXPECT_NEAR(sub.grid.origin.x(), 0.0, 1e-15);
  const auto right = sub_grid_for_box(global, parallel::Box<2>{Vec<2>(0.75, 0.1), Vec<2>(2.0, 0.2)}, 1);
  EXPECT_EQ(right.first, IVec<2>(6, 0));      // floor(7.5) - 1; y floor(1) - 1 = 0
  EXPECT_EQ(right.grid.nodes, IVec<2>(5, 4)); // x 6..10 (clipped), y 0..3 (ceil(2) + 1)
  EXPECT_NEAR(right.grid.node_position(0).x(), 0.6, 1e-15);
}

}  // namespace
}  // namespace tribo::mpm
