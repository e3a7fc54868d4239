#pragma once
// Runs a deck: builds the solver, steps it to time.end, writes frames, history and summary into
// the output folder of DESIGN.md, and reports progress.
#include <filesystem>
#include <optional>
#include <string>

#include "tribo/core/simulation_spec.hpp"

namespace tribo::app {

struct RunOptions {
  std::optional<std::filesystem::path> output_directory;  // overrides output.directory
  int threads = 0;                                        // 0 = OpenMP default
  bool progress = true;                                   // progress on stderr
  bool write_frames = true;                               // VTK frames (history is always written)
};

struct RunReport {
  std::filesystem::path directory;
  long steps = 0;
  long particles = 0;
  double simulated_time = 0.0;         // s
  double wall_seconds = 0.0;
  double particle_updates_per_second = 0.0;
  double energy_error = 0.0;           // |E_total(end) - E_total(0)| / max(E scale)
  double momentum_error = 0.0;         // |P(end) - P(0) - impulse of gravity| / max|P| scale
  std::string exit_reason;             // "completed" or the SimulationError message
  int exit_code = 0;                   // 0 completed, 3 unstable
};

// Runs to completion or to the first SimulationError (reported, not thrown: the output written so
// far stays). DeckError from setting up is thrown.
RunReport run_simulation(const SimulationSpec& spec, const RunOptions& options);

// The summary printed at the end of `tribo run`.
std::string format_report(const RunReport& report);

}  // namespace tribo::app
