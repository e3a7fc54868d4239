// Bond-update rate of the PD bond pass, on the problem LAMMPS' side-by-side runs
// (bench/lammps/in.pmb_cube, scripts/bench-pd-vs-lammps.sh): a cube of 38^3 points on a simple
// cubic lattice of 0.5 mm, horizon 1.5001 mm (3 spacings, as LAMMPS' PERI example, so that the
// points at exactly 3 spacings are in), PMB with LAMMPS' micromodulus c = 1.6863e22, density
// 2200 kg/m^3, 100 steps of 1e-7 s from a uniform expansion at 10 1/s. The partial-volume rule
// is LAMMPS' (pdlammps), so both codes hold the same bonds.
// Counters: bonds (directed: each bond counted at both ends, as LAMMPS' partner lists) and
// bond_updates_per_s = bonds * steps / wall time of the steps (setup excluded).
// Argument: the OpenMP thread count.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <numbers>

#include "tribo/pd/pd_simulation.hpp"

namespace {

using namespace tribo;

SimulationSpec cube_spec(MaterialModel model) {
  const double h = 5e-4, horizon = 1.5001e-3, c = 1.6863e22;
  SimulationSpec spec;
  spec.method = Method::Pd;
  spec.dimension = 3;
  spec.time.end = 1e-5;
  spec.time.dt = 1e-7;
  spec.pd.spacing = h;
  spec.pd.horizon = horizon / h;
  spec.pd.partial_volume = PdSpec::PartialVolume::Pdlammps;
  MaterialSpec m;
  m.name = "glass";
  m.model = model;
  m.density = 2200.0;
  m.poisson_ratio = 0.25;
  // c = 18 K / (pi delta^4) and E = 3 K (1 - 2 nu) = 1.5 K.
  m.youngs_modulus = 1.5 * c * std::numbers::pi * std::pow(horizon, 4) / 18.0;
  spec.materials.push_back(m);
  BodySpec cube;
  cube.name = "cube";
  cube.material = "glass";
  cube.material_index = 0;
  cube.geometry.kind = Shape::Kind::Box;
  cube.geometry.dimension = 3;
  cube.geometry.min = Vec3::Zero();
  cube.geometry.max = Vec3::Constant(38 * h);
  spec.bodies.push_back(cube);
  spec.output.fields = {"velocity", "damage"};
  return spec;
}

void run_cube(benchmark::State& state, MaterialModel model) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  const int steps = 100;
  double bonds = 0.0;
  for (auto _ : state) {
    state.PauseTiming();
    pd::PdSimulation<3> sim(cube_spec(model));
    const Vec3 centre = Vec3::Constant(19 * 5e-4);
    for (std::size_t i = 0; i < sim.velocity().size(); ++i)
      sim.velocity()[i] = 10.0 * (sim.particles().position[i] - centre);
    bonds = static_cast<double>(sim.bonds().bond_count());
    state.ResumeTiming();
    for (int k = 0; k < steps; ++k) sim.step();
    benchmark::DoNotOptimize(sim.particles().position.data());
  }
  state.counters["points"] = 38.0 * 38.0 * 38.0;
  state.counters["bonds"] = bonds;
  state.counters["bond_updates_per_s"] =
      benchmark::Counter(bonds * steps * state.iterations(), benchmark::Counter::kIsRate);
}

void BM_PmbCube(benchmark::State& state) { run_cube(state, MaterialModel::Pmb); }
void BM_LpsCube(benchmark::State& state) { run_cube(state, MaterialModel::Lps); }

}  // namespace

BENCHMARK(BM_PmbCube)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_LpsCube)->Arg(1)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

BENCHMARK_MAIN();
