// One full MPM step (USL, uGIMP, 2 particles per cell per direction) of a single elastic block
// falling under gravity, in 2D (plane strain) and 3D, at about 1e4, 1e5 and 1e6 particles, on 1
// and 2 OpenMP threads. Counters: particle-updates per second (particles x steps / wall time),
// steps per second, and the heap the solver holds per particle (issue 7: a 3D run of 1e6
// particles must fit in 8 GiB, i.e. under ~8.6 kB per particle including the grid).
//
// The block fills the grid but for 2 cells on every side, as a dense problem would. One untimed
// step runs first (it sorts the particles by cell, as every 20th step does); the timed steps
// follow, so the 1e6 runs (3 to 5 steps) do not include a sort while the smaller ones do (1 in 20).
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/mpm_simulation.hpp"

namespace {

using tribo::Vec3;

constexpr double kCell = 0.01;  // m

// A block of `cells` cells per side (2D: squares, 3D: cubes), 2 cells of grid around it.
tribo::SimulationSpec block_spec(int dim, int cells) {
  tribo::SimulationSpec spec;
  spec.title = "elastic block";
  spec.dimension = dim;
  spec.time.end = 1.0;
  spec.time.cfl = 0.4;
  spec.gravity = Vec3(0.0, -9.81, 0.0);
  tribo::MaterialSpec m;
  m.name = "block";
  m.model = tribo::MaterialModel::LinearElastic;
  m.density = 1000.0;
  m.youngs_modulus = 1.0e6;
  m.poisson_ratio = 0.3;
  spec.materials.push_back(m);
  tribo::BodySpec b;
  b.name = "block";
  b.material = "block";
  b.material_index = 0;
  b.geometry.kind = tribo::Shape::Kind::Box;
  b.geometry.dimension = dim;
  const double z = dim == 3 ? 1.0 : 0.0;
  b.geometry.min = Vec3(2 * kCell, 2 * kCell, 2 * kCell * z);
  b.geometry.max = Vec3((2 + cells) * kCell, (2 + cells) * kCell, (2 + cells) * kCell * z);
  // A little spin, so that the stress update has rotation to remove (co-rotational elasticity).
  b.angular_velocity = Vec3(0.0, 0.0, 1.0);
  spec.bodies.push_back(b);
  spec.mpm.grid_min = Vec3::Zero();
  spec.mpm.grid_max = Vec3((4 + cells) * kCell, (4 + cells) * kCell, (4 + cells) * kCell * z);
  spec.mpm.cell = Vec3::Constant(kCell);
  spec.mpm.particles_per_cell = 2;
  spec.mpm.shape_function = tribo::ShapeFunctionKind::Gimp;
  spec.mpm.update = tribo::UpdateScheme::Usl;
  return spec;
}

// Cells per side for about `particles` particles at 2^dim particles per cell.
int cells_for(int dim, double particles) {
  return static_cast<int>(std::lround(std::pow(particles / (dim == 2 ? 4.0 : 8.0), 1.0 / dim)));
}

// Heap in use: the main arena's small blocks plus the mmap'ed large ones (every particle and
// node array of a big run is one of those).
std::size_t heap_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

template <int Dim>
void run_step(benchmark::State& state, double target_particles, int threads) {
  omp_set_num_threads(threads);
  const tribo::SimulationSpec spec = block_spec(Dim, cells_for(Dim, target_particles));
  const std::size_t heap_before = heap_in_use();
  auto sim = tribo::mpm::make_simulation<Dim>(spec);
  sim->step();  // untimed: the first sort, and any first-touch of the buffers
  const std::size_t heap_after = heap_in_use();
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
  state.counters["steps_per_second"] = steps / seconds;
  state.counters["particle_updates_per_second"] = steps * particles / seconds;
  state.counters["ns_per_particle_step"] = seconds * 1e9 / (steps * particles);
  state.counters["bytes_per_particle"] = static_cast<double>(heap_after - heap_before) / particles;
  state.counters["heap_MiB"] = static_cast<double>(heap_after - heap_before) / (1024.0 * 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  struct Size {
    const char* label;
    double particles;
    int steps2d, steps3d;
  };
  for (const Size& size : {Size{"1e4", 1e4, 400, 200}, Size{"1e5", 1e5, 40, 20}, Size{"1e6", 1e6, 5, 3}})
    for (int threads : {1, 2}) {
      const std::string suffix = std::string("/particles:") + size.label + "/threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark(("MpmStep2D" + suffix).c_str(), run_step<2>, size.particles, threads)
          ->Iterations(size.steps2d)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("MpmStep3D" + suffix).c_str(), run_step<3>, size.particles, threads)
          ->Iterations(size.steps3d)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
