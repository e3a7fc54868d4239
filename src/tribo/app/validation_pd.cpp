// Peridynamic validation problems: the comparison of the three PD friction models of issue 6
// (seed document 002; docs/pd-friction.md) on the decks of examples/. Rows that check a model
// against a reference have a finite tolerance; rows that measure what the seed says a model gets
// wrong (BFCM's mu_eff below mu, NFCM's spurious dissipation and angular momentum drift) have an
// infinite tolerance, and pass when the measurement shows the seed's claim.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "tribo/app/validation_problem.hpp"
#include "tribo/pd/friction_measurements.hpp"

namespace tribo::app {

namespace {

constexpr FrictionModel kModels[] = {FrictionModel::Objective, FrictionModel::Nfcm,
                                     FrictionModel::Bfcm};
constexpr double kReported = std::numeric_limits<double>::infinity();

const char* model_name(FrictionModel m) {
  switch (m) {
    case FrictionModel::Bfcm:
      return "bfcm";
    case FrictionModel::Nfcm:
      return "nfcm";
    case FrictionModel::Objective:
      return "objective";
    default:
      return "none";
  }
}

SimulationSpec with_model(SimulationSpec spec, FrictionModel m) {
  spec.pd.contact.friction_model = m;
  return spec;
}

// A measurement with the seed's claim about it as the pass condition.
ValidationRow claim(const std::string& problem, const std::string& quantity, double reference,
                    double result, bool holds) {
  ValidationRow row{problem, quantity, reference, result, 0.0, kReported, reference == 0.0, holds};
  row.error =
      reference == 0.0 ? std::abs(result) : std::abs(result - reference) / std::abs(reference);
  return row;
}

// Issue 6: mean tangential over normal contact force of a block dragged over a plate, mu = 0.3:
// NFCM and the objective model within 5% of mu; BFCM measured (the seed: below mu). Averaged over
// the last 4 lattice periods of the deck (4 h / v).
std::vector<ValidationRow> sliding_friction() {
  const SimulationSpec deck = load_example("pd-friction-slide.yaml");
  const double mu = deck.pd.contact.friction;
  const double speed = deck.bodies[deck.body_index("block")].velocity.x();
  const double from = deck.time.end - 4.0 * deck.pd.spacing / speed;
  std::vector<ValidationRow> rows;
  for (FrictionModel m : kModels) {
    const pd::SlidingFriction f =
        pd::measure_sliding_friction<2>(with_model(deck, m), "block", "plate", from);
    const std::string quantity = fmt::format("mu_eff at {:g} m/s, {}", speed, model_name(m));
    if (m == FrictionModel::Bfcm)
      rows.push_back(claim("pd-friction-slide", quantity + " (< mu)", mu, f.mu_eff, f.mu_eff < mu));
    else
      rows.push_back(compare_relative("pd-friction-slide", quantity, mu, f.mu_eff, 0.05));
  }
  return rows;
}

// Issue 6: two bodies in contact moved as one rigid body (a quarter turn at 20 rad/s plus a
// translation): the objective model and BFCM dissipate below 1e-8 of the kinetic energy; NFCM's
// spurious dissipation is measured (the seed: not objective, so above that).
std::vector<ValidationRow> objectivity() {
  const SimulationSpec deck = load_example("pd-corotation.yaml");
  constexpr double omega = 20.0;
  const double duration = 0.5 * std::numbers::pi / omega;
  std::vector<ValidationRow> rows;
  for (FrictionModel m : kModels) {
    const pd::RigidCorotation r =
        pd::measure_corotation_dissipation(with_model(deck, m), omega, Vec2(0.3, -0.2), duration);
    const double ratio = r.frictional_energy / r.kinetic_energy;
    const std::string quantity = fmt::format("E_fric / E_kin, {}", model_name(m));
    if (m == FrictionModel::Nfcm)
      rows.push_back(
          claim("pd-friction-objectivity", quantity + " (> 1e-8)", 0.0, ratio, ratio > 1e-8));
    else
      rows.push_back(compare_absolute("pd-friction-objectivity", quantity, 0.0, ratio, 1e-8));
  }
  return rows;
}

// Issue 6: free bodies in a sliding contact; total angular momentum drift below 1e-8 relative for
// BFCM and the objective model (exact in exact arithmetic: docs/pd-friction.md); NFCM's drift
// measured (the seed: not conserved).
std::vector<ValidationRow> angular_momentum() {
  const SimulationSpec deck = load_example("pd-glancing-disks.yaml");
  std::vector<ValidationRow> rows;
  for (FrictionModel m : kModels) {
    const pd::AngularMomentumDrift d = pd::measure_angular_momentum_drift<2>(with_model(deck, m));
    const std::string quantity = fmt::format("max |L - L0| / |L0|, {}", model_name(m));
    if (m == FrictionModel::Nfcm)
      rows.push_back(claim("pd-friction-angular-mom", quantity + " (> 1e-8)", 0.0,
                           d.max_relative_drift, d.max_relative_drift > 1e-8));
    else
      rows.push_back(
          compare_absolute("pd-friction-angular-mom", quantity, 0.0, d.max_relative_drift, 1e-8));
  }
  return rows;
}

// Issue 6: the block of examples/incline-pd.yaml travels 0.5 g (sin th - mu cos th) t^2 within
// 5% with the objective model (and NFCM); BFCM's lower mu_eff makes it travel farther.
std::vector<ValidationRow> incline() {
  const SimulationSpec deck = load_example("incline-pd.yaml");
  const double theta = std::atan2(deck.gravity.x(), -deck.gravity.y());
  const double g = deck.gravity.norm();
  const double mu = deck.pd.contact.friction;
  const double T = deck.time.end;
  const double reference = 0.5 * g * (std::sin(theta) - mu * std::cos(theta)) * T * T;
  std::vector<ValidationRow> rows;
  for (FrictionModel m : kModels) {
    const double travel = pd::measure_centroid_travel<2>(with_model(deck, m), "block");
    const std::string quantity = fmt::format("travel at t = {:g} s (m), {}", T, model_name(m));
    if (m == FrictionModel::Bfcm)
      rows.push_back(
          claim("pd-incline", quantity + " (> ref)", reference, travel, travel > reference));
    else
      rows.push_back(compare_relative("pd-incline", quantity, reference, travel, 0.05));
  }
  return rows;
}

}  // namespace

void add_pd_validation_problems(std::vector<ValidationProblem>& problems) {
  problems.push_back({"pd-friction-slide",
                      "PD block dragged over a plate: mu_eff of the friction models, mu = 0.3",
                      sliding_friction});
  problems.push_back({"pd-friction-objectivity",
                      "PD bodies in contact co-rotating rigidly: friction must dissipate nothing",
                      objectivity});
  problems.push_back({"pd-friction-angular-mom",
                      "PD disks in a glancing frictional impact: angular momentum",
                      angular_momentum});
  problems.push_back(
      {"pd-incline", "PD block slipping down a 30 degree incline, mu = 0.3", incline});
}

}  // namespace tribo::app
