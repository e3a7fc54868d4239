// Packing and unpacking the solver's list of per-particle arrays: every array travels, entries
// stay together, order is kept; on one process migration keeps everything where it is.
#include "tribo/parallel/particle_exchange.hpp"

#include <gtest/gtest.h>

#include "tribo/core/particles.hpp"

namespace tribo::parallel {
namespace {

Particles<2> numbered_particles(int n) {
  Particles<2> p;
  for (int i = 0; i < n; ++i) {
    p.push_back(Vec<2>(i, 2.0 * i), Vec<2>(-i, 0.5), 1.0 + i, 0.1 * i, i % 3, i);
    p.stress.back()(0, 1) = 10.0 * i;
    p.damage.back() = 0.01 * i;
  }
  return p;
}

void expect_particle(const Particles<2>& p, std::size_t k, int i) {
  EXPECT_EQ(p.position[k], Vec<2>(i, 2.0 * i));
  EXPECT_EQ(p.reference_position[k], Vec<2>(i, 2.0 * i));
  EXPECT_EQ(p.velocity[k], Vec<2>(-i, 0.5));
  EXPECT_EQ(p.mass[k], 1.0 + i);
  EXPECT_EQ(p.volume[k], 0.1 * i);
  EXPECT_EQ(p.body[k], i % 3);
  EXPECT_EQ(p.material[k], i);
  EXPECT_EQ(p.stress[k](0, 1), 10.0 * i);
  EXPECT_EQ(p.damage[k], 0.01 * i);
}

TEST(ParticleExchange, AMessageCarriesEveryArrayOfTheList) {
  auto source = numbered_particles(10);
  const std::vector<std::size_t> chosen{7, 2, 9};
  std::vector<std::byte> message;
  pack_particles(Particles<2>::arrays(source), chosen, message);
  // 3 particles x (3 Vec2 + 4 doubles + 2 ints + one 3x3 matrix) bytes.
  EXPECT_EQ(message.size(), 3 * (3 * 16 + 4 * 8 + 2 * 4 + 72));
  EXPECT_EQ(bytes_per_particle(Particles<2>::arrays(source)), 3u * 16 + 4 * 8 + 2 * 4 + 72);

  auto target = numbered_particles(2);
  const std::size_t arrived = unpack_particles(Particles<2>::arrays(target), message);
  ASSERT_EQ(arrived, 3u);
  ASSERT_EQ(target.size(), 5u);
  expect_particle(target, 0, 0);
  expect_particle(target, 1, 1);
  expect_particle(target, 2, 7);
  expect_particle(target, 3, 2);
  expect_particle(target, 4, 9);
}

TEST(ParticleExchange, ATruncatedMessageIsAnError) {
  auto source = numbered_particles(3);
  std::vector<std::byte> message;
  const std::vector<std::size_t> all{0, 1, 2};
  pack_particles(Particles<2>::arrays(source), all, message);
  message.pop_back();
  auto target = numbered_particles(1);
  EXPECT_THROW(unpack_particles(Particles<2>::arrays(target), message), std::runtime_error);
}

TEST(ParticleExchange, EraseKeepsTheOthersInOrder) {
  auto p = numbered_particles(6);
  const std::vector<char> leaving{0, 1, 0, 0, 1, 1};
  erase_particles(Particles<2>::arrays(p), leaving);
  ASSERT_EQ(p.size(), 3u);
  expect_particle(p, 0, 0);
  expect_particle(p, 1, 2);
  expect_particle(p, 2, 3);
}

TEST(ParticleExchange, OnOneProcessMigrationKeepsEveryParticleInPlace) {
  auto p = numbered_particles(5);
  const std::vector<int> owner(5, 0);
  EXPECT_EQ(migrate_particles(Particles<2>::arrays(p), owner, Communicator::single()), 0u);
  ASSERT_EQ(p.size(), 5u);
  for (int i = 0; i < 5; ++i) expect_particle(p, static_cast<std::size_t>(i), i);
  const std::vector<int> elsewhere{0, 1, 0, 0, 0};
  EXPECT_THROW(migrate_particles(Particles<2>::arrays(p), elsewhere, Communicator::single()), std::runtime_error);
}

TEST(Communicator, OneProcessReductionsAreTheIdentity) {
  const auto c = Communicator::single();
  EXPECT_EQ(c.rank(), 0);
  EXPECT_EQ(c.size(), 1);
  EXPECT_EQ(c.sum(2.5), 2.5);
  EXPECT_EQ(c.sum(7LL), 7LL);
  EXPECT_EQ(c.max(-1.0), -1.0);
  const std::vector<int> self{0};
  const std::vector<std::vector<std::byte>> send{{std::byte{1}, std::byte{2}}};
  EXPECT_EQ(c.exchange(self, send), send);
  const std::vector<int> other{1};
  EXPECT_THROW(c.exchange(other, send), std::invalid_argument);
}

}  // namespace
}  // namespace tribo::parallel
