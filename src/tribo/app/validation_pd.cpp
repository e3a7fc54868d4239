// Peridynamic validation problems: the comparison of the three PD friction models of issue 6
// (seed document 002; docs/pd-friction.md) on the decks of examples/. Rows that check a model
// against a reference have a finite tolerance; rows that measure what the seed says a model gets
// wrong (BFCM's mu_eff below mu, NFCM's spurious dissipation and angular momentum drift) have an
// infinite tolerance, and pass when the measurement shows the seed's claim.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <span>

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
  const double mu = deck.pd.contact.law.friction;
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

// Issue 12: the block of examples/incline-pd.yaml (2D) and incline-pd-3d.yaml slides down a 25
// degree incline (mu = 0.25) with the default (smoothed) contact: the objective model and NFCM
// give the acceleration g (sin th - mu cos th) within 3%, fitted after the block has settled
// (t >= 0.1 s; the contact's first bounce dies out by then); BFCM measured (the seed: its mu_eff
// falls below mu, so it slides faster).
constexpr double kSettled = 0.08;  // s, start of the fit

double incline_reference(const SimulationSpec& deck, double mu) {
  const double g = deck.gravity.norm();
  const double theta = std::atan2(deck.gravity.x(), -deck.gravity.y());
  return g * (std::sin(theta) - mu * std::cos(theta));
}

template <int Dim>
std::vector<ValidationRow> incline_rows(const std::string& problem, const SimulationSpec& deck,
                                        std::span<const FrictionModel> models = kModels) {
  const double reference = incline_reference(deck, deck.pd.contact.law.friction);
  std::vector<ValidationRow> rows;
  for (FrictionModel m : models) {
    const pd::CentroidMotion motion =
        pd::measure_centroid_motion<Dim>(with_model(deck, m), "block", kSettled);
    const std::string quantity = fmt::format("acceleration (m/s^2), {}", model_name(m));
    if (m == FrictionModel::Bfcm)
      rows.push_back(claim(problem, quantity + " (> ref)", reference, motion.acceleration,
                           motion.acceleration > reference));
    else
      rows.push_back(compare_relative(problem, quantity, reference, motion.acceleration, 0.03));
  }
  return rows;
}

std::vector<ValidationRow> incline() {
  return incline_rows<2>("pd-incline", load_example("incline-pd.yaml"));
}
std::vector<ValidationRow> incline_3d() {
  return incline_rows<3>("pd-incline-3d", load_example("incline-pd-3d.yaml"));
}
// ctest size: the checked models only (BFCM's claim is checked in 2D) and 0.2 s instead of 0.25
// (the fit from 0.08 s: measured -1.15% objective, -1.41% NFCM, as at 0.25 s; 46% of the cost).
std::vector<ValidationRow> incline_3d_ctest() {
  SimulationSpec deck = load_example("incline-pd-3d.yaml");
  deck.time.end = 0.2;
  constexpr FrictionModel checked[] = {FrictionModel::Objective, FrictionModel::Nfcm};
  return incline_rows<3>("pd-incline-3d", deck, checked);
}

// Issue 12: no friction at all. The lattice washboard of the repulsion must not act as friction:
// mu_eff = (g sin th - a) / (g cos th) below 0.01 on the incline, for the block's lattice aligned
// with the floor's and shifted by h/2, and for gravity x0.1 and x10 (the contact was not sized to
// the load); on the flat floor (gravity straight down) a block launched at 0.3 m/s keeps its speed:
// mu_eff = -a / g below 0.01.
std::vector<ValidationRow> frictionless(double end_time) {
  SimulationSpec base = load_example("incline-pd.yaml");
  base.time.end = end_time;
  std::vector<ValidationRow> rows;
  struct Case {
    const char* name;
    double shift;    // x offset of the block, spacings
    double gravity;  // scale
    bool flat;
  };
  for (const Case c : {Case{"incline, offset 0", 0.0, 1.0, false},
                       Case{"incline, offset h/2", 0.5, 1.0, false},
                       Case{"incline, gravity x0.1", 0.0, 0.1, false},
                       Case{"incline, gravity x10", 0.0, 10.0, false},
                       Case{"flat floor from 0.3 m/s, offset 0", 0.0, 1.0, true},
                       Case{"flat floor from 0.3 m/s, offset h/2", 0.5, 1.0, true}}) {
    SimulationSpec deck = base;
    deck.pd.contact.friction_model = FrictionModel::None;
    deck.pd.contact.law.friction = 0.0;
    const double g = base.gravity.norm() * c.gravity;
    if (c.flat) {
      deck.gravity = Vec3(0, -g, 0);
      deck.bodies[deck.body_index("block")].velocity = Vec3(0.3, 0, 0);
    } else {
      deck.gravity *= c.gravity;
    }
    BodySpec& block = deck.bodies[deck.body_index("block")];
    block.geometry.min.x() += c.shift * deck.pd.spacing;
    block.geometry.max.x() += c.shift * deck.pd.spacing;
    const pd::CentroidMotion motion = pd::measure_centroid_motion<2>(deck, "block", kSettled);
    const double theta = c.flat ? 0.0 : std::atan2(deck.gravity.x(), -deck.gravity.y());
    const double mu_eff =
        (g * std::sin(theta) - motion.acceleration) / (g * std::cos(theta));
    rows.push_back(compare_absolute("pd-frictionless", fmt::format("mu_eff, {}", c.name), 0.0,
                                    mu_eff, 0.01));
  }
  return rows;
}

// Issue 12: a block launched at v0 = 0.5 m/s on the flat floor (mu = 0.25, objective) stops
// after v0^2 / (2 mu g) within 3%.
std::vector<ValidationRow> floor_stop() {
  SimulationSpec deck = load_example("incline-pd.yaml");
  const double g = deck.gravity.norm(), mu = deck.pd.contact.law.friction, v0 = 0.5;
  deck.gravity = Vec3(0, -g, 0);
  deck.bodies[deck.body_index("block")].velocity = Vec3(v0, 0, 0);
  const double reference = v0 * v0 / (2.0 * mu * g);
  deck.time.end = 1.5 * v0 / (mu * g);
  const pd::CentroidMotion motion = pd::measure_centroid_motion<2>(deck, "block", 0.0, true);
  return {compare_relative("pd-floor-stop", "stopping distance from 0.5 m/s (m)", reference,
                           motion.travel, 0.03)};
}

// Issue 12: static friction. The block of incline-pd.yaml (2D) or incline-pd-3d.yaml with
// static_friction mu_s > tan th (kinetic 0.25, default contact, placed unloaded one spacing up)
// rests: its centroid moves less than 1% of what a block slipping at the kinetic rate travels in
// the same time, (1/2) g (sin th - mu_k cos th) t^2 (the slipping case, within 3% of it: the
// pd-incline rows; measured 0.1625 m for 0.1628 m at 35 degrees). Cases: 25 degrees with
// mu_s = 0.6 (1.29 tan th) at gravity x1, x0.1 (a creep at a fixed speed would be 10x larger
// against the slipping distance) and x10 (every slip of the contact's loading is 10x larger
// against D_c = h), the block shifted by h/2 against the floor lattice, 3D; and 35 degrees with
// mu_s = 1.07 tan th. And with mu_s = 0.6 < tan 35 the block must break away and slide at the
// kinetic rate g (sin th - mu_k cos th) within 3% (the incline's tolerance).
//
// The 25 degree cases and the 3D block are dropped: gravity at once. At the small margin of
// 1.07 tan th the 2D block is placed quasi-statically (gravity_ramp 0.1 s, as the MPM incline-stick
// deck): tan th <= mu_s is the criterion of statics, and a dropped elastic block is not in statics.
// Its base's normal and shear tractions ring at the block's different P- and S-wave periods: with
// the interface glued (mu_s = 5), the dropped 2D block's T/N reaches 1.62 tan th at 14 ms, 1.26
// tan th within 20-50 ms and 1.10 tan th within 50-100 ms, so no Coulomb interface with
// mu_s = 1.07 tan th can hold it (docs/pd-friction.md, "Static friction at small margins").
// The refinement case halves the spacing at the coarse lattice's weakening distance (D_c = 2.5 mm
// given in the deck): the default D_c is one spacing, a length of the lattice, and the result is
// compared at the same physics.
struct RestCase {
  const char* name;
  int dimension;
  double degrees;
  double gravity;        // scale
  double static_factor;  // mu_s / tan th; 0: mu_s = 0.6
  double shift;          // x offset of the block, spacings
  double ramp = 0.0;     // gravity_ramp, s
  double spacing = 1.0;  // of the deck's spacing (the weakening distance stays the deck's h)
};

ValidationRow static_rest_row(const RestCase& c) {
  SimulationSpec deck = load_example(c.dimension == 2 ? "incline-pd.yaml" : "incline-pd-3d.yaml");
  const double g = deck.gravity.norm() * c.gravity, theta = c.degrees * std::numbers::pi / 180.0;
  deck.gravity = Vec3(g * std::sin(theta), -g * std::cos(theta), 0.0);
  deck.gravity_ramp = c.ramp;
  const double mu_s = c.static_factor > 0.0 ? c.static_factor * std::tan(theta) : 0.6;
  deck.pd.contact.law.static_friction = mu_s;
  if (c.spacing != 1.0) {
    deck.pd.contact.law.slip_weakening_distance = deck.pd.spacing;
    deck.pd.spacing *= c.spacing;
  }
  BodySpec& block = deck.bodies[deck.body_index("block")];
  block.geometry.min.x() += c.shift * deck.pd.spacing;
  block.geometry.max.x() += c.shift * deck.pd.spacing;
  const double mu_k = deck.pd.contact.law.friction, t = deck.time.end;
  const double slipping = ramped_travel(g * (std::sin(theta) - mu_k * std::cos(theta)), t, c.ramp);
  const double travel =
      c.dimension == 2 ? pd::measure_centroid_motion<2>(deck, "block", kSettled).travel
                       : pd::measure_centroid_motion<3>(deck, "block", kSettled).travel;
  return compare_absolute(
      "pd-static-rest",
      fmt::format("travel / slipping travel, {} (mu_s {:.3g})", c.name, mu_s), 0.0,
      std::abs(travel) / slipping, 0.01);
}

std::vector<ValidationRow> static_rest(bool full) {
  std::vector<ValidationRow> rows;
  for (const RestCase& c : {RestCase{"2D, 25 deg, gravity x1", 2, 25.0, 1.0, 0.0, 0.0},
                            RestCase{"2D, 25 deg, gravity x0.1", 2, 25.0, 0.1, 0.0, 0.0},
                            RestCase{"2D, 25 deg, gravity x10", 2, 25.0, 10.0, 0.0, 0.0},
                            RestCase{"2D, 25 deg, offset h/2", 2, 25.0, 1.0, 0.0, 0.5},
                            RestCase{"3D, 25 deg, gravity x10", 3, 25.0, 10.0, 0.0, 0.0},
                            RestCase{"3D, 35 deg, mu_s 1.07 tan th", 3, 35.0, 1.0, 1.07, 0.0},
                            RestCase{"2D, 35 deg, mu_s 1.07 tan th, placed", 2, 35.0, 1.0, 1.07, 0.0, 0.1},
                            RestCase{"2D, 35 deg, mu_s 1.05 tan th, placed, offset h/2", 2, 35.0, 1.0, 1.05, 0.5,
                                     0.1}})
    rows.push_back(static_rest_row(c));
  // Four times the points and steps: `tribo validate` only.
  if (full)
    rows.push_back(static_rest_row(
        RestCase{"2D, 35 deg, mu_s 1.07 tan th, placed, spacing h/2", 2, 35.0, 1.0, 1.07, 0.0, 0.1, 0.5}));
  SimulationSpec steep = load_example("incline-pd.yaml");
  const double g = steep.gravity.norm(), theta = 35.0 * std::numbers::pi / 180.0;
  steep.gravity = Vec3(g * std::sin(theta), -g * std::cos(theta), 0.0);
  steep.pd.contact.law.static_friction = 0.6;
  const double mu = steep.pd.contact.law.friction;
  const pd::CentroidMotion motion = pd::measure_centroid_motion<2>(steep, "block", kSettled);
  rows.push_back(compare_relative("pd-static-rest",
                                  "acceleration at 35 degrees, static 0.6 < tan 35 (m/s^2)",
                                  g * (std::sin(theta) - mu * std::cos(theta)),
                                  motion.acceleration, 0.03));
  return rows;
}

// Issue 12: a disk launched at v0 without spin on a flat floor (objective friction) ends rolling
// at (2/3) v0 within 5% (a uniform disk: I = m r^2 / 2), measured as the mean speed from 1.5
// times the rolling time v0 / (3 mu g) on (the lattice rim makes the rolling disk hop a little).
std::vector<ValidationRow> rolling_disk() {
  const SimulationSpec deck = load_example("pd-rolling-disk.yaml");
  const double v0 = deck.bodies[deck.body_index("disk")].velocity.x();
  const double rolling = v0 / (3.0 * deck.pd.contact.law.friction * deck.gravity.norm());
  const pd::CentroidMotion motion = pd::measure_centroid_motion<2>(deck, "disk", 1.5 * rolling);
  return {compare_relative("pd-rolling-disk", "rolling speed (m/s), objective", 2.0 / 3.0 * v0,
                           motion.mean_velocity, 0.05)};
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
      {"pd-incline", "PD block slipping down a 25 degree incline, mu = 0.25 (2D)", incline});
  problems.push_back({"pd-incline-3d",
                      "PD block slipping down a 25 degree incline, mu = 0.25 (3D)", incline_3d,
                      incline_3d_ctest});
  // ctest: 0.2 s instead of the deck's 0.3 (the fit from 0.08 s; every |mu_eff| is below 4e-4
  // at full length, against 0.01).
  problems.push_back({"pd-frictionless",
                      "PD block without friction on an incline and a flat floor: mu_eff < 0.01",
                      [] { return frictionless(load_example("incline-pd.yaml").time.end); },
                      [] { return frictionless(0.2); }});
  problems.push_back({"pd-floor-stop", "PD block stopping on a flat floor (mu = 0.25)",
                      floor_stop});
  problems.push_back({"pd-static-rest",
                      "PD block on an incline with static friction above tan th rests; below it slides",
                      [] { return static_rest(true); }, [] { return static_rest(false); }});
  problems.push_back({"pd-velocity-weakening",
                      "PD block slowing down on a floor, mu(v) = 0.2 + 0.2 exp(-v / 0.2 m/s): t(v)",
                      [] {
                        return velocity_weakening_slowdown("validation/velocity-weakening-pd.yaml",
                                                           "pd-velocity-weakening");
                      }});
  problems.push_back({"pd-rolling-disk",
                      "PD disk launched without spin on a floor rolls at 2/3 of its speed",
                      rolling_disk});
}

}  // namespace tribo::app
