// Issue 3's MPM benchmark: two elastic disks in an oblique, frictional impact (plane strain,
// uGIMP, USL, Coulomb mu = 0.3, average-volume-gradient normals, position check with cutoff 0.8,
// 2 particles per cell per direction). Grid 200 x 80 mm; disks 50 mm across (E = 1000 MPa,
// nu = 0.33, rho = 1500 kg/m^3) at +57 and -57 m/s along x, centres 15 mm apart in y and a 2 mm
// gap along the line of centres, so that the impact starts within the first ~20 us.
//
// One benchmark iteration is one time step plus the health check the run driver does after every
// step. At 1 mm cells the run is the whole 0.4 ms of simulated time (796 steps); at 0.5 and
// 0.25 mm it is the same 796 steps (0.2 and 0.1 ms, both through the impact), so the three sizes
// compare the cost of a particle-step at a 4x and 16x larger problem. Set TRIBO_BENCH_FULL=1 to
// run the whole 0.4 ms at every size (1592 and 3184 steps).
//
// TRIBO_BENCH_STEPS=N runs N steps at every size instead (for profiling).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/mpm_simulation.hpp"

namespace {

using tribo::Vec3;

constexpr double kDuration = 0.4e-3;   // s
constexpr int kStepsAtOneMillimetre = 796;

tribo::Shape disk(const Vec3& centre, double radius) {
  tribo::Shape s;
  s.kind = tribo::Shape::Kind::Ball;
  s.dimension = 2;
  s.center = centre;
  s.radius = radius;
  return s;
}

tribo::SimulationSpec oblique_disks(double cell) {
  tribo::SimulationSpec spec;
  spec.title = "oblique impact of two disks";
  spec.dimension = 2;
  spec.time.end = kDuration;
  // The step that makes 796 steps at 1 mm (cfl 0.5 on the dilatational wave of 994 m/s), scaled
  // with the cell so that every size runs at the same Courant number.
  spec.time.dt = kDuration / kStepsAtOneMillimetre * (cell / 1e-3);
  for (const char* name : {"left", "right"}) {
    tribo::MaterialSpec m;
    m.name = name;
    m.model = tribo::MaterialModel::LinearElastic;
    m.density = 1500.0;
    m.youngs_modulus = 1000e6;
    m.poisson_ratio = 0.33;
    spec.materials.push_back(m);
  }
  const double radius = 0.025, dy = 0.015, gap = 0.002;
  const double dx = std::sqrt((2 * radius + gap) * (2 * radius + gap) - dy * dy);
  const Vec3 centre(0.1, 0.04, 0.0);
  for (int i = 0; i < 2; ++i) {
    const double sign = i == 0 ? -1.0 : 1.0;
    tribo::BodySpec b;
    b.name = i == 0 ? "left" : "right";
    b.material = b.name;
    b.material_index = i;
    b.geometry = disk(centre + Vec3(0.5 * sign * dx, 0.5 * sign * dy, 0.0), radius);
    b.velocity = Vec3(-57.0 * sign, 0.0, 0.0);
    spec.bodies.push_back(b);
  }
  spec.mpm.grid_min = Vec3::Zero();
  spec.mpm.grid_max = Vec3(0.2, 0.08, 0.0);
  spec.mpm.cell = Vec3(cell, cell, cell);
  spec.mpm.particles_per_cell = 2;
  // The centre rule, as when the figures of bench/README.md were taken (15 720 particles at 1 mm);
  // the default clipped fill adds the rims' cut sub-cells (16 032).
  spec.mpm.particle_fill = tribo::ParticleFill::Centers;
  spec.mpm.shape_function = tribo::ShapeFunctionKind::Gimp;
  spec.mpm.update = tribo::UpdateScheme::Usl;
  spec.mpm.contact.normals = tribo::ContactNormalMethod::AverageVolumeGradient;
  spec.mpm.contact.displacement_check = true;
  spec.mpm.contact.position_method = tribo::ContactPositionMethod::Position;
  spec.mpm.contact.position_offset = 0.8;
  tribo::ContactPairSpec pair;
  pair.materials = {"left", "right"};
  pair.material_indices = {0, 1};
  pair.law.law = tribo::ContactLaw::Coulomb;
  pair.law.friction = 0.3;
  spec.mpm.contact.pairs.push_back(pair);
  return spec;
}

void run_oblique_disks(benchmark::State& state, int micrometres, int threads, tribo::TransferScheme transfer) {
  const double cell = micrometres * 1e-6;
  omp_set_num_threads(threads);
  tribo::SimulationSpec spec = oblique_disks(cell);
  spec.mpm.transfer = transfer;
  auto sim = tribo::mpm::make_simulation<2>(spec);
  const double particles = static_cast<double>(sim->particles().size());
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    sim->step();
    sim->check_health();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double steps = static_cast<double>(state.iterations());
  state.counters["particles"] = particles;
  state.counters["threads"] = threads;
  state.counters["steps_per_second"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["particle_updates_per_second"] =
      benchmark::Counter(steps * particles, benchmark::Counter::kIsRate);
  // ns per particle-step: the figure that must stay within 1.5x across the three cell sizes.
  state.counters["ns_per_particle_step"] = seconds * 1e9 / (steps * particles);
  state.counters["simulated_ms"] = sim->time() * 1e3;
}

}  // namespace

int main(int argc, char** argv) {
  const bool full = std::getenv("TRIBO_BENCH_FULL") != nullptr;
  const char* fixed = std::getenv("TRIBO_BENCH_STEPS");
  for (int micrometres : {1000, 500, 250}) {
    int steps = full ? kStepsAtOneMillimetre * 1000 / micrometres : kStepsAtOneMillimetre;
    if (fixed) steps = std::atoi(fixed);
    for (int threads : {1, 2}) {
      const std::string name = "ObliqueDisks/cell_um:" + std::to_string(micrometres) +
                               "/threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark(name.c_str(), run_oblique_disks, micrometres, threads,
                                   tribo::TransferScheme::Apic)
          ->Iterations(steps)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      // The cost of APIC's affine part (the default since stop 16) against FLIP's transfers.
      if (micrometres == 1000)
        benchmark::RegisterBenchmark((name + "/transfer:flip").c_str(), run_oblique_disks, micrometres, threads,
                                     tribo::TransferScheme::Flip)
            ->Iterations(steps)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
