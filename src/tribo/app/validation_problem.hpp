#pragma once
// The built-in validation problems behind `tribo validate` and the validation tests: each runs a
// deck of examples/ (or a problem built in code) and compares a measured quantity with its
// analytic or published reference.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tribo/core/simulation_spec.hpp"

namespace tribo::app {

struct ValidationRow {
  std::string problem;
  std::string quantity;
  double reference = 0.0;
  double result = 0.0;
  double error = 0.0;      // relative, or absolute when `absolute` is set
  double tolerance = 0.0;
  bool absolute = false;
  bool pass = false;
};

// Relative comparison |result - reference| / |reference| <= tolerance.
ValidationRow compare_relative(const std::string& problem, const std::string& quantity, double reference,
                               double result, double tolerance);
// Absolute comparison |result - reference| <= tolerance (for quantities whose reference is 0).
ValidationRow compare_absolute(const std::string& problem, const std::string& quantity, double reference,
                               double result, double tolerance);

struct ValidationProblem {
  std::string name;
  std::string description;
  std::function<std::vector<ValidationRow>()> run;
  // The same checks at a size CI affords (shorter or coarser), for ctest; empty = `run`.
  std::function<std::vector<ValidationRow>()> run_ctest = {};
};

// Every problem, MPM first, then PD.
const std::vector<ValidationProblem>& validation_problems();
// Runs one problem by name; throws std::invalid_argument naming the known problems when unknown.
std::vector<ValidationRow> run_validation_problem(const std::string& name);
// The same at the problem's ctest size (ValidationProblem::run_ctest).
std::vector<ValidationRow> run_validation_problem_ctest(const std::string& name);

// The examples folder (TRIBO_EXAMPLES in the environment, else the source tree's examples/).
std::filesystem::path examples_directory();
// Reads examples/NAME, for validation runs.
SimulationSpec load_example(const std::string& name);

// A deck's history, run into a scratch folder without VTK frames.
struct History {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  SimulationSpec spec;

  std::vector<double> column(const std::string& name) const;
};
// Runs examples/DECK (after `change`, when given) and reads its history.csv (validation_mpm.cpp).
History run_example(const std::string& deck, const std::function<void(SimulationSpec&)>& change = {});

// Travel in time t of a block sliding at acceleration a once gravity is fully on, when gravity rises
// linearly over `ramp` seconds (0: at once): a t^3 / (6 ramp) during the ramp, then
// a (t^2 / 2 - ramp t / 2 + ramp^2 / 6) (the deck key gravity_ramp).
double ramped_travel(double a, double t, double ramp);

// Issue 15: the block of DECK (MPM or PD) launched on a flat floor under velocity-weakening
// friction slows down as the closed form t(v) says (validation_velocity_weakening.cpp).
std::vector<ValidationRow> velocity_weakening_slowdown(const std::string& deck, const std::string& problem);

// Problems by method, registered in validation_problems().
void add_mpm_validation_problems(std::vector<ValidationProblem>& problems);
void add_pd_validation_problems(std::vector<ValidationProblem>& problems);

}  // namespace tribo::app
