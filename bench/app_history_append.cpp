// Output cost per history row over a long run (issue 17): history.csv used to be rewritten whole
// at every row, so the cost of a row grew with the rows before it. This appends 10^6 rows of a
// typical width (time plus 12 values: two centroids and two velocities in 3D) to one file, as a
// 10^6-step run with output every step does, and reports the mean cost of a row over the first
// and the last 10% of the rows, and their ratio (1 = flat).
// Counters: ns_per_row_first10, ns_per_row_last10, last_over_first, rows.
// TRIBO_BENCH_HISTORY_ROWS overrides the row count (default 1e6).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tribo/io/history.hpp"

namespace {

namespace fs = std::filesystem;

long row_count() {
  const char* text = std::getenv("TRIBO_BENCH_HISTORY_ROWS");
  const long rows = text ? std::atol(text) : 1000000;
  return rows >= 10 ? rows : 1000000;
}

void BM_HistoryAppend(benchmark::State& state) {
  const long rows = row_count();
  const long tenth = rows / 10;
  std::vector<std::string> columns = {"time"};
  for (const char* stem : {"centroid.a", "centroid.b", "velocity.a", "velocity.b"})
    for (const char* axis : {"x", "y", "z"}) columns.push_back(std::string(stem) + "." + axis);
  const fs::path folder = fs::temp_directory_path() / ("tribo-bench-history." + std::to_string(::getpid()));
  fs::create_directories(folder);
  std::vector<double> row(columns.size());
  double first = 0.0, last = 0.0;
  for (auto _ : state) {
    fs::remove(folder / "history.csv");
    tribo::io::HistoryCsv csv(folder / "history.csv", columns);
    using clock = std::chrono::steady_clock;
    clock::time_point mark = clock::now();
    for (long r = 0; r < rows; ++r) {
      // Values with full-length decimals, as a simulation's are (not round numbers).
      const double t = 1e-7 * static_cast<double>(r) + 1e-9 / 3.0;
      row[0] = t;
      for (std::size_t c = 1; c < row.size(); ++c) row[c] = 0.01 * static_cast<double>(c) + t / 7.0;
      csv.append(row);
      if (r + 1 == tenth) first = std::chrono::duration<double, std::nano>(clock::now() - mark).count();
      if (r + 1 == rows - tenth) mark = clock::now();
    }
    last = std::chrono::duration<double, std::nano>(clock::now() - mark).count();
  }
  fs::remove_all(folder);
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["ns_per_row_first10"] = first / static_cast<double>(tenth);
  state.counters["ns_per_row_last10"] = last / static_cast<double>(tenth);
  state.counters["last_over_first"] = last / first;
}

BENCHMARK(BM_HistoryAppend)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
