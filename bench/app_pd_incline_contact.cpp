// Cost of the PD contact pass (issue 12) on the incline deck, examples/incline-pd.yaml (2D PMB
// block on a rigid floor, default smoothed contact, objective friction): the time of one whole
// step (bonds, contact, integration) against one contact pass (list check, repulsion, friction)
// on the same state, after 2000 steps of sliding. The budget: the contact pass at most
// 30% of a step. One thread (set OMP_NUM_THREADS for more).
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "tribo/io/deck_reader.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace {

using namespace tribo;

std::unique_ptr<pd::PdSimulation<2>> settled_incline() {
  SimulationSpec spec = io::read_deck(TRIBO_SOURCE_DIR "/examples/incline-pd.yaml");
  auto sim = std::make_unique<pd::PdSimulation<2>>(spec);
  for (int s = 0; s < 2000; ++s) sim->step();
  return sim;
}

void BM_InclineStep(benchmark::State& state) {
  auto sim = settled_incline();
  for (auto _ : state) sim->step();
  state.counters["points"] = static_cast<double>(sim->particles().size());
}

void BM_InclineContactPass(benchmark::State& state) {
  auto sim = settled_incline();
  pd::PdContact<2> contact = *sim->contact();
  const pd::ContactState<2> at = sim->contact_state();
  std::vector<Vec2> force(sim->force().begin(), sim->force().end());
  for (auto _ : state) {
    contact.add_forces(at, force);
    benchmark::DoNotOptimize(force.data());
  }
  state.counters["pairs"] = static_cast<double>(contact.pairs_in_contact());
}

BENCHMARK(BM_InclineStep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_InclineContactPass)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
