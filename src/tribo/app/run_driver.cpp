#include "tribo/app/run_driver.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "tribo/app/progress.hpp"
#include "tribo/core/error.hpp"
#include "tribo/core/simulation.hpp"
#include "tribo/io/atomic_file.hpp"
#include "tribo/io/deck_writer.hpp"
#include "tribo/io/history.hpp"
#include "tribo/io/pvd_writer.hpp"
#include "tribo/io/summary_json.hpp"
#include "tribo/io/vtk_writer.hpp"
#include "tribo/mpm/mpm_simulation.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::app {

namespace fs = std::filesystem;

namespace {

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_solver(const SimulationSpec& spec) {
  if (spec.method == Method::Mpm) return mpm::make_simulation<Dim>(spec);
  return pd::make_simulation<Dim>(spec);
}

template <int Dim>
Vec<Dim> total_momentum(const Simulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  Vec<Dim> sum = Vec<Dim>::Zero();
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) sum += p.mass[i] * p.velocity[i];
  return sum;
}

template <int Dim>
double deformable_mass(const Simulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  double m = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) m += p.mass[i];
  return m;
}

// Writes frames, history and the PVD at output times.
template <int Dim>
class OutputFolder {
 public:
  OutputFolder(const SimulationSpec& spec, const fs::path& dir, bool frames)
      : spec_(spec), dir_(dir), frames_(frames), pvd_(dir / "run.pvd"),
        recorder_(spec.output.history, spec), csv_(dir / "history.csv", recorder_.columns()) {
    fs::create_directories(dir / "frames");
    io::write_file_atomically(dir / "deck.yaml", io::write_deck(spec));
    for (const MaterialSpec& m : spec.materials) material_names_.push_back(m.name);
  }

  void write(const Simulation<Dim>& sim) {
    recorder_.sample(sim, row_);
    csv_.append(row_);
    if (!frames_) return;
    const std::string stem = fmt::format("frame_{:06d}", frame_);
    io::write_particle_frame<Dim>(dir_ / "frames" / (stem + ".vtu"), sim.particles(), spec_.output.fields,
                                  material_names_);
    pvd_.add(sim.time(), "frames/" + stem + ".vtu", 0);
    int part = 1;
    for (const SurfaceMesh& mesh : sim.surfaces()) {
      const std::string name = fmt::format("{}_{:06d}.vtu", mesh.name, frame_);
      io::write_surface_mesh(dir_ / "frames" / name, mesh);
      pvd_.add(sim.time(), "frames/" + name, part++);
    }
    ++frame_;
  }
  int frames() const { return frame_; }

 private:
  const SimulationSpec& spec_;
  fs::path dir_;
  bool frames_;
  io::PvdWriter pvd_;
  io::HistoryRecorder<Dim> recorder_;
  io::HistoryCsv csv_;
  std::vector<double> row_;
  std::vector<std::string> material_names_;
  int frame_ = 0;
};

template <int Dim>
RunReport run(const SimulationSpec& spec, const RunOptions& options) {
  RunReport report;
  report.directory = options.output_directory.value_or(fs::path(spec.output.directory));
  auto sim = make_solver<Dim>(spec);
  OutputFolder<Dim> output(spec, report.directory, options.write_frames);
  report.particles = static_cast<long>(sim->particles().size());

  const double end = spec.time.end;
  const double every = spec.output.every > 0.0 ? spec.output.every : end / 100.0;
  const EnergyBreakdown energy0 = sim->energy();
  const Vec<Dim> momentum0 = total_momentum(*sim);
  const double mass = deformable_mass(*sim);
  const Vec<Dim> gravity = from_vec3<Dim>(spec.gravity);

  Progress progress(end, options.progress);
  const auto start = std::chrono::steady_clock::now();
  long next_output = 1;
  output.write(*sim);
  report.exit_reason = "completed";
  try {
    sim->check_health();
    // Half a step of slack so that round-off in the accumulated time does not add a step.
    while (sim->time() < end - 0.5 * sim->dt()) {
      sim->step();
      sim->check_health();
      if (sim->time() >= next_output * every - 0.5 * sim->dt()) {
        output.write(*sim);
        while (next_output * every <= sim->time() + 0.5 * sim->dt()) ++next_output;
      }
      progress.update(sim->time(), sim->step_count());
    }
  } catch (const SimulationError& e) {
    report.exit_reason = e.what();
    report.exit_code = 3;
  }
  progress.finish(sim->time(), sim->step_count());
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.steps = sim->step_count();
  report.simulated_time = sim->time();
  report.particle_updates_per_second =
      report.wall_seconds > 0.0 ? report.particles * static_cast<double>(report.steps) / report.wall_seconds : 0.0;

  if (report.exit_code == 0) {
    const EnergyBreakdown energy1 = sim->energy();
    const double scale = std::max({std::abs(energy0.total()), energy1.kinetic + energy1.strain,
                                   energy0.kinetic + energy0.strain, 1e-300});
    report.energy_error = std::abs(energy1.total() - energy0.total()) / scale;
    // Gravity's impulse is the only external one when no boundary or rigid body pushes.
    const Vec<Dim> expected = momentum0 + mass * gravity * sim->time();
    const Vec<Dim> p1 = total_momentum(*sim);
    const double pscale = std::max({momentum0.norm(), p1.norm(), expected.norm(), 1e-300});
    report.momentum_error = (p1 - expected).norm() / pscale;
  }

  io::JsonObject summary;
  summary.set("title", spec.title)
      .set("method", spec.method == Method::Mpm ? "mpm" : "pd")
      .set("dimension", spec.dimension)
      .set("particles", report.particles)
      .set("steps", report.steps)
      .set("dt", sim->dt())
      .set("simulated_time", report.simulated_time)
      .set("wall_time", report.wall_seconds)
      .set("particle_updates_per_second", report.particle_updates_per_second)
      .set("threads", omp_get_max_threads())
      .set("frames", output.frames());
  io::JsonObject conservation;
  conservation.set("energy_relative_error", report.energy_error)
      .set("momentum_relative_error", report.momentum_error)
      .set("note", "relative to the initial state; boundary conditions and rigid bodies exchange "
                   "momentum and energy with the outside, so nonzero errors are expected with them");
  summary.set("conservation", std::move(conservation));
  summary.set("exit_reason", report.exit_reason).set("exit_code", report.exit_code);
  io::write_json_atomically(report.directory / "summary.json", summary);
  return report;
}

}  // namespace

RunReport run_simulation(const SimulationSpec& spec, const RunOptions& options) {
  if (options.threads > 0) omp_set_num_threads(options.threads);
  return spec.dimension == 2 ? run<2>(spec, options) : run<3>(spec, options);
}

std::string format_report(const RunReport& r) {
  std::string s;
  s += fmt::format("  exit          {}\n", r.exit_reason);
  s += fmt::format("  steps         {} ({:.6g} s simulated)\n", r.steps, r.simulated_time);
  s += fmt::format("  wall time     {:.3f} s\n", r.wall_seconds);
  s += fmt::format("  particles     {}\n", r.particles);
  s += fmt::format("  speed         {:.4g} particle-updates/s ({:.1f} steps/s)\n", r.particle_updates_per_second,
                   r.wall_seconds > 0 ? r.steps / r.wall_seconds : 0.0);
  if (r.exit_code == 0) {
    s += fmt::format("  energy        {:.3e} relative change of the total (kinetic+strain+potential+frictional)\n",
                     r.energy_error);
    s += fmt::format("  momentum      {:.3e} relative change beyond gravity's impulse\n", r.momentum_error);
  }
  s += fmt::format("  output        {}\n", r.directory.string());
  return s;
}

}  // namespace tribo::app
