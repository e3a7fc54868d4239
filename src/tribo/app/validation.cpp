#include <fmt/format.h>
#include <omp.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "tribo/app/validation.hpp"
#include "tribo/app/validation_problem.hpp"
#include "tribo/io/deck_reader.hpp"

#ifndef TRIBO_SOURCE_DIR
#define TRIBO_SOURCE_DIR "."
#endif

namespace tribo::app {

ValidationRow compare_relative(const std::string& problem, const std::string& quantity, double reference,
                               double result, double tolerance) {
  ValidationRow row{problem, quantity, reference, result, 0.0, tolerance, false, false};
  row.error = std::abs(result - reference) / std::max(std::abs(reference), 1e-300);
  row.pass = row.error <= tolerance;
  return row;
}

ValidationRow compare_absolute(const std::string& problem, const std::string& quantity, double reference,
                               double result, double tolerance) {
  ValidationRow row{problem, quantity, reference, result, 0.0, tolerance, true, false};
  row.error = std::abs(result - reference);
  row.pass = row.error <= tolerance;
  return row;
}

// The direction of gravity is fixed during the ramp, so a sliding block's acceleration is a times
// the ramp factor t / ramp; integrated twice from rest.
double ramped_travel(double a, double t, double ramp) {
  if (!(ramp > 0.0)) return 0.5 * a * t * t;
  if (t <= ramp) return a * t * t * t / (6.0 * ramp);
  return a * (0.5 * t * t - 0.5 * ramp * t + ramp * ramp / 6.0);
}

const std::vector<ValidationProblem>& validation_problems() {
  static const std::vector<ValidationProblem> problems = [] {
    std::vector<ValidationProblem> p;
    add_mpm_validation_problems(p);
    add_pd_validation_problems(p);
    return p;
  }();
  return problems;
}

namespace {
const ValidationProblem& find_problem(const std::string& name) {
  std::string known;
  for (const ValidationProblem& p : validation_problems()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw std::invalid_argument(fmt::format("unknown validation problem '{}' (known: {})", name, known));
}
}  // namespace

std::vector<ValidationRow> run_validation_problem(const std::string& name) {
  return find_problem(name).run();
}

std::vector<ValidationRow> run_validation_problem_ctest(const std::string& name) {
  const ValidationProblem& p = find_problem(name);
  return p.run_ctest ? p.run_ctest() : p.run();
}

std::filesystem::path examples_directory() {
  if (const char* env = std::getenv("TRIBO_EXAMPLES")) return env;
  return std::filesystem::path(TRIBO_SOURCE_DIR) / "examples";
}

SimulationSpec load_example(const std::string& name) { return io::read_deck(examples_directory() / name); }

void set_validation_threads(int threads) { omp_set_num_threads(threads); }

bool run_validation(const std::string& name, std::ostream& out) {
  std::vector<ValidationRow> rows;
  if (name.empty()) {
    for (const ValidationProblem& p : validation_problems()) {
      out << fmt::format("running {} ...\n", p.name) << std::flush;
      for (ValidationRow& r : p.run()) rows.push_back(std::move(r));
    }
  } else {
    rows = run_validation_problem(name);
  }
  bool all = true;
  out << fmt::format("\n{:<24} {:<36} {:>13} {:>13} {:>10} {:>10}  {}\n", "problem", "quantity", "reference",
                     "result", "error", "tolerance", "pass");
  for (const ValidationRow& r : rows) {
    out << fmt::format("{:<24} {:<36} {:>13.6g} {:>13.6g} {:>10.3g} {:>10.3g}  {}\n", r.problem, r.quantity,
                       r.reference, r.result, r.error, r.tolerance, r.pass ? "yes" : "NO");
    all = all && r.pass;
  }
  out << (all ? "all passed\n" : "SOME FAILED\n");
  return all;
}

}  // namespace tribo::app
