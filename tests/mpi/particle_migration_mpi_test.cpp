// Across processes (ctest label mpi, run with 2 and 3): the reductions are the same bits on every
// rank, the RCB tree is the same on every rank whatever each one holds, and migration delivers
// every particle, whole, to the owner of its position, repeatably.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "tribo/core/particles.hpp"
#include "tribo/parallel/particle_exchange.hpp"
#include "tribo/parallel/rcb_partition.hpp"

namespace tribo::parallel {
namespace {

// Particle i of a 48 x 16 lattice, with every array a function of i, so a receiver can check that
// a particle arrived whole. Rank r starts with the particles i % size == r (a scattered start, as
// after reading a deck on every rank and keeping a share).
constexpr int nx = 48, ny = 16;
Vec<2> lattice_position(int i) { return Vec<2>((i % nx + 0.5) * 0.01, (i / nx + 0.5) * 0.01); }

Particles<2> scattered_share(const Communicator& comm) {
  Particles<2> p;
  for (int i = comm.rank(); i < nx * ny; i += comm.size()) {
    p.push_back(lattice_position(i), Vec<2>(i, -i), 1.0 + i, 1e-4, 0, i);
    p.damage.back() = 1e-3 * i;
  }
  return p;
}

bool particle_is_whole(const Particles<2>& p, std::size_t k) {
  const int i = p.material[k];
  return p.reference_position[k] == lattice_position(i) && p.velocity[k] == Vec<2>(i, -i) &&
         p.mass[k] == 1.0 + i && p.damage[k] == 1e-3 * i;
}

TEST(Communicator, ReductionsGiveEveryRankTheSameBits) {
  const auto world = Communicator::world();
  ASSERT_GT(world.size(), 1) << "run under mpiexec with 2 or more processes";
  // Values whose sum depends on the order of addition: rank order is the defined order.
  const double mine = 0.1 * (world.rank() + 1) + 1e16 * (world.rank() % 2 ? -1 : 1);
  const double total = world.sum(mine);
  double in_rank_order = 0;
  for (int r = 0; r < world.size(); ++r) in_rank_order += 0.1 * (r + 1) + 1e16 * (r % 2 ? -1 : 1);
  EXPECT_EQ(total, in_rank_order);
  EXPECT_EQ(world.max(static_cast<double>(world.rank())), world.size() - 1.0);
  EXPECT_EQ(world.min(static_cast<double>(world.rank())), 0.0);
  EXPECT_EQ(world.sum(static_cast<long long>(world.rank())), world.size() * (world.size() - 1LL) / 2);
}

TEST(Communicator, ExchangeWithRingNeighboursDeliversEachMessage) {
  const auto world = Communicator::world();
  const int next = (world.rank() + 1) % world.size(), previous = (world.rank() + world.size() - 1) % world.size();
  std::vector<int> peers{next};
  if (previous != next) peers.push_back(previous);
  std::vector<std::vector<std::byte>> send;
  for (int peer : peers) send.push_back(std::vector<std::byte>(static_cast<std::size_t>(10 + world.rank()), std::byte(peer)));
  const auto received = world.exchange(peers, send);
  ASSERT_EQ(received.size(), peers.size());
  for (std::size_t k = 0; k < peers.size(); ++k) {
    EXPECT_EQ(received[k].size(), static_cast<std::size_t>(10 + peers[k]));
    for (std::byte b : received[k]) EXPECT_EQ(b, std::byte(world.rank()));
  }
}

TEST(ParticleMigration, EveryParticleReachesTheOwnerOfItsPositionWhole) {
  const auto world = Communicator::world();
  auto particles = scattered_share(world);
  const Box<2> domain{Vec<2>(0, 0), Vec<2>(0.5, 0.2)};
  const auto partition = RcbPartition<2>::build(particles.position, world.size(), domain, world);

  // Every rank built the same tree: its boxes' bounds agree bit for bit with rank 0's.
  for (int p = 0; p < partition.parts(); ++p)
    for (int d = 0; d < 2; ++d) {
      EXPECT_EQ(world.max(partition.box(p).lower[d]), world.min(partition.box(p).lower[d]));
      EXPECT_EQ(world.max(partition.box(p).upper[d]), world.min(partition.box(p).upper[d]));
    }

  std::vector<int> owner(particles.size());
  for (std::size_t k = 0; k < particles.size(); ++k) owner[k] = partition.owner(particles.position[k]);
  migrate_particles(Particles<2>::arrays(particles), owner, world);

  // Nothing lost or doubled: count, sum of ids and sum of squared ids over all ranks.
  long long ids[3] = {static_cast<long long>(particles.size()), 0, 0};
  for (std::size_t k = 0; k < particles.size(); ++k) {
    const long long i = particles.material[k];
    ids[1] += i;
    ids[2] += i * i;
    EXPECT_EQ(partition.owner(particles.position[k]), world.rank());
    EXPECT_TRUE(particle_is_whole(particles, k)) << "particle " << i;
  }
  world.sum_in_place(std::span<long long>(ids, 3));
  const long long n = nx * ny;
  EXPECT_EQ(ids[0], n);
  EXPECT_EQ(ids[1], n * (n - 1) / 2);
  EXPECT_EQ(ids[2], (n - 1) * n * (2 * n - 1) / 6);
  // Balanced to within one lattice column of 16 particles.
  EXPECT_LE(std::abs(static_cast<double>(particles.size()) - static_cast<double>(n) / world.size()), 16.0);
}

// Bodies move; the boxes are rebuilt and particles move again. Two runs of the same sequence leave
// each rank with the same particles in the same order (bitwise repeatable on a fixed count).
TEST(ParticleMigration, RebalancingAfterMotionIsRepeatable) {
  const auto world = Communicator::world();
  auto run = [&world]() {
    auto particles = scattered_share(world);
    const Box<2> domain{Vec<2>(-0.5, -0.5), Vec<2>(1.0, 1.0)};
    for (int step = 0; step < 3; ++step) {
      // A shear that moves the top rows right: the balanced cuts change.
      for (auto& x : particles.position) x.x() += 0.5 * x.y() * (step + 1);
      const auto partition = RcbPartition<2>::build(particles.position, world.size(), domain, world);
      std::vector<int> owner(particles.size());
      for (std::size_t k = 0; k < particles.size(); ++k) owner[k] = partition.owner(particles.position[k]);
      migrate_particles(Particles<2>::arrays(particles), owner, world);
      for (std::size_t k = 0; k < particles.size(); ++k) EXPECT_EQ(partition.owner(particles.position[k]), world.rank());
    }
    return particles.material;
  };
  const auto first = run();
  const auto second = run();
  EXPECT_EQ(first, second);
  EXPECT_EQ(world.sum(static_cast<long long>(first.size())), static_cast<long long>(nx * ny));
}

}  // namespace
}  // namespace tribo::parallel
