// The `tribo` command: run a deck, check a deck, run the built-in validation problems, or plot
// a run's output.
// Exit codes: 0 success, 1 usage or I/O error, 2 bad deck, 3 unstable run, 4 validation failed,
// 128 + N stopped by signal N (SIGINT 130, SIGTERM 143) after writing a checkpoint.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "tribo/app/plot_command.hpp"
#include "tribo/app/run_driver.hpp"
#include "tribo/app/signals.hpp"
#include "tribo/app/validation.hpp"
#include "tribo/core/error.hpp"
#include "tribo/io/deck_limits.hpp"
#include "tribo/io/deck_reader.hpp"
#include "tribo/parallel/communicator.hpp"

namespace {

std::string describe(const tribo::SimulationSpec& s) {
  return fmt::format("{}: {} {}D, {} material(s), {} body(ies), t_end = {} s", s.source_file,
                     s.method == tribo::Method::Mpm ? "MPM" : "PD", s.dimension, s.materials.size(),
                     s.bodies.size(), s.time.end);
}

}  // namespace

int main(int argc, char** argv) {
  // Started by mpirun on several processes: MPI runs for the whole program, `tribo run` runs the
  // deck across them (MPM; docs/parallel.md), and process 0 alone prints. MPI is started only
  // then: a plain `tribo` never initializes it.
  const int processes = tribo::parallel::launched_processes();
  std::optional<tribo::parallel::MpiSession> mpi;
  if (processes > 1) mpi.emplace(&argc, &argv);
  const bool speaks = tribo::parallel::launched_rank() == 0;
  CLI::App app{"Tribo: contact and friction between deformable bodies (MPM and peridynamics)"};
  app.require_subcommand(1);

  std::string deck;
  std::string output;
  int threads = 0;
  bool quiet = false;
  auto* run = app.add_subcommand("run", "Run a simulation deck");
  run->add_option("deck", deck, "deck file (YAML)")->required();
  run->add_option("--output,-o", output, "output folder (overrides output.directory)");
  run->add_option("--threads,-t", threads, "OpenMP threads (default: all)");
  run->add_flag("--quiet,-q", quiet, "no progress output");
  std::string restart;
  run->add_option("--restart", restart,
                  "continue the run whose output folder is DIR from its newest checkpoint (from the start "
                  "when it has none); output goes on in DIR")
      ->type_name("DIR");

  std::string check_deck;
  auto* check = app.add_subcommand("check", "Parse and validate a deck; exit 0 (valid) or 2");
  check->add_option("deck", check_deck, "deck file (YAML)")->required();

  std::string problem;
  auto* validate = app.add_subcommand("validate", "Run the built-in validation problems");
  validate->add_option("name", problem, "one problem (default: all)");
  validate->add_option("--threads,-t", threads, "OpenMP threads (default: all)");

  tribo::app::PlotOptions plot_options;
  auto* plot = app.add_subcommand(
      "plot", "Draw a run's history (and with --frames its particles) as PNG files in DIR/plots");
  plot->add_option("dir", plot_options.directory, "output folder of a tribo run")->required();
  plot->add_flag("--frames", plot_options.frames, "also snapshots of the particles, coloured by --field");
  plot->add_option("--field", plot_options.field, "what colours the particles (default velocity)")
      ->check(CLI::IsMember(tribo::app::plot_fields()));
  plot->add_option("--times", plot_options.times,
                   "snapshots at the frames nearest these times, s (comma-separated; implies --frames)")
      ->delimiter(',');
  auto* movie = plot->add_option("--movie", plot_options.movie,
                                 "also an animation of the run: gif (the default) or mp4 (needs ffmpeg)")
                    ->expected(0, 1)
                    ->check(CLI::IsMember({"gif", "mp4"}));

  // README: usage errors exit 1 (CLI11's own codes, 104-109, are not part of Tribo's contract);
  // --help and --version exit 0.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  const auto usage_error = [](const std::string& message) {
    fmt::print(stderr, "tribo: error: {}\n", message);
    return 1;
  };
  if (run->count("--output") > 0 && output.empty())
    return usage_error("--output needs a folder name, got an empty one");
  if (run->count("--restart") > 0 && restart.empty())
    return usage_error("--restart needs the folder of the run to continue, got an empty one");
  // More threads than any machine has cores only exhausts it (each OpenMP thread has a stack).
  constexpr int kMaxThreads = 1024;
  if (threads < 0 || threads > kMaxThreads)
    return usage_error(fmt::format("--threads must be in 0..{} (0: all cores), got {}", kMaxThreads, threads));

  if (processes > 1 && !*run && !*validate) {
    if (speaks)
      fmt::print(stderr, "tribo: error: only `tribo run` and `tribo validate` run on several processes (started on {})\n",
                 processes);
    return 1;
  }
  if (*plot) {
    if (movie->count() > 0 && plot_options.movie.empty()) plot_options.movie = "gif";  // bare --movie
    return tribo::app::run_plot(plot_options);
  }

  try {
    if (*check) {
      const tribo::SimulationSpec spec = tribo::io::read_deck(check_deck);
      fmt::print("{}\n", describe(spec));
      std::string source;
      const auto available = tribo::io::available_memory(&source);
      fmt::print("memory: {}{}\nvalid\n", tribo::io::estimate_resources(spec).describe(),
                 available ? fmt::format(" (of {} available, {})", tribo::io::format_bytes(*available), source) : "");
      return 0;
    }
    if (*run) {
      const tribo::SimulationSpec spec = tribo::io::read_deck(deck);
      tribo::app::RunOptions options;
      if (!output.empty()) options.output_directory = output;
      if (!restart.empty()) {
        namespace fs = std::filesystem;
        if (!output.empty() && fs::weakly_canonical(output) != fs::weakly_canonical(restart)) {
          fmt::print(stderr, "tribo: error: --restart {} continues in that folder; --output {} names another\n",
                     restart, output);
          return 1;
        }
        if (!fs::is_directory(restart)) {
          fmt::print(stderr, "tribo: error: --restart {}: no such folder\n", restart);
          return 1;
        }
        options.output_directory = restart;
        options.restart = true;
      }
      options.threads = threads;
      options.progress = !quiet;
      if (!quiet && speaks)
        fmt::print(stderr, "{}{}\n", describe(spec),
                   processes > 1 ? fmt::format(", on {} processes", processes) : std::string());
      const tribo::app::StopSignals stop_signals;
      const tribo::app::RunReport report = tribo::app::run_simulation(spec, options);
      if (!speaks) return report.exit_code;
      if (!report.restart_note.empty() && !quiet) fmt::print(stderr, "tribo: {}\n", report.restart_note);
      if (report.exit_code != 0) fmt::print(stderr, "tribo: run stopped: {}\n", report.exit_reason);
      fmt::print("{}", tribo::app::format_report(report));
      return report.exit_code;
    }
    if (*validate) {
      if (threads > 0) tribo::app::set_validation_threads(threads);
      // Under mpirun every process runs every problem (the MPM decks across the processes) and
      // process 0 alone prints the table.
      std::ostringstream silent;
      std::ostream& out = speaks ? std::cout : static_cast<std::ostream&>(silent);
      if (processes > 1)
        out << fmt::format(
            "on {} processes: the decks run across them; MPM decks with slip: surface and the "
            "problems built in code run whole on every process (docs/parallel.md)\n",
            processes);
      return tribo::app::run_validation(problem, out) ? 0 : 4;
    }
  } catch (const tribo::DeckError& e) {  // every process read the same deck: one says so
    if (speaks) fmt::print(stderr, "tribo: error: {}\n", e.what());
    return 2;
  } catch (const tribo::SimulationError& e) {
    if (speaks) fmt::print(stderr, "tribo: run stopped: {}\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    if (speaks) fmt::print(stderr, "tribo: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
