#include "tribo/app/run_driver.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>

#include "tribo/app/checkpoint.hpp"
#include "tribo/app/output_lock.hpp"
#include "tribo/app/progress.hpp"
#include "tribo/app/signals.hpp"
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

// sum |m v| over the deformable particles: the momentum that moves, the scale of the balance
// (the total can be zero, two bodies colliding head on, and round-off divided by it is noise).
template <int Dim>
double momentum_magnitude(const Simulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  double sum = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) sum += p.mass[i] * p.velocity[i].norm();
  return sum;
}

// The next multiple n of `interval` strictly after t + slack, at least `next` (the time loop's
// output and checkpoint schedule). Computed, not counted up one at a time: a tiny interval (the
// deck refuses more than 1e6 outputs, but a restart or a test may bring one) cannot spin here, and
// the fix-ups below only absorb the round-off of floor().
long next_multiple(long next, double interval, double t, double slack) {
  const double reach = t + slack;
  if (static_cast<double>(next) * interval > reach) return next;
  const double k = std::floor(reach / interval) + 1.0;
  if (!(k < 9.0e18)) return std::numeric_limits<long>::max();
  long n = std::max(next + 1, static_cast<long>(k));
  for (int turn = 0; turn < 4 && n > next + 1 && static_cast<double>(n - 1) * interval > reach; ++turn) --n;
  for (int turn = 0; turn < 4 && static_cast<double>(n) * interval <= reach; ++turn) ++n;
  return n;
}

template <int Dim>
double deformable_mass(const Simulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  double m = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) m += p.mass[i];
  return m;
}

// Writes frames, history and the PVD at output times. On a restart the history and the PVD are
// cut back to the checkpoint's time and frame numbering goes on from the checkpoint's count, so
// the frames redone overwrite those the interrupted run wrote past it.
template <int Dim>
class OutputFolder {
 public:
  OutputFolder(const SimulationSpec& spec, const fs::path& dir, bool frames, std::optional<double> resume_at,
               int frame)
      : spec_(spec),
        dir_(dir),
        frames_(frames),
        pvd_(resume_at ? io::PvdWriter::reload(dir / "run.pvd", *resume_at) : io::PvdWriter(dir / "run.pvd")),
        recorder_(spec.output.history, spec),
        csv_(resume_at ? io::HistoryCsv::reload(dir / "history.csv", recorder_.columns(), *resume_at)
                       : io::HistoryCsv(dir / "history.csv", recorder_.columns())),
        frame_(frame) {
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
  // The history rows so far made durable, with the checkpoint that covers them.
  void sync() { csv_.sync(); }
  // Time of the last history row (NaN when none).
  double last_time() const {
    return csv_.last_row().empty() ? std::numeric_limits<double>::quiet_NaN() : csv_.last_row()[0];
  }

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

// Brings the solver back from `snapshot` to step `target` (the last step that passed the guards),
// replaying the steps in between. On one thread the replay repeats the run exactly; should it fail
// earlier (a thread-dependent sum), it stops one step before that failure instead.
template <int Dim>
void rewind_to(Simulation<Dim>& sim, const SimulationSpec& spec, const io::CheckpointImage& snapshot, long target) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    DriverState ignored;
    restore_checkpoint(snapshot, spec, sim, ignored);
    try {
      while (sim.step_count() < target) {
        sim.step();
        sim.check_health();
      }
      return;
    } catch (const SimulationError&) {
      target = sim.step_count() - 1;
    }
  }
  DriverState ignored;
  restore_checkpoint(snapshot, spec, sim, ignored);
}

// The guard on the step size, before each step, on a state that passed check_health().
template <int Dim>
void check_time_step(const Simulation<Dim>& sim, const SimulationSpec& spec) {
  const double limit = sim.time_step_limit();
  // dt = 0 (a wave speed that overflowed) would loop at t = 0 for ever: 0 <= limit is no pass.
  if (!(sim.dt() > 0.0) || !std::isfinite(sim.dt()))
    throw SimulationError(sim.step_count(), sim.time(),
                          fmt::format("time step {} s: the run cannot advance (a material's wave speed is "
                                      "not finite, or the particles' speed is; check youngs_modulus, density "
                                      "and the initial velocities)",
                                      sim.dt()));
  if (sim.dt() <= limit) return;
  const char* basis = spec.method == Method::Mpm
                          ? "explicit MPM's CFL condition, cell / (dilatational wave speed + fastest particle "
                            "speed)"
                          : "the stable step of explicit PD, Silling & Askari 2005";
  throw SimulationError(sim.step_count(), sim.time(),
                        fmt::format("time step {:.4g} s is above the stability limit {:.4g} s of {}; lower "
                                    "time.dt, or give time.cfl (a fraction of the limit) instead",
                                    sim.dt(), limit, basis));
}

}  // namespace

template <int Dim>
RunReport run_solver(Simulation<Dim>& sim, const SimulationSpec& spec, const RunOptions& options) {
  if (options.threads > 0) omp_set_num_threads(options.threads);
  RunReport report;
  report.directory = options.output_directory.value_or(fs::path(spec.output.directory));
  report.particles = static_cast<long>(sim.particles().size());

  const double end = spec.time.end;
  const double every = spec.output.every > 0.0 ? spec.output.every : end / 100.0;
  // Checkpoints by wall-clock time (default every 10 minutes: what a restart may lose, whatever the
  // run's length; the old default of every 10% of the simulated time cost 11% of a PD cube run),
  // and by simulated time only when the deck gives checkpoint_every. Either way the state saved is
  // the solver's whole state at a step boundary, so a restart from any step is bitwise identical
  // to the uninterrupted run: the wall clock decides only which step that is.
  const std::optional<double> checkpoint_every = spec.output.checkpoint_every;
  const double checkpoint_wall = spec.output.checkpoint_wall.value_or(OutputSpec::kDefaultCheckpointWall);
  // One run per output folder: taken before anything there is read or written, held to the end.
  const OutputLock lock(report.directory);
  const CheckpointFolder checkpoints(report.directory);
  DriverState driver;
  driver.energy0 = sim.energy();
  driver.momentum0 = to_vec3<Dim>(total_momentum(sim));
  driver.momentum_abs0 = momentum_magnitude(sim);
  if (!options.restart)
    if (const int aside = checkpoints.set_aside_previous_run(); aside > 0)
      report.restart_note = fmt::format("moved {} checkpoint(s) of an earlier run in this folder to {}", aside,
                                        checkpoints.previous_path().string());

  // A restart: the newest readable checkpoint, if any, replaces the initial state.
  std::optional<double> resume_at;
  if (options.restart) {
    for (const fs::path& folder : {report.directory, report.directory / "frames", checkpoints.path()})
      remove_interrupted_writes(folder);
    std::vector<std::string> skipped;
    auto loaded = checkpoints.newest_readable(&skipped);
    for (const std::string& why : skipped) report.restart_note += fmt::format("skipped {}\n", why);
    if (loaded) {
      // Newer files than the one loaded did not read whole: remove them, or they would stay the
      // "newest" and push readable ones out of the folder's keep-two rule.
      for (const fs::path& newer : checkpoints.files()) {
        if (newer == loaded->file) break;
        std::error_code ignored;
        fs::remove(newer, ignored);
      }
      restore_checkpoint(loaded->image, spec, sim, driver);
      resume_at = sim.time();
      report.checkpoint = loaded->file;
      report.restart_note += fmt::format("continuing from {} (step {}, t = {:.6g} s)", loaded->file.string(),
                                         sim.step_count(), sim.time());
    } else {
      report.restart_note += fmt::format("no checkpoint in {}: starting from t = 0", checkpoints.path().string());
    }
  }
  report.first_step = sim.step_count();
  report.first_time = sim.time();

  OutputFolder<Dim> output(spec, report.directory, options.write_frames, resume_at,
                           static_cast<int>(driver.frames));
  const double mass = deformable_mass(sim);
  const Vec<Dim> gravity = from_vec3<Dim>(spec.gravity);

  // The newest state known to pass the guards, in memory, taken at outputs (at most one per
  // kSnapshotSteps steps) and checkpoints: when a guard trips after a step, the solver replays
  // from it to the step before (rewind_to), and that state is written.
  constexpr long kSnapshotSteps = 10;
  io::CheckpointImage last_good;
  long snapshot_step = -1;
  long last_checkpoint_step = resume_at ? sim.step_count() : -1;
  auto last_checkpoint_wall = std::chrono::steady_clock::now();
  const auto wall_interval = std::chrono::duration<double>(checkpoint_wall);
  const auto write_output = [&] {
    output.write(sim);
    driver.frames = output.frames();
  };
  const auto take_snapshot = [&] {
    fill_checkpoint<Dim>(last_good, spec, sim, driver);
    snapshot_step = sim.step_count();
  };
  const auto write_checkpoint = [&] {
    if (last_checkpoint_step == sim.step_count()) return;
    take_snapshot();
    if (options.write_checkpoints) {
      output.sync();  // the history rows the checkpoint covers are on disk before it is
      report.checkpoint = checkpoints.write(last_good, sim.step_count());
    }
    last_checkpoint_step = sim.step_count();
    last_checkpoint_wall = std::chrono::steady_clock::now();
  };

  Progress progress(end, options.progress);
  const auto start = std::chrono::steady_clock::now();
  if (!resume_at) write_output();
  report.exit_reason = "completed";
  long good_step = -1;  // the step whose state passed the guards last
  try {
    sim.check_health();
    good_step = sim.step_count();
    take_snapshot();
    bool completed = true;
    // A fresh run that would take no step (time.end below half of the first step) did nothing:
    // refused, not "completed". The step size is checked first, so that a dt far above the
    // stability limit is named as such.
    if (!resume_at && !(sim.time() < end - 0.5 * sim.dt())) {
      check_time_step(sim, spec);
      throw SimulationError(sim.step_count(), sim.time(),
                            fmt::format("time.end = {} s is less than half of the first time step {:.4g} s: the "
                                        "run would take no step; lengthen time.end or lower time.dt or time.cfl",
                                        end, sim.dt()));
    }
    // Half a step of slack so that round-off in the accumulated time does not add a step.
    while (sim.time() < end - 0.5 * sim.dt()) {
      const int signal = stop_requested();
      const bool asked = options.stop_after_steps && sim.step_count() >= *options.stop_after_steps;
      if (signal != 0 || asked) {
        write_checkpoint();
        report.exit_reason =
            signal != 0
                ? fmt::format("stopped by {} at step {}, t = {:.6g} s, after writing a checkpoint; continue "
                              "with `tribo run DECK --restart {}`",
                              signal_name(signal), sim.step_count(), sim.time(), report.directory.string())
                : fmt::format("stopped at step {} as asked", sim.step_count());
        report.exit_code = signal != 0 ? 128 + signal : 0;
        clear_stop_request();
        completed = false;
        break;
      }
      check_time_step(sim, spec);
      sim.step();
      sim.check_health();
      good_step = sim.step_count();
      const Vec3 impulse = sim.external_impulse();
      driver.external_impulse += impulse;
      driver.impulse_flux += impulse.norm();
      bool output_written = false;
      if (sim.time() >= driver.next_output * every - 0.5 * sim.dt()) {
        driver.next_output = next_multiple(driver.next_output, every, sim.time(), 0.5 * sim.dt());
        write_output();
        output_written = true;
      }
      const bool by_time = checkpoint_every && sim.time() >= driver.next_checkpoint * *checkpoint_every - 0.5 * sim.dt();
      if (by_time)
        driver.next_checkpoint = next_multiple(driver.next_checkpoint, *checkpoint_every, sim.time(), 0.5 * sim.dt());
      if (by_time || std::chrono::steady_clock::now() - last_checkpoint_wall >= wall_interval) {
        write_checkpoint();
      } else if (output_written && sim.step_count() - snapshot_step >= kSnapshotSteps) {
        take_snapshot();
      }
      progress.update(sim.time(), sim.step_count() - report.first_step);
    }
    if (completed) {
      write_checkpoint();  // to extend the run later (a larger time.end)
      clear_stop_request();  // a signal during the last step: the run is complete anyway
    }
  } catch (const SimulationError& e) {
    report.exit_reason = e.what();
    report.exit_code = 3;
    if (good_step >= 0) {
      // A step failed the checks (good_step < step_count), or the step size did before it ran.
      if (sim.step_count() != good_step) rewind_to<Dim>(sim, spec, last_good, good_step);
      report.last_good_step = sim.step_count();
      report.last_good_time = sim.time();
      if (output.last_time() != sim.time()) write_output();
      write_checkpoint();
    }
  }
  progress.finish(sim.time(), sim.step_count() - report.first_step);
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.steps = sim.step_count();
  report.simulated_time = sim.time();
  const long steps_run = report.steps - report.first_step;
  report.particle_updates_per_second =
      report.wall_seconds > 0.0 ? report.particles * static_cast<double>(steps_run) / report.wall_seconds : 0.0;

  if (report.exit_code == 0) {
    const EnergyBreakdown& energy0 = driver.energy0;
    const EnergyBreakdown energy1 = sim.energy();
    const double scale = std::max({std::abs(energy0.total()), energy1.kinetic + energy1.strain,
                                   energy0.kinetic + energy0.strain, 1e-300});
    report.energy_error = std::abs(energy1.total() - energy0.total()) / scale;
    // The old figure (kept under its old key): the change beyond gravity's impulse without ramp,
    // relative to the largest total momentum. It reads ~1 for two bodies whose total is zero
    // and for any deck with a rigid floor; the balance below replaces it.
    const Vec<Dim> momentum0 = from_vec3<Dim>(driver.momentum0);
    const Vec<Dim> expected = momentum0 + mass * gravity * sim.time();
    const Vec<Dim> p1 = total_momentum(sim);
    const double pscale = std::max({momentum0.norm(), p1.norm(), expected.norm(), 1e-300});
    report.momentum_error = (p1 - expected).norm() / pscale;
    // The balance: P(end) - P(0) against the sum of the external impulses the solver recorded
    // (gravity, boundary conditions, rigid bodies), relative to the momentum that moved: sum |m v|
    // at the start and at the end, and the sum of the impulses' norms over the steps.
    const Vec<Dim> impulse = from_vec3<Dim>(driver.external_impulse);
    const double balance_scale =
        std::max({driver.momentum_abs0, momentum_magnitude(sim), driver.impulse_flux, 1e-300});
    report.momentum_balance = (p1 - momentum0 - impulse).norm() / balance_scale;
    report.momentum_balance_scale = balance_scale;
  }

  io::JsonObject summary;
  summary.set("title", spec.title)
      .set("method", spec.method == Method::Mpm ? "mpm" : "pd")
      .set("dimension", spec.dimension)
      .set("particles", report.particles)
      .set("steps", report.steps)
      .set("dt", sim.dt())
      .set("simulated_time", report.simulated_time)
      .set("wall_time", report.wall_seconds)
      .set("particle_updates_per_second", report.particle_updates_per_second)
      .set("threads", omp_get_max_threads())
      .set("frames", output.frames());
  if (options.restart) {
    io::JsonObject restart;
    restart.set("step", report.first_step).set("time", report.first_time);
    summary.set("restarted_from", std::move(restart));
  }
  io::JsonObject conservation;
  conservation.set("energy_relative_error", report.energy_error)
      .set("momentum_relative_error", report.momentum_error)
      .set("momentum_balance", report.momentum_balance)
      .set("momentum_balance_scale", report.momentum_balance_scale)
      .set("note", "momentum_balance = |P(end) - P(0) - J| / S: J the impulse of gravity, boundary conditions "
                   "and rigid bodies on the deformable bodies, summed over the steps as the solver applied it; "
                   "S = max(sum |m v| at the start, at the end, sum over steps of |J_step|) in N s; ~1e-12 "
                   "for a correct MPM run, null when the solver does not record J. momentum_relative_error "
                   "(kept for old readers) compares with gravity's impulse alone and misleads with rigid "
                   "bodies or a zero total; energy_relative_error: |E(end) - E(0)| / max(|E(0)|, kinetic + "
                   "strain), E with gravity's potential and friction's work");
  summary.set("conservation", std::move(conservation));
  summary.set("exit_reason", report.exit_reason).set("exit_code", report.exit_code);
  if (report.last_good_step >= 0) {
    io::JsonObject good;
    good.set("step", report.last_good_step).set("time", report.last_good_time);
    summary.set("last_good_state", std::move(good));
  }
  if (!report.checkpoint.empty())
    summary.set("checkpoint", fs::relative(report.checkpoint, report.directory).string());
  io::write_json_atomically(report.directory / "summary.json", summary);
  return report;
}

template RunReport run_solver<2>(Simulation<2>&, const SimulationSpec&, const RunOptions&);
template RunReport run_solver<3>(Simulation<3>&, const SimulationSpec&, const RunOptions&);

RunReport run_simulation(const SimulationSpec& spec, const RunOptions& options) {
  if (options.threads > 0) omp_set_num_threads(options.threads);
  if (spec.dimension == 2) return run_solver<2>(*make_solver<2>(spec), spec, options);
  return run_solver<3>(*make_solver<3>(spec), spec, options);
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
    if (std::isfinite(r.momentum_balance))
      s += fmt::format("  momentum      {:.3e} balance: |P(end) - P(0) - impulse of gravity, boundaries, rigid "
                       "bodies| / {:.4g} N s moved\n",
                       r.momentum_balance, r.momentum_balance_scale);
    else
      s += fmt::format("  momentum      {:.3e} relative change beyond gravity's impulse (this solver records "
                       "no external impulse)\n",
                       r.momentum_error);
  }
  if (r.last_good_step >= 0)
    s += fmt::format("  last good     step {}, t = {:.6g} s (history, frame and checkpoint written there)\n",
                     r.last_good_step, r.last_good_time);
  if (!r.checkpoint.empty()) s += fmt::format("  checkpoint    {}\n", r.checkpoint.string());
  s += fmt::format("  output        {}\n", r.directory.string());
  return s;
}

}  // namespace tribo::app
