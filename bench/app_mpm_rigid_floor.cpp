// Issue 17: a 3D elastic block on a rigid floor should cost, per deformable particle-step, within
// 1.5x of the same block in free fall (bench/decks/mpm_block_rigid_floor.yaml: 1e5 block
// particles on a floor of 3e5). Both on the same grid, after 20 untimed steps (the block settles
// on the floor and the solver records its standing floor); counter ns_per_deformable_particle_step.
// One thread (set OMP_NUM_THREADS for more).
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>

#include "tribo/io/deck_reader.hpp"
#include "tribo/mpm/mpm_simulation.hpp"

namespace {

using namespace tribo;

SimulationSpec floor_deck() { return io::read_deck(TRIBO_SOURCE_DIR "/bench/decks/mpm_block_rigid_floor.yaml"); }

// The block alone: the floor body, its material and the contact pair removed.
SimulationSpec free_fall_deck() {
  SimulationSpec spec = floor_deck();
  spec.bodies.pop_back();
  spec.materials.pop_back();
  spec.mpm.contact.pairs.clear();
  return spec;
}

void run(benchmark::State& state, const SimulationSpec& spec, long deformable) {
  auto sim = mpm::make_simulation<3>(spec);
  for (int s = 0; s < 20; ++s) sim->step();
  long steps = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    sim->step();
    ++steps;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.counters["particles"] = static_cast<double>(sim->particles().size());
  state.counters["deformable_particles"] = static_cast<double>(deformable);
  state.counters["ns_per_deformable_particle_step"] =
      1e9 * seconds / (static_cast<double>(deformable) * static_cast<double>(steps));
}

// The block with a small rigid box far from it: two velocity fields, so the particle-to-grid pass
// carries the contact data (volumes, gradients, positions) and contact runs, but nothing touches.
SimulationSpec distant_rigid_deck() {
  SimulationSpec spec = floor_deck();
  spec.bodies.back().geometry.min = Vec3(0.28, 0.18, 0.10);
  spec.bodies.back().geometry.max = Vec3(0.296, 0.196, 0.116);
  return spec;
}

long block_particles() {
  auto sim = mpm::make_simulation<3>(free_fall_deck());
  return static_cast<long>(sim->particles().size());
}

void BM_BlockOnRigidFloor(benchmark::State& state) { run(state, floor_deck(), block_particles()); }
void BM_BlockInFreeFall(benchmark::State& state) { run(state, free_fall_deck(), block_particles()); }
void BM_BlockWithDistantRigidBox(benchmark::State& state) { run(state, distant_rigid_deck(), block_particles()); }

BENCHMARK(BM_BlockOnRigidFloor)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_BlockInFreeFall)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_BlockWithDistantRigidBox)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
