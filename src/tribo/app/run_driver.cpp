#include "tribo/app/run_driver.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tribo/app/checkpoint.hpp"
#include "tribo/app/output_folder.hpp"
#include "tribo/app/output_lock.hpp"
#include "tribo/app/progress.hpp"
#include "tribo/app/run_summary.hpp"
#include "tribo/app/signals.hpp"
#include "tribo/core/error.hpp"
#include "tribo/core/simulation.hpp"
#include "tribo/io/atomic_file.hpp"
#include "tribo/mpm/mpm_simulation.hpp"
#include "tribo/parallel/communicator.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::app {

namespace fs = std::filesystem;

namespace {

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_solver(const SimulationSpec& spec, const parallel::Communicator& processes) {
  if (spec.method == Method::Mpm) return mpm::make_simulation<Dim>(spec, processes);
  return pd::make_simulation<Dim>(spec, processes);
}

// Across processes: true on every process when `flag` is true on any (a stop signal that reached
// one, a wall-clock checkpoint due on one), so that all take the same branch.
template <int Dim>
bool on_any_process(const Simulation<Dim>& sim, bool flag) {
  if (sim.process_count() == 1) return flag;
  double value = flag ? 1.0 : 0.0;
  sim.max_over_processes(std::span<double>(&value, 1));
  return value > 0.0;
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

// A restart on another number of processes than the checkpoints' (collective): every process
// reads piece 0 (the driver state, the deck's check) and its share of the pieces of the manifest's
// step; the solver distributes the points they hold afresh.
template <int Dim>
std::optional<double> resume_from_pieces(Simulation<Dim>& sim, const SimulationSpec& spec,
                                         const CheckpointFolder& checkpoints, int written, DriverState& driver,
                                         RunReport& report) {
  const long step = checkpoints.manifest_step();
  const auto first = step >= 0 ? CheckpointFolder(report.directory, 2, 0, written).readable_at(step) : std::nullopt;
  const auto mine = step >= 0 ? checkpoints.pieces_of(step, written, sim.process_rank()) : std::nullopt;
  if (on_any_process(sim, !first || !mine))
    throw std::runtime_error(fmt::format(
        "--restart {}: the checkpoint pieces of step {} written by {} processes are not all readable",
        report.directory.string(), step, written));
  std::vector<const io::CheckpointImage*> pieces;
  for (const CheckpointFolder::Loaded& piece : *mine) pieces.push_back(&piece.image);
  restore_checkpoint_pieces(first->image, pieces, spec, sim, driver);
  report.checkpoint = first->file;
  report.restart_note += fmt::format("continuing from the {} pieces of step {} (t = {:.6g} s) written by {} processes",
                                     written, sim.step_count(), sim.time(), written);
  return sim.time();
}

// Whether the one-process checkpoints of this folder are at or after the manifest's step: a run of
// several processes continued here on one, which has written its own checkpoint since.
bool continued_on_one_process(const CheckpointFolder& checkpoints) {
  const auto newest = checkpoints.newest_readable();
  return newest && checkpoint_place(newest->image).step >= checkpoints.manifest_step();
}

// Moves the checkpoints of an earlier run in this folder aside (a fresh run), or (a restart)
// loads the newest readable checkpoint into the solver and the driver state. Returns the time the
// run resumes at, none for a fresh run or a restart that found no checkpoint.
template <int Dim>
std::optional<double> resume_or_start(Simulation<Dim>& sim, const SimulationSpec& spec, const RunOptions& options,
                                      const CheckpointFolder& checkpoints, DriverState& driver, RunReport& report) {
  if (!options.restart) {
    if (sim.process_rank() == 0) {
      std::error_code ignored;  // a manifest of an earlier run names checkpoints set aside below
      fs::remove(report.directory / "checkpoints" / "manifest.json", ignored);
    }
    on_any_process(sim, false);  // before any process sets its folder aside
    if (const int aside = checkpoints.set_aside_previous_run(); aside > 0)
      report.restart_note = fmt::format("moved {} checkpoint(s) of an earlier run in this folder to {}", aside,
                                        checkpoints.previous_path().string());
    return std::nullopt;
  }
  // Checkpoints of another process count: a solver that takes them (MPM; PD on two or more)
  // continues from the manifest's step, each process taking its share of the pieces
  // (docs/parallel.md). A one-process run writes no manifest, so once it has continued such a run
  // and written a checkpoint of its own, that newer checkpoint is the one to continue from.
  const int written = checkpoints.written_processes();
  if (written > 1 && written != sim.process_count() && sim.restores_any_process_count() &&
      !(sim.process_count() == 1 && continued_on_one_process(checkpoints)))
    return resume_from_pieces(sim, spec, checkpoints, written, driver, report);
  checkpoints.check_process_count();
  for (const fs::path& folder : {report.directory, report.directory / "frames", checkpoints.path()})
    remove_interrupted_writes(folder);
  std::vector<std::string> skipped;
  auto loaded = checkpoints.newest_readable(&skipped);
  for (const std::string& why : skipped) report.restart_note += fmt::format("skipped {}\n", why);
  if (sim.process_count() > 1) {
    // Every process continues from the same step: the newest that every one can read (each keeps
    // its two newest, so one torn by a kill leaves the one before on every process).
    double newest = loaded ? -static_cast<double>(checkpoint_place(loaded->image).step) : 1.0;
    sim.max_over_processes(std::span<double>(&newest, 1));
    const long step = static_cast<long>(-newest);
    if (newest > 0.0) {
      loaded.reset();  // some process has none: all start from t = 0
    } else if (loaded && checkpoint_place(loaded->image).step != step) {
      loaded = checkpoints.readable_at(step);
    }
    if (on_any_process(sim, newest <= 0.0 && !loaded))
      throw std::runtime_error(fmt::format("--restart: the checkpoints of step {} are not readable on every process",
                                           step));
  }
  if (!loaded) {
    report.restart_note += fmt::format("no checkpoint in {}: starting from t = 0", checkpoints.path().string());
    return std::nullopt;
  }
  // Newer files than the one loaded did not read whole: remove them, or they would stay the
  // "newest" and push readable ones out of the folder's keep-two rule.
  for (const fs::path& newer : checkpoints.files()) {
    if (newer == loaded->file) break;
    std::error_code ignored;
    fs::remove(newer, ignored);
  }
  restore_checkpoint(loaded->image, spec, sim, driver);
  report.checkpoint = loaded->file;
  report.restart_note += fmt::format("continuing from {} (step {}, t = {:.6g} s)", loaded->file.string(),
                                     sim.step_count(), sim.time());
  return sim.time();
}

// The time loop: steps the solver to time.end and writes outputs, snapshots and checkpoints on
// their cadence; stops on a stop signal (checkpoint first) and, when a guard trips, rewinds to the
// last good step and writes it.
template <int Dim>
class TimeLoop {
 public:
  TimeLoop(Simulation<Dim>& sim, const SimulationSpec& spec, const RunOptions& options,
           const CheckpointFolder& checkpoints, OutputFolder<Dim>& output, DriverState& driver, RunReport& report,
           bool resumed)
      : sim_(sim),
        spec_(spec),
        options_(options),
        checkpoints_(checkpoints),
        output_(output),
        driver_(driver),
        report_(report),
        resumed_(resumed),
        end_(spec.time.end),
        every_(spec.output.every > 0.0 ? spec.output.every : spec.time.end / 100.0),
        checkpoint_every_(spec.output.checkpoint_every),
        wall_interval_(spec.output.checkpoint_wall.value_or(OutputSpec::kDefaultCheckpointWall)),
        last_checkpoint_step_(resumed ? sim.step_count() : -1),
        progress_(spec.time.end, options.progress) {}

  void run() {
    report_.exit_reason = "completed";
    try {
      if (!resumed_) write_output();
      sim_.check_health();
      good_step_ = sim_.step_count();
      take_snapshot();
      if (!resumed_) refuse_a_run_without_steps();
      bool stopped = false;
      // Half a step of slack so that round-off in the accumulated time does not add a step.
      while (sim_.time() < end_ - 0.5 * sim_.dt()) {
        if ((stopped = stop_if_asked())) break;
        advance_one_step();
        write_what_is_due();
        progress_.update(sim_.time(), sim_.step_count() - report_.first_step);
      }
      if (!stopped) {
        write_checkpoint();    // to extend the run later (a larger time.end)
        clear_stop_request();  // a signal during the last step: the run is complete anyway
      }
    } catch (const SimulationError& e) {
      write_last_good_state(e);
    }
    progress_.finish(sim_.time(), sim_.step_count() - report_.first_step);
  }

 private:
  // A fresh run that would take no step (time.end below half of the first step) did nothing:
  // refused, not "completed". The step size is checked first, so that a dt far above the
  // stability limit is named as such.
  void refuse_a_run_without_steps() {
    if (sim_.time() < end_ - 0.5 * sim_.dt()) return;
    check_time_step(sim_, spec_);
    throw SimulationError(sim_.step_count(), sim_.time(),
                          fmt::format("time.end = {} s is less than half of the first time step {:.4g} s: the "
                                      "run would take no step; lengthen time.end or lower time.dt or time.cfl",
                                      end_, sim_.dt()));
  }

  // A stop signal, or the step count of RunOptions::stop_after_steps: checkpoint, then stop.
  bool stop_if_asked() {
    int signal = stop_requested();
    const bool asked = options_.stop_after_steps && sim_.step_count() >= *options_.stop_after_steps;
    if (sim_.process_count() > 1) {  // a signal that reached one process stops them all
      double value = signal;
      sim_.max_over_processes(std::span<double>(&value, 1));
      signal = static_cast<int>(value);
    }
    if (signal == 0 && !asked) return false;
    write_checkpoint();
    report_.exit_reason =
        signal != 0 ? fmt::format("stopped by {} at step {}, t = {:.6g} s, after writing a checkpoint; continue "
                                  "with `tribo run DECK --restart {}`",
                                  signal_name(signal), sim_.step_count(), sim_.time(), report_.directory.string())
                    : fmt::format("stopped at step {} as asked", sim_.step_count());
    report_.exit_code = signal != 0 ? 128 + signal : 0;
    clear_stop_request();
    return true;
  }

  // One guarded step, and the external impulse it gave (the summary's momentum balance).
  void advance_one_step() {
    check_time_step(sim_, spec_);
    sim_.step();
    sim_.check_health();
    good_step_ = sim_.step_count();
    const Vec3 impulse = sim_.external_impulse();
    driver_.external_impulse += impulse;
    driver_.impulse_flux += impulse.norm();
  }

  // Output at multiples of output.every; a checkpoint at multiples of checkpoint_every or after
  // checkpoint_wall seconds of wall-clock time; otherwise a snapshot in memory at an output, at
  // most one per kSnapshotSteps steps.
  void write_what_is_due() {
    bool output_written = false;
    if (sim_.time() >= driver_.next_output * every_ - 0.5 * sim_.dt()) {
      driver_.next_output = next_multiple(driver_.next_output, every_, sim_.time(), 0.5 * sim_.dt());
      write_output();
      output_written = true;
    }
    const bool by_time =
        checkpoint_every_ && sim_.time() >= driver_.next_checkpoint * *checkpoint_every_ - 0.5 * sim_.dt();
    if (by_time)
      driver_.next_checkpoint = next_multiple(driver_.next_checkpoint, *checkpoint_every_, sim_.time(), 0.5 * sim_.dt());
    if (by_time || on_any_process(sim_, std::chrono::steady_clock::now() - last_checkpoint_wall_ >= wall_interval_)) {
      write_checkpoint();
    } else if (output_written && sim_.step_count() - snapshot_step_ >= kSnapshotSteps) {
      take_snapshot();
    }
  }

  // A guard tripped: the run ends with exit code 3, and the last step that passed the guards is
  // written as a history row, a frame and a checkpoint.
  void write_last_good_state(const SimulationError& e) {
    report_.exit_reason = e.what();
    report_.exit_code = 3;
    // A non-finite energy is found at an output: the last good state is the last output's, if
    // the snapshot to replay from is not past it (a checkpoint written since); otherwise the run
    // stops where it is, with the output written so far.
    if (energy_failed_) good_step_ = last_output_step_ >= snapshot_step_ ? last_output_step_ : -1;
    if (good_step_ < 0) return;  // the initial state failed: nothing good to write
    // A step failed the checks (good_step < step_count), or the step size did before it ran.
    if (sim_.step_count() != good_step_) rewind_to<Dim>(sim_, spec_, last_good_, good_step_);
    report_.last_good_step = sim_.step_count();
    report_.last_good_time = sim_.time();
    if (output_.last_time() != sim_.time()) write_output();
    write_checkpoint();
  }

  void write_output() {
    refuse_a_non_finite_energy();
    output_.write(sim_);
    driver_.frames = output_.frames();
    last_output_step_ = sim_.step_count();
  }

  // The health check tests positions and velocities every step; the energies, at each output
  // (collective: every process writes the output). A finite state can still give a non-finite
  // energy: a velocity whose square overflows, or a contact or material law that returned NaN
  // (a smoothed PD contact whose kernel cannot reach the other body, before the deck reader
  // refused it, wrote NaN strain energy rows for the rest of the run).
  void refuse_a_non_finite_energy() {
    const EnergyBreakdown e = sim_.energy();
    const std::pair<const char*, double> terms[] = {
        {"kinetic", e.kinetic}, {"strain", e.strain}, {"potential", e.potential}, {"frictional", e.frictional}};
    const auto bad = std::find_if(std::begin(terms), std::end(terms), [](const auto& t) { return !std::isfinite(t.second); });
    if (bad == std::end(terms)) return;
    const auto [name, value] = *bad;
    energy_failed_ = true;
    throw SimulationError(
        sim_.step_count(), sim_.time(),
        fmt::format("the {} energy is {} although every position and velocity is finite{}; the state is not "
                    "sound (a velocity whose square overflows, or a contact or material law that produced a "
                    "non-finite value)",
                    name, value,
                    last_output_step_ >= 0 ? fmt::format(" (the last output, at step {}, was sound)", last_output_step_)
                                           : std::string()));
  }

  void take_snapshot() {
    fill_checkpoint<Dim>(last_good_, spec_, sim_, driver_, fingerprint_);
    snapshot_step_ = sim_.step_count();
  }

  void write_checkpoint() {
    if (last_checkpoint_step_ == sim_.step_count()) return;
    take_snapshot();
    if (options_.write_checkpoints) {
      output_.sync();  // the history rows the checkpoint covers are on disk before it is
      report_.checkpoint = checkpoints_.write(last_good_, sim_.step_count());
      sim_.checkpoint_written();
      if (sim_.process_count() > 1) {
        on_any_process(sim_, false);  // every process's file is complete
        if (sim_.process_rank() == 0) checkpoints_.write_manifest(sim_.step_count(), sim_.time());
      }
    }
    last_checkpoint_step_ = sim_.step_count();
    last_checkpoint_wall_ = std::chrono::steady_clock::now();
  }

  Simulation<Dim>& sim_;
  const SimulationSpec& spec_;
  const RunOptions& options_;
  const CheckpointFolder& checkpoints_;
  OutputFolder<Dim>& output_;
  DriverState& driver_;
  RunReport& report_;
  const bool resumed_;
  const double end_;    // s
  const double every_;  // s between outputs
  // Checkpoints by wall-clock time (default every 10 minutes: what a restart may lose, whatever the
  // run's length; the old default of every 10% of the simulated time cost 11% of a PD cube run),
  // and by simulated time only when the deck gives checkpoint_every. Either way the state saved is
  // the solver's whole state at a step boundary, so a restart from any step is bitwise identical
  // to the uninterrupted run: the wall clock decides only which step that is.
  const std::optional<double> checkpoint_every_;
  const std::chrono::duration<double> wall_interval_;
  // The newest state known to pass the guards, in memory, taken at outputs (at most one per
  // kSnapshotSteps steps) and checkpoints: when a guard trips after a step, the solver replays
  // from it to the step before (rewind_to), and that state is written.
  // 50: a snapshot copies the whole state while the steps wait (the oblique disks write an output
  // every 20 steps: a snapshot at each cost 3% of their run on 2 threads, issue 17). Snapshots
  // come at outputs, so a guard that trips replays up to kSnapshotSteps plus an output interval.
  static constexpr long kSnapshotSteps = 50;
  const std::string fingerprint_ = deck_fingerprint(spec_);  // the same at every snapshot
  io::CheckpointImage last_good_;
  long snapshot_step_ = -1;
  long last_checkpoint_step_;
  std::chrono::steady_clock::time_point last_checkpoint_wall_ = std::chrono::steady_clock::now();
  long good_step_ = -1;  // the step whose state passed the guards last
  long last_output_step_ = -1;  // the step of the last output written (its energies finite)
  bool energy_failed_ = false;  // an output found a non-finite energy
  Progress progress_;
};

}  // namespace

template <int Dim>
RunReport run_solver(Simulation<Dim>& sim, const SimulationSpec& spec, const RunOptions& run_options) {
  if (run_options.threads > 0) omp_set_num_threads(run_options.threads);
  const int rank = sim.process_rank();
  RunReport report;
  report.processes = sim.process_count();
  // Several processes (docs/parallel.md): process 0 holds the folder, writes the history, the
  // PVD and the summary and shows progress; every process writes its piece of each frame and its
  // own checkpoints (CheckpointFolder).
  RunOptions options = run_options;
  if (report.processes > 1) {
    options.progress = options.progress && rank == 0;
  }
  report.directory = options.output_directory.value_or(fs::path(spec.output.directory));
  report.particles = total_particles(sim);
  // One run per output folder: taken before anything there is read or written, held to the end.
  // On several processes by process 0, and every process learns whether it could.
  std::optional<OutputLock> lock;
  std::string lock_error;
  try {
    if (rank == 0) lock.emplace(report.directory);
  } catch (const std::exception& e) {
    lock_error = e.what();
  }
  if (on_any_process(sim, !lock_error.empty()))
    throw std::runtime_error(rank == 0 ? lock_error : "process 0 could not take the output folder");
  // Frames and the .pvd written in the background while the steps go on (atomic_file.hpp);
  // finished before the summary and before the lock is released.
  io::DeferredWrites deferred_writes;
  const CheckpointFolder checkpoints(report.directory, 2, rank, report.processes);
  DriverState driver;
  driver.energy0 = sim.energy();
  driver.momentum0 = to_vec3<Dim>(total_momentum(sim));
  driver.momentum_abs0 = momentum_magnitude(sim);
  const std::optional<double> resume_at = resume_or_start(sim, spec, options, checkpoints, driver, report);
  report.first_step = sim.step_count();
  report.first_time = sim.time();

  OutputFolder<Dim> output(spec, report.directory, options.write_frames, resume_at,
                           static_cast<int>(driver.frames), rank, report.processes);
  on_any_process(sim, false);  // the frames folder exists (process 0 made it) before any piece
  const double mass = deformable_mass(sim);
  TimeLoop<Dim> loop(sim, spec, options, checkpoints, output, driver, report, resume_at.has_value());
  const auto start = std::chrono::steady_clock::now();
  loop.run();
  deferred_writes.finish();  // the run's wall time includes its last frame
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.steps = sim.step_count();
  report.simulated_time = sim.time();
  const long steps_run = report.steps - report.first_step;
  report.particle_updates_per_second =
      report.wall_seconds > 0.0 ? report.particles * static_cast<double>(steps_run) / report.wall_seconds : 0.0;
  if (report.processes > 1 && report.wall_seconds > 0.0) {
    double share = sim.communication_seconds() / report.wall_seconds;
    sim.max_over_processes(std::span<double>(&share, 1));
    report.communication_share = share;
  }
  if (report.exit_code == 0) measure_conservation(sim, spec, driver, mass, report);
  if (rank == 0) write_summary(report, spec, options, sim.dt(), output.frames());
  return report;
}

template RunReport run_solver<2>(Simulation<2>&, const SimulationSpec&, const RunOptions&);
template RunReport run_solver<3>(Simulation<3>&, const SimulationSpec&, const RunOptions&);

RunReport run_simulation(const SimulationSpec& spec, const RunOptions& options) {
  if (options.threads > 0) omp_set_num_threads(options.threads);
  const auto processes = options.one_process ? parallel::Communicator::single() : parallel::Communicator::world();
  if (spec.dimension == 2) return run_solver<2>(*make_solver<2>(spec, processes), spec, options);
  return run_solver<3>(*make_solver<3>(spec, processes), spec, options);
}

std::string format_report(const RunReport& r) {
  std::string s;
  s += fmt::format("  exit          {}\n", r.exit_reason);
  s += fmt::format("  steps         {} ({:.6g} s simulated)\n", r.steps, r.simulated_time);
  s += fmt::format("  wall time     {:.3f} s\n", r.wall_seconds);
  s += r.processes > 1 ? fmt::format("  particles     {} on {} processes\n", r.particles, r.processes)
                       : fmt::format("  particles     {}\n", r.particles);
  s += fmt::format("  speed         {:.4g} particle-updates/s ({:.1f} steps/s)\n", r.particle_updates_per_second,
                   r.wall_seconds > 0 ? r.steps / r.wall_seconds : 0.0);
  if (r.processes > 1)
    s += fmt::format("  exchanging    {:.1f}% of the wall time (the busiest process: halo sums, migration, waits)\n",
                     100.0 * r.communication_share);
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
