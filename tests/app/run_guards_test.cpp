// The run's guards (docs/reliability.md): a non-finite value, a time step above the stability
// limit, or a particle leaving the grid stops the run with exit code 3, a message naming the step,
// time, particle and likely cause, and the history, a frame and a checkpoint of the last good step.
// Stop signals: the run stops between steps after a checkpoint.
#include <unistd.h>  // getpid: one folder per test process (worktrees run ctest at once)
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <regex>
#include <string>

#include "tribo/app/checkpoint.hpp"
#include "tribo/app/run_driver.hpp"
#include "tribo/app/signals.hpp"
#include "tribo/core/error.hpp"
#include "tribo/io/atomic_file.hpp"
#include "tribo/io/checkpoint_file.hpp"
#include "tribo/io/deck_reader.hpp"
#include "tribo/io/history.hpp"
#include "tribo/io/pvd_writer.hpp"

namespace tribo::app {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tribo-guard-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

RunOptions quiet(const fs::path& dir) {
  RunOptions o;
  o.output_directory = dir;
  o.progress = false;
  o.threads = 1;
  return o;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

long step_of_message(const std::string& message) {
  std::smatch m;
  if (!std::regex_search(message, m, std::regex(R"(^step ([0-9]+), t = )"))) return -1;
  return std::stol(m[1].str());
}

// The last good state was written: the last history row and the last frame are at its time, and
// the newest checkpoint is of its step.
void expect_last_good_state_written(const fs::path& dir, const RunReport& r) {
  ASSERT_GE(r.last_good_step, 0);
  const auto rows = io::read_history_csv(dir / "history.csv");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.back()[0], r.last_good_time);
  const auto entries = io::read_pvd(dir / "run.pvd");
  ASSERT_FALSE(entries.empty());
  EXPECT_EQ(entries.back().time, r.last_good_time);
  const auto files = CheckpointFolder(dir).files();
  ASSERT_FALSE(files.empty());
  const CheckpointPlace place = checkpoint_place(io::read_checkpoint(files[0]));
  EXPECT_EQ(place.step, r.last_good_step);
  EXPECT_EQ(place.time, r.last_good_time);
  const std::string summary = io::read_file(dir / "summary.json");
  EXPECT_TRUE(contains(summary, "\"exit_code\": 3")) << summary;
  EXPECT_TRUE(contains(summary, "\"last_good_state\"")) << summary;
}

// A block moving fast toward the right edge of the grid; nothing stops it.
constexpr const char* kLeavingDeck = R"(
method: mpm
dimension: 2
time: {end: 0.01, cfl: 0.4}
materials:
  - {name: block, model: linear-elastic, density: 1000, youngs_modulus: 1.0e6, poisson_ratio: 0.3}
bodies:
  - {name: block, material: block, geometry: {box: {min: [0.06, 0.02], max: [0.08, 0.04]}}, velocity: [20, 0]}
mpm:
  grid: {min: [0, 0], max: [0.1, 0.06], cell: 0.0025}
output:
  every: 0.0002
  history:
    - {quantity: centroid, body: block}
)";

TEST(RunGuards, AParticleLeavingTheGridStopsTheRunAfterWritingTheStepBefore) {
  const SimulationSpec spec = io::parse_deck(kLeavingDeck, "leaving.yaml");
  const fs::path dir = scratch("leaving");
  const RunReport r = run_simulation(spec, quiet(dir));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(contains(r.exit_reason, "left the grid")) << r.exit_reason;
  EXPECT_TRUE(contains(r.exit_reason, "particle ")) << r.exit_reason;
  EXPECT_TRUE(contains(r.exit_reason, "body 'block'")) << r.exit_reason;
  EXPECT_TRUE(contains(r.exit_reason, "enlarge mpm.grid")) << r.exit_reason;
  // The leading edge at x = 0.08 reaches the grid's edge 0.1 after 0.02 / 20 = 1 ms.
  const long failed = step_of_message(r.exit_reason);
  ASSERT_GT(failed, 0) << r.exit_reason;
  EXPECT_NEAR(r.simulated_time, 1e-3, 2.0 * r.simulated_time / r.steps);
  EXPECT_EQ(r.last_good_step, failed - 1);
  expect_last_good_state_written(dir, r);

  // The checkpoint of the last good step restarts into the same failure at the same step.
  RunOptions again = quiet(dir);
  again.restart = true;
  const RunReport r2 = run_simulation(spec, again);
  EXPECT_EQ(r2.first_step, failed - 1);
  EXPECT_EQ(r2.exit_code, 3);
  EXPECT_EQ(r2.exit_reason, r.exit_reason);
  fs::remove_all(dir);
}

TEST(RunGuards, AnMpmTimeStepAboveTheCflLimitStopsTheRunBeforeTheFirstStep) {
  SimulationSpec spec = io::parse_deck(kLeavingDeck, "dt.yaml");
  spec.bodies[0].velocity = Vec3::Zero();
  // Limit: cell / c with c = sqrt((lambda + 2 mu) / rho) = 36.7 m/s for E = 1 MPa, nu = 0.3,
  // rho = 1000: 6.8e-5 s. Twice that is above it.
  spec.time.cfl.reset();
  spec.time.dt = 1.4e-4;
  const fs::path dir = scratch("dt-mpm");
  const RunReport r = run_simulation(spec, quiet(dir));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(contains(r.exit_reason, "step 0, t = 0 s")) << r.exit_reason;
  EXPECT_TRUE(contains(r.exit_reason, "above the stability limit 6.8")) << r.exit_reason;
  EXPECT_TRUE(contains(r.exit_reason, "time.dt")) << r.exit_reason;
  EXPECT_EQ(r.last_good_step, 0);
  expect_last_good_state_written(dir, r);
  fs::remove_all(dir);
}

TEST(RunGuards, APdTimeStepAboveTheSillingAskariLimitStopsTheRun) {
  constexpr const char* pd_deck = R"(
method: pd
dimension: 2
thickness: 0.001
time: {end: 1.0e-5, dt: 1.0e-6}
materials:
  - {name: plate, model: pmb, density: 2000, youngs_modulus: 1.0e9, poisson_ratio: 0.3333333333}
bodies:
  - {name: plate, material: plate, geometry: {box: {min: [0, 0], max: [0.005, 0.005]}}}
pd: {spacing: 0.0005}
)";
  const SimulationSpec spec = io::parse_deck(pd_deck, "pd_dt.yaml");
  const fs::path dir = scratch("dt-pd");
  const RunReport r = run_simulation(spec, quiet(dir));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(contains(r.exit_reason, "Silling & Askari")) << r.exit_reason;
  EXPECT_TRUE(contains(r.exit_reason, "time step 1e-06 s is above")) << r.exit_reason;
  expect_last_good_state_written(dir, r);
  fs::remove_all(dir);
}

// A one-particle solver whose velocity turns NaN at a chosen step, as a blow-up would: the driver
// must replay from its last snapshot to the step before, which this solver counts.
class BlowUp final : public Simulation<2> {
 public:
  // energy_bad: the step from which energy() gives a NaN strain energy, the state staying finite.
  BlowUp(const SimulationSpec& spec, long bad_step, long energy_bad = -1)
      : spec_(spec), bad_step_(bad_step), energy_bad_(energy_bad) {
    p_.push_back(Vec2(0.5, 0.5), Vec2(1.0, 0.0), 1.0, 1e-4, 0, 0);
  }
  void step() override {
    p_.position[0] += dt_ * p_.velocity[0];
    ++steps_;
    time_ += dt_;
    if (steps_ == bad_step_) p_.velocity[0].x() = std::numeric_limits<double>::quiet_NaN();
  }
  double time() const override { return time_; }
  long step_count() const override { return steps_; }
  double dt() const override { return dt_; }
  const Particles<2>& particles() const override { return p_; }
  const SimulationSpec& spec() const override { return spec_; }
  EnergyBreakdown energy() const override {
    EnergyBreakdown e;
    if (energy_bad_ >= 0 && steps_ >= energy_bad_) e.strain = std::numeric_limits<double>::quiet_NaN();
    return e;
  }
  Vec3 contact_force(int, int) const override { return Vec3::Zero(); }
  void check_health() const override {
    if (!p_.velocity[0].allFinite())
      throw SimulationError(steps_, time_, "particle 0 of body 'dot' has a non-finite velocity");
  }
  void save_state(StateWriter& out) const override {
    out.write_array("fake.position", p_.position);
    out.write_array("fake.velocity", p_.velocity);
    out.write_value("fake.steps", steps_);
    out.write_value("fake.time", time_);
  }
  void restore_state(const StateReader& in) override {
    in.read_array_of_size("fake.position", p_.position);
    in.read_array_of_size("fake.velocity", p_.velocity);
    in.read_value("fake.steps", steps_);
    in.read_value("fake.time", time_);
    ++restores;
  }
  int restores = 0;

 private:
  SimulationSpec spec_;
  Particles<2> p_;
  long bad_step_;
  long energy_bad_;
  double dt_ = 0.001;
  double time_ = 0.0;
  long steps_ = 0;
};

// The last history row holds the dot's state at `step`: x = 0.5 + step dt (it moves at 1 m/s).
void expect_last_row_at_step(const fs::path& dir, long step) {
  const auto rows = io::read_history_csv(dir / "history.csv");
  ASSERT_FALSE(rows.empty());
  EXPECT_NEAR(rows.back()[1], 0.5 + 0.001 * static_cast<double>(step), 1e-12);
}

SimulationSpec dot_spec() {
  SimulationSpec spec;
  spec.method = Method::Mpm;
  spec.time.end = 1.0;
  spec.time.dt = 0.001;
  MaterialSpec m;
  m.name = "dot";
  m.density = 1.0;
  m.youngs_modulus = 1.0;
  spec.materials.push_back(m);
  BodySpec b;
  b.name = "dot";
  b.material = "dot";
  b.material_index = 0;
  spec.bodies.push_back(b);
  spec.output.every = 0.1;  // an output every 100 steps
  spec.output.fields = {"velocity"};
  HistorySpec h;
  h.quantity = HistoryQuantity::Centroid;
  h.body = "dot";
  spec.output.history.push_back(h);
  return spec;
}

TEST(RunGuards, ANonFiniteValueStopsTheRunAndTheStepBeforeIsRebuiltAndWritten) {
  const SimulationSpec spec = dot_spec();
  BlowUp solver(spec, 457);
  const fs::path dir = scratch("nan");
  const RunReport r = run_solver<2>(solver, spec, quiet(dir));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(contains(r.exit_reason, "step 457, t = 0.457 s: particle 0 of body 'dot'")) << r.exit_reason;
  EXPECT_EQ(r.last_good_step, 456);
  EXPECT_EQ(solver.restores, 1);  // replayed from the snapshot of the output at step 400
  expect_last_good_state_written(dir, r);
  expect_last_row_at_step(dir, 456);
  fs::remove_all(dir);
}

// The energies are checked at each output: a NaN strain energy from step 457 on (positions and
// velocities finite) is found at the output of step 500; the run stops with exit code 3 naming
// it, and the last good state is the output before, step 400, replayed from its snapshot.
TEST(RunGuards, ANonFiniteEnergyAtAnOutputStopsTheRunAtTheOutputBefore) {
  const SimulationSpec spec = dot_spec();
  BlowUp solver(spec, -1, 457);
  const fs::path dir = scratch("nan-energy");
  const RunReport r = run_solver<2>(solver, spec, quiet(dir));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(contains(r.exit_reason, "step 500, t = 0.5 s: the strain energy is nan")) << r.exit_reason;
  EXPECT_TRUE(contains(r.exit_reason, "the last output, at step 400, was sound")) << r.exit_reason;
  EXPECT_EQ(r.last_good_step, 400);
  expect_last_good_state_written(dir, r);
  expect_last_row_at_step(dir, 400);
  fs::remove_all(dir);
}

// The same in the initial state: nothing good to write, no history row.
TEST(RunGuards, ANonFiniteEnergyInTheInitialStateStopsTheRunBeforeAnyOutput) {
  const SimulationSpec spec = dot_spec();
  BlowUp solver(spec, -1, 0);
  const fs::path dir = scratch("nan-energy-0");
  const RunReport r = run_solver<2>(solver, spec, quiet(dir));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(contains(r.exit_reason, "step 0, t = 0 s: the strain energy is nan")) << r.exit_reason;
  EXPECT_EQ(r.last_good_step, -1);
  EXPECT_FALSE(fs::exists(dir / "history.csv"));
  fs::remove_all(dir);
}

TEST(StopSignals, ASignalOnlyRaisesTheFlagWhileInstalled) {
  clear_stop_request();
  struct sigaction before {};
  sigaction(SIGTERM, nullptr, &before);
  {
    const StopSignals installed;
    std::raise(SIGTERM);  // would end the test program without the handler
    EXPECT_EQ(stop_requested(), SIGTERM);
  }
  struct sigaction after {};
  sigaction(SIGTERM, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
  clear_stop_request();
  EXPECT_EQ(stop_requested(), 0);
}

TEST(StopSignals, ARunStopsAfterACheckpointAndARestartFinishesIt) {
  const SimulationSpec spec = io::parse_deck(kLeavingDeck, "stop.yaml");
  SimulationSpec calm = spec;
  calm.bodies[0].velocity = Vec3::Zero();
  calm.time.end = 0.002;
  const fs::path straight = scratch("signal-straight");
  run_simulation(calm, quiet(straight));

  const fs::path dir = scratch("signal");
  request_stop(SIGINT);  // as if Ctrl-C came before the first step
  const RunReport stopped = run_simulation(calm, quiet(dir));
  EXPECT_EQ(stopped.exit_code, 128 + SIGINT);
  EXPECT_TRUE(contains(stopped.exit_reason, "stopped by SIGINT at step 0")) << stopped.exit_reason;
  EXPECT_EQ(stop_requested(), 0);  // handled
  ASSERT_EQ(CheckpointFolder(dir).files().size(), 1u);

  RunOptions o = quiet(dir);
  o.restart = true;
  const RunReport finished = run_simulation(calm, o);
  EXPECT_EQ(finished.exit_code, 0) << finished.exit_reason;
  EXPECT_EQ(io::read_file(straight / "history.csv"), io::read_file(dir / "history.csv"));
  fs::remove_all(straight);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tribo::app
