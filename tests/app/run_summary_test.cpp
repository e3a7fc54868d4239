// DIR/summary.json (app/run_summary.hpp): the keys of DESIGN.md's output folder, in their order,
// doubles that read back to the same bits, non-finite figures as null, optional sections only
// when they apply.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tribo/app/run_summary.hpp"

#include "../support/scratch_folder.hpp"

namespace tribo::app {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using test_support::ScratchFolder;

Json written_summary(const RunReport& report, const RunOptions& options) {
  SimulationSpec spec;
  spec.title = "summary \"test\"\n";
  spec.method = Method::Pd;
  spec.dimension = 3;
  write_summary(report, spec, options, 0.1 + 0.2, 7);
  std::ifstream in(report.directory / "summary.json");
  return Json::parse(in);
}

std::vector<std::string> keys(const Json& object) {
  std::vector<std::string> out;
  for (const auto& item : object.items()) out.push_back(item.key());
  return out;
}

TEST(RunSummary, CompletedRunHasTheContractKeysInOrder) {
  const ScratchFolder folder;
  RunReport report;
  report.directory = folder.path;
  report.particles = 12;
  report.steps = 345;
  report.simulated_time = 1.0 / 3.0;
  report.exit_reason = "completed";
  report.momentum_balance = 1e-13;
  report.momentum_balance_scale = 2.0;
  report.checkpoint = folder.path / "checkpoints" / "checkpoint_000000345.bin";
  const Json s = written_summary(report, RunOptions{});
  EXPECT_EQ(keys(s), (std::vector<std::string>{"title", "method", "dimension", "particles", "steps", "dt",
                                               "simulated_time", "wall_time", "particle_updates_per_second",
                                               "threads", "processes", "frames", "conservation", "exit_reason", "exit_code",
                                               "checkpoint"}));
  EXPECT_EQ(keys(s["conservation"]),
            (std::vector<std::string>{"energy_relative_error", "momentum_relative_error", "momentum_balance",
                                      "momentum_balance_scale", "note"}));
  EXPECT_EQ(s["title"], "summary \"test\"\n");
  EXPECT_EQ(s["method"], "pd");
  EXPECT_EQ(s["dt"].get<double>(), 0.1 + 0.2);  // exact: shortest round-trip decimal
  EXPECT_EQ(s["simulated_time"].get<double>(), 1.0 / 3.0);
  EXPECT_EQ(s["frames"], 7);
  EXPECT_EQ(s["checkpoint"], "checkpoints/checkpoint_000000345.bin");
  // Whole numbers as the summary always wrote them ("2", not "2.0"), as history.csv writes times.
  std::ifstream in(folder.path / "summary.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"momentum_balance_scale\": 2,\n"), std::string::npos) << text;
}

TEST(RunSummary, RestartAndLastGoodStateAppearWhenTheyApplyAndNaNIsNull) {
  const ScratchFolder folder;
  RunReport report;
  report.directory = folder.path;
  report.exit_code = 3;
  report.first_step = 40;
  report.first_time = 0.25;
  report.last_good_step = 99;
  report.last_good_time = 0.5;
  RunOptions options;
  options.restart = true;
  const Json s = written_summary(report, options);
  EXPECT_TRUE(s["conservation"]["momentum_balance"].is_null());  // NaN: the solver recorded no impulse
  EXPECT_EQ(s["restarted_from"]["step"], 40);
  EXPECT_EQ(s["restarted_from"]["time"].get<double>(), 0.25);
  EXPECT_EQ(s["last_good_state"]["step"], 99);
  EXPECT_FALSE(s.contains("checkpoint"));
}

}  // namespace
}  // namespace tribo::app
