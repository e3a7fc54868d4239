// A cracked MPM run is the same with 1 or 2 OpenMP threads, and a checkpoint taken mid-run restores
// it exactly. Reference: the uninterrupted run on one thread; bit-for-bit equality (the crack
// fields of a node are ranked by an order-free OR of the crossings, crack contact and the surface
// motion are serial, and every other loop is as without cracks: thread_independence_test.cpp).
// The problem: the block on an inclined Coulomb crack between rigid platens of
// tests/validation/mpm/crack_friction_test.cpp (crack fields, crack contact, material contact with
// the platens, and the particle sort every 20 steps inside the window).
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "../validation/mpm/crack_problems.hpp"

namespace tribo {
namespace {

using namespace tribo::testing;

SimulationSpec inclined_crack_block() {
  CrackedBlock o;
  const double c = std::cos(std::numbers::pi / 6), s = std::sin(std::numbers::pi / 6), reach = 0.014;
  o.crack = {Vec3(0.02 - reach * c, 0.02 - reach * s, 0), Vec3(0.02 + reach * c, 0.02 + reach * s, 0)};
  o.crack_law = ContactLawSpec{ContactLaw::Coulomb, 0.2};
  o.platen_speed = -0.5;  // fast, so that 120 steps slide the faces
  o.shape = ShapeFunctionKind::Gimp;
  return cracked_block_spec(o);
}

// Plain in-memory checkpoint entries.
class MemoryState final : public StateWriter, public StateReader {
 public:
  void write_bytes(std::string_view name, const void* data, std::size_t size) override {
    const char* bytes = static_cast<const char*>(data);
    entries_[std::string(name)].assign(bytes, bytes + size);
  }
  std::size_t entry_size(std::string_view name) const override { return at(name).size(); }
  void read_bytes(std::string_view name, void* data, std::size_t size) const override {
    const std::vector<char>& e = at(name);
    if (e.size() != size) throw std::runtime_error("size of " + std::string(name));
    std::memcpy(data, e.data(), size);
  }

 private:
  const std::vector<char>& at(std::string_view name) const {
    auto it = entries_.find(std::string(name));
    if (it == entries_.end()) throw std::runtime_error("no entry " + std::string(name));
    return it->second;
  }
  std::map<std::string, std::vector<char>> entries_;
};

struct Snapshot {
  std::vector<Vec2> positions, velocities;
  std::vector<Vec3> crack_points;
  Vec3 crack_force = Vec3::Zero();
};

Snapshot snapshot(const Simulation<2>& sim) {
  Snapshot s;
  s.positions = sim.particles().position;
  s.velocities = sim.particles().velocity;
  s.crack_points = sim.surfaces().front().points;
  s.crack_force = sim.crack_force(0);
  return s;
}

void expect_identical(const Snapshot& a, const Snapshot& b) {
  ASSERT_EQ(a.positions.size(), b.positions.size());
  // Particles are sorted by cell in both runs alike, so index i is the same particle.
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    ASSERT_EQ(a.positions[i], b.positions[i]) << "particle " << i;
    ASSERT_EQ(a.velocities[i], b.velocities[i]) << "particle " << i;
  }
  ASSERT_EQ(a.crack_points.size(), b.crack_points.size());
  for (std::size_t i = 0; i < a.crack_points.size(); ++i) ASSERT_EQ(a.crack_points[i], b.crack_points[i]) << i;
  EXPECT_EQ(a.crack_force, b.crack_force);
}

constexpr int kSteps = 120;

Snapshot run(int threads, int checkpoint_at = -1) {
  omp_set_num_threads(threads);
  const SimulationSpec spec = inclined_crack_block();
  auto sim = mpm::make_simulation<2>(spec);
  for (int k = 0; k < kSteps; ++k) {
    if (k == checkpoint_at) {
      MemoryState state;
      sim->save_state(state);
      sim = mpm::make_simulation<2>(spec);  // a fresh solver, as a restart builds
      sim->restore_state(state);
    }
    sim->step();
  }
  return snapshot(*sim);
}

TEST(CrackDeterminism, OneAndTwoThreadsGiveTheSameCrackedRunBitForBit) {
  const Snapshot one = run(1);
  // The faces did slide and touch: the test is not of a crack at rest.
  EXPECT_GT(one.crack_force.norm(), 0.0);
  const Snapshot two = run(2);
  expect_identical(one, two);
  omp_set_num_threads(1);
}

TEST(CrackDeterminism, ACheckpointMidRunRestoresTheCracksExactly) {
  const Snapshot straight = run(1);
  const Snapshot restarted = run(1, 50);  // between the sorts of steps 40 and 60
  expect_identical(straight, restarted);
}

}  // namespace
}  // namespace tribo
