#pragma once
// Runs a deck: builds the solver, steps it to time.end, writes frames, history, checkpoints and
// summary into the output folder of DESIGN.md, and reports progress. Restarts, guards and stop
// signals: docs/reliability.md.
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"

namespace tribo::app {

struct RunOptions {
  std::optional<std::filesystem::path> output_directory;  // overrides output.directory
  int threads = 0;                                        // 0 = OpenMP default
  bool progress = true;                                   // progress on stderr
  bool write_frames = true;                               // VTK frames (history is always written)
  bool write_checkpoints = true;                          // DIR/checkpoints at output.checkpoint_every
  // Continue from the newest readable checkpoint in the output folder (from t = 0 when there is
  // none): history.csv and run.pvd are cut back to its time and the run goes on from there.
  bool restart = false;
  // Stop as a stop signal would (checkpoint, then return) once the step count reaches this;
  // for tests of restarts. Exit code 0, exit_reason "stopped at step N as asked".
  std::optional<long> stop_after_steps;
  // Run on this process alone even when mpirun started several (each process then runs the whole
  // deck into its own folder): `tribo validate` does so for decks that cannot run across processes.
  bool one_process = false;
};

struct RunReport {
  std::filesystem::path directory;
  long steps = 0;
  long particles = 0;                  // of the whole run (every process's)
  int processes = 1;                   // MPI processes of the run (docs/parallel.md)
  // Several processes: the largest share of the wall time any process spent exchanging with the
  // others (halo sums, migration, waits included); 0 on one process.
  double communication_share = 0.0;
  double simulated_time = 0.0;         // s
  double wall_seconds = 0.0;
  double particle_updates_per_second = 0.0;
  double energy_error = 0.0;           // |E_total(end) - E_total(0)| / max(E scale)
  double momentum_error = 0.0;         // |P(end) - P(0) - impulse of gravity| / max|P| scale (old figure)
  // |P(end) - P(0) - external impulse| / momentum_balance_scale (docs/reliability.md); NaN when
  // the solver does not record its external impulse.
  double momentum_balance = std::numeric_limits<double>::quiet_NaN();
  double momentum_balance_scale = 0.0;  // N s
  std::string exit_reason;             // "completed", the SimulationError message, or the stop
  int exit_code = 0;                   // 0 completed, 3 unstable, 128 + N stopped by signal N
  long first_step = 0;                 // the step this run started from (> 0 after a restart)
  double first_time = 0.0;             // s
  std::string restart_note;            // where a restart continued from, and checkpoints skipped
  // After a guard stopped the run: the last step whose state passed the checks, at which the last
  // history row, frame and checkpoint were written; -1 when the initial state already failed.
  long last_good_step = -1;
  double last_good_time = 0.0;         // s
  std::filesystem::path checkpoint;    // the last checkpoint written, empty if none
};

// Runs to completion, to the first SimulationError (reported, not thrown: the output written so
// far stays, and the last good step's state is written as a history row, a frame and a
// checkpoint), or to a stop signal (app/signals.hpp; a checkpoint is written first). Guards,
// checked every step: the state is finite and inside the domain (Simulation::check_health) and
// dt is within Simulation::time_step_limit(). DeckError from setting up is thrown;
// std::runtime_error for output that cannot be written and for a restart from a checkpoint of
// another deck.
RunReport run_simulation(const SimulationSpec& spec, const RunOptions& options);

// The same time loop for a solver built by the caller from `spec` (tests drive it with solvers
// of their own; checkpoints need the solver's save_state/restore_state).
template <int Dim>
RunReport run_solver(Simulation<Dim>& solver, const SimulationSpec& spec, const RunOptions& options);

// The summary printed at the end of `tribo run`.
std::string format_report(const RunReport& report);

}  // namespace tribo::app
