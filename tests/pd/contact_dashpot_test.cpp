// The contact dashpot of the smoothed PD surface (pd_contact.cpp damping_slope; docs/pd-friction.md
// "Contact damping"), against the closed form of a point bouncing on a rigid floor: one PD point of
// mass m rests on a rigid lattice under gravity; near its equilibrium height its contact is a
// spring k_eff and a dashpot c_eff,
//   E = (k_p h^2 / 2 G0^2) (phi - phi0)^2  ->  k_eff = (k_p h^2 / G0^2) (phi'^2 + (phi - phi0) phi''),
//   D = (c_p h^2 / 2 G0^2) (dphi/dt)^2     ->  c_eff = (c_p h^2 / G0^2) phi'^2,
// phi(z) = sum_j w(r_j / R) over the floor's points (V_j = V_cell), c_p = min(2 sqrt(k_p m),
// m / (4 dt)) (a one-point body: M_b / n_b = m). The solver's velocity Verlet evaluates the
// dashpot at the half-step velocity, so the deviation x_n from equilibrium obeys exactly
//   x_{n+1} = (2 - k_eff dt^2/m - c_eff dt/m) x_n - (1 - c_eff dt/m) x_{n-1},
// a damped oscillation whose per-step contraction is sqrt(1 - c_eff dt / m) and whose logarithmic
// decrement per period is -ln(contraction) 2 pi / theta, cos theta = trace / (2 contraction)
// (continuous limit: 2 pi zeta / sqrt(1 - zeta^2), zeta = c_eff / 2 sqrt(k_eff m)).
// Friction is set negligible (1e-6, static 2e-6: the dashpot is on only with static friction)
// so that the dashpot is the only dissipation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "spec_builder.hpp"
#include "tribo/pd/pd_simulation.hpp"
#include "tribo/pd/short_range_force.hpp"
#include "tribo/pd/smoothed_surface.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;
constexpr double h = 1e-3;
constexpr double density = 1000.0, youngs = 1e9;
constexpr int floor_columns = 15, floor_rows = 4;  // the floor reaches past R = 2 h on all sides

// A one-point body above a rigid floor whose top row of points is at y = -h/2; the point's x is
// `offset` spacings from a floor column, its height z above the floor's top row.
SimulationSpec point_on_floor(double offset, double z, double dt, double gravity) {
  SimulationSpec spec = pd_spec(2, h);
  spec.time.dt = dt;  // no bonds: no stable step to estimate
  add_material(spec, pd_material("m", MaterialModel::Pmb, density, youngs, 1.0 / 3.0));
  MaterialSpec rigid;
  rigid.name = "floor";
  rigid.model = MaterialModel::Rigid;
  add_material(spec, rigid);
  const double half_width = 0.5 * floor_columns * h;
  add_body(spec, "floor", 1, box(2, Vec3(-half_width, -floor_rows * h, 0), Vec3(half_width, 0, 0)));
  const Vec3 centre(offset * h, -0.5 * h + z, 0);
  const Vec3 half = Vec3(0.5 * h, 0.5 * h, 0);
  add_body(spec, "point", 0, box(2, centre - half, centre + half));
  spec.gravity = Vec3(0, -gravity, 0);
  spec.pd.contact.friction_model = FrictionModel::Nfcm;
  spec.pd.contact.law.friction = 1e-6;
  spec.pd.contact.law.static_friction = 2e-6;
  return spec;
}

// phi of the point at height z over the floor (smoothed_surface.hpp; the floor's points have
// V_j = V_cell: phi = sum_j w(r_j / R)), summed here independently of the solver.
double floor_phi(double offset, double z) {
  const double R = 2.0 * h;  // the default support, radius 2 spacings
  double phi = 0.0;
  for (int c = -floor_columns / 2; c <= floor_columns / 2; ++c)
    for (int r = 0; r < floor_rows; ++r) {
      const double dx = offset * h - c * h, dy = z + r * h;
      const double q = std::sqrt(dx * dx + dy * dy) / R;
      if (q < 1.0) phi += wendland(q);
    }
  return phi;
}

struct Prediction {
  double z_eq, mass, k_eff, c_eff;
  bool capped;  // c_p = m / 4 dt
  double trace(double dt) const { return 2.0 - k_eff * dt * dt / mass - c_eff * dt / mass; }
  double contraction(double dt) const { return std::sqrt(1.0 - c_eff * dt / mass); }
  // Logarithmic decrement per period of the discrete oscillation.
  double decrement(double dt) const {
    const double r = contraction(dt);
    return -std::log(r) * 2.0 * std::numbers::pi / std::acos(trace(dt) / (2.0 * r));
  }
  double continuous_decrement() const {
    const double zeta = c_eff / (2.0 * std::sqrt(k_eff * mass));
    return 2.0 * std::numbers::pi * zeta / std::sqrt(1.0 - zeta * zeta);
  }
};

Prediction predict(double offset, double dt, double gravity) {
  const SurfaceCalibration cal = calibrate_smoothed_surface<2>(2.0);
  const MaterialSpec m = pd_material("m", MaterialModel::Pmb, density, youngs, 1.0 / 3.0);
  const double delta = 3.015 * h;
  const double V = h * h;  // thickness 1
  const double mass = density * V;
  const double k_p = contact_micromodulus<2>(m, delta, 1.0) / delta * V * V;  // stiffness 1
  const double scale = k_p * h * h / (cal.gradient * cal.gradient);
  const auto slope = [&](double z) {
    const double e = 1e-6 * h;
    return (floor_phi(offset, z + e) - floor_phi(offset, z - e)) / (2 * e);
  };
  // Equilibrium: scale (phi - phi0) (-phi') = m g, by bisection between 0.5 h and 1.5 h.
  double lo = 0.5 * h, hi = 1.5 * h;
  for (int it = 0; it < 200; ++it) {
    const double z = 0.5 * (lo + hi);
    const double up = scale * std::max(floor_phi(offset, z) - cal.phi0, 0.0) * (-slope(z));
    (up > mass * gravity ? lo : hi) = z;
  }
  Prediction p;
  p.z_eq = 0.5 * (lo + hi);
  p.mass = mass;
  const double e = 1e-5 * h;
  const double curvature = (floor_phi(offset, p.z_eq + e) - 2 * floor_phi(offset, p.z_eq) +
                            floor_phi(offset, p.z_eq - e)) / (e * e);
  const double d1 = slope(p.z_eq);
  p.k_eff = scale * (d1 * d1 + (floor_phi(offset, p.z_eq) - cal.phi0) * curvature);
  p.capped = 0.25 * mass / dt < 2.0 * std::sqrt(k_p * mass);
  const double c_p = std::min(2.0 * std::sqrt(k_p * mass), 0.25 * mass / dt);
  p.c_eff = c_p * h * h / (cal.gradient * cal.gradient) * d1 * d1;
  return p;
}

// The point's deviations x_n = y_n - y_end from the height it comes to rest at, from rest at
// z_eq + amplitude, over `steps` (long enough to decay to round-off).
std::vector<double> bounce(double offset, double dt, double gravity, const Prediction& p,
                           double amplitude, int steps) {
  PdSimulation<2> sim(point_on_floor(offset, p.z_eq + amplitude, dt, gravity));
  const std::size_t point = sim.position().size() - 1;  // the last body's only point
  std::vector<double> y;
  for (int s = 0; s < steps; ++s) {
    y.push_back(sim.position()[point].y());
    sim.step();
  }
  const double rest = sim.position()[point].y();
  for (double& v : y) v -= rest;
  return y;
}

// Least squares x_{n+1} = a x_n + b x_{n-1} over the samples above 1e-6 of the first: a is the
// trace of the step's matrix, -b its determinant.
std::pair<double, double> fit_recurrence(const std::vector<double>& x) {
  double s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
  for (std::size_t n = 1; n + 1 < x.size() && std::abs(x[n]) > 1e-6 * std::abs(x[0]); ++n) {
    s11 += x[n] * x[n];
    s12 += x[n] * x[n - 1];
    s22 += x[n - 1] * x[n - 1];
    r1 += x[n] * x[n + 1];
    r2 += x[n - 1] * x[n + 1];
  }
  const double det = s11 * s22 - s12 * s12;
  const double a = (r1 * s22 - r2 * s12) / det, b = (s11 * r2 - s12 * r1) / det;
  return {a, -b};
}

TEST(ContactDashpot, TheBounceOfAPointOnARigidFloorDecaysAtTheDecrementOfItsFormula) {
  // Gravity sized so that the static compression is ~1e-3 h (the contact's stiffness is linear to
  // that order), the perturbation 0.2 of it (the dashpot never turns a pair tensile: c v / k x
  // stays below 2 zeta 0.2 / 0.8 < 1, so the clamp to compressive forces does not act). Steps
  // with omega dt from 0.2 to 0.5, where the cap m / 4 dt is what sets c_p (as on the decks):
  // the decrement then falls as dt grows, which is what the cap does.
  const double mass = density * h * h;
  for (double offset : {0.0, 0.5}) {
    const Prediction probe = predict(offset, 1.0, 0.0);  // for k_eff at the touching height
    const double omega = std::sqrt(probe.k_eff / mass);
    const double gravity = probe.k_eff * 1e-3 * h / mass;
    double previous = 1e300;
    for (double omega_dt : {0.2, 0.3, 0.5}) {
      const double dt = omega_dt / omega;
      const Prediction p = predict(offset, dt, gravity);
      const double static_compression = mass * gravity / p.k_eff;
      ASSERT_TRUE(p.capped);
      ASSERT_LT(p.c_eff, 2.0 * std::sqrt(p.k_eff * mass)) << "underdamped";
      const std::vector<double> y = bounce(offset, dt, gravity, p, 0.2 * static_compression, 600);
      const auto [trace, determinant] = fit_recurrence(y);
      const double contraction = std::sqrt(determinant);
      const double decrement =
          -std::log(contraction) * 2.0 * std::numbers::pi / std::acos(trace / (2 * contraction));
      // The dashpot and the spring are linear to O(compression / h) = 1e-3 and the recurrence
      // is the scheme's exact one: 0.5% covers that and the fit's round-off.
      std::printf("offset %.1f omega dt %.2f: decrement %.4f predicted %.4f (continuous %.4f), "
                  "contraction %.5f predicted %.5f\n",
                  offset, omega_dt, decrement, p.decrement(dt), p.continuous_decrement(),
                  contraction, p.contraction(dt));
      EXPECT_NEAR(decrement, p.decrement(dt), 5e-3 * p.decrement(dt));
      EXPECT_NEAR(contraction, p.contraction(dt), 1e-3);
      EXPECT_LT(p.decrement(dt), previous);
      previous = p.decrement(dt);
    }
  }
}


TEST(ContactDashpot, BelowTheCapTheStepMatrixIsTheFormulasOne) {
  // omega dt = 0.05 and 0.1 (below 1/8 the point's own critical rate 2 sqrt(k_p m) is below the
  // cap m / 4 dt): the fitted trace and determinant of the step's matrix against the closed form.
  // There zeta = c_eff / 2 sqrt(k_eff m) = h phi' / G0 ~ 1 (critical; no decrement to measure).
  // Tolerance 3e-3 of 2 - trace and of 1 - determinant: the linearisation error is
  // O(compression / h) = 1e-3.
  const double mass = density * h * h;
  for (double offset : {0.0, 0.5}) {
    const Prediction probe = predict(offset, 1.0, 0.0);
    const double omega = std::sqrt(probe.k_eff / mass);
    const double gravity = probe.k_eff * 1e-3 * h / mass;
    for (double omega_dt : {0.05, 0.1}) {
      const double dt = omega_dt / omega;
      const Prediction p = predict(offset, dt, gravity);
      ASSERT_FALSE(p.capped);
      const std::vector<double> x =
          bounce(offset, dt, gravity, p, 0.2 * mass * gravity / p.k_eff, 3000);
      const auto [trace, determinant] = fit_recurrence(x);
      const double r2 = p.contraction(dt) * p.contraction(dt);
      EXPECT_NEAR(2.0 - trace, 2.0 - p.trace(dt), 3e-3 * (2.0 - p.trace(dt)));
      EXPECT_NEAR(1.0 - determinant, 1.0 - r2, 3e-3 * (1.0 - r2));
    }
  }
}

TEST(ContactDashpot, WithoutStaticFrictionTheContactStaysElastic) {
  // The dashpot is on only when static friction exceeds kinetic (docs/pd-friction.md): with
  // mu_s = mu_k the bounce is the symplectic step's undamped one, determinant 1 (to 1e-4: the
  // spring's nonlinearity over the amplitude, O(compression / h) = 1e-3, and the fit), where the
  // dashpot would make it about 3/4.
  const double mass = density * h * h;
  const Prediction probe = predict(0.0, 1.0, 0.0);
  const double dt = 0.5 / std::sqrt(probe.k_eff / mass);
  const double gravity = probe.k_eff * 1e-3 * h / mass;
  const Prediction p = predict(0.0, dt, gravity);
  SimulationSpec spec = point_on_floor(0.0, p.z_eq + 0.2 * mass * gravity / p.k_eff, dt, gravity);
  spec.pd.contact.law.static_friction.reset();
  PdSimulation<2> sim(spec);
  const std::size_t point = sim.position().size() - 1;
  std::vector<double> y;
  for (int s = 0; s < 400; ++s) {
    // The deviation from the equilibrium height (the undamped run never comes to rest there).
    y.push_back(sim.position()[point].y() - (p.z_eq - 0.5 * h));
    sim.step();
  }
  EXPECT_NEAR(fit_recurrence(y).second, 1.0, 1e-4);
}

TEST(ContactDashpot, ItsWorkIsBookedAsFrictionalAndTheEnergyBalanceCloses) {
  // From rest at z_eq + A to rest at z_eq: what the dashpot took is the drop of strain (contact)
  // plus gravitational energy, and energy.frictional must book it; the total stays constant.
  // omega dt = 0.5 (the cap acts, a strong dashpot: c dt / m = 1/4). The booking integrates the
  // power at the half-step velocities by the trapezoidal rule, second order in the step:
  // 1e-3 of the dissipated energy (measured 7e-5).
  const double mass = density * h * h;
  for (double offset : {0.0, 0.5}) {
    const Prediction probe = predict(offset, 1.0, 0.0);
    const double dt = 0.5 / std::sqrt(probe.k_eff / mass);
    const double gravity = probe.k_eff * 1e-3 * h / mass;
    const Prediction p = predict(offset, dt, gravity);
    PdSimulation<2> sim(point_on_floor(offset, p.z_eq + 0.2 * mass * gravity / p.k_eff, dt, gravity));
    const EnergyBreakdown start = sim.energy();
    for (int s = 0; s < 2000; ++s) sim.step();  // 0.87^2000: at rest to round-off
    const EnergyBreakdown end = sim.energy();
    const double lost = (start.strain + start.potential) - (end.strain + end.potential);
    ASSERT_GT(lost, 0.0);
    EXPECT_LT(end.kinetic, 1e-12 * lost);
    EXPECT_NEAR(end.frictional, lost, 1e-3 * lost);
    EXPECT_NEAR(end.total(), start.total(), 1e-3 * lost);
  }
}

// A 2D plate and a block pressed into it (facing rows 0.8 h apart, offset 0.3 h), objective
// friction with static above kinetic (the dashpot is on).
SimulationSpec pressed_pair() {
  SimulationSpec spec = pd_spec(2, h);
  add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e9, 1.0 / 3.0));
  add_body(spec, "plate", 0, box(2, Vec3(0, -4 * h, 0), Vec3(12 * h, 0, 0)));
  const Vec3 shift(3.3 * h, -0.2 * h, 0);
  add_body(spec, "block", 0, box(2, shift, shift + Vec3(6 * h, 4 * h, 0)));
  spec.pd.contact.law.friction = 0.25;
  spec.pd.contact.law.static_friction = 0.5;
  return spec;
}

TEST(ContactDashpot, ARigidMotionOfBothBodiesIsNotDampedAndAnApproachIs) {
  // The dashpot acts on d phi / dt = sum V w' dr/dt only: under a rigid motion of everything
  // (v = V + omega x y) every pair keeps its length, and the contact's forces and dissipation
  // are those of the bodies at rest, to round-off (1e-12 of the largest force). An approach of
  // the block at 0.3 m/s changes them by far more (1e-3 of the largest force, set by the strong
  // compression's elastic forces; measured 1.7e-2): the check can fail.
  PdSimulation<2> sim(pressed_pair());
  ASSERT_GT(sim.contact()->pairs_in_contact(), 0u);
  const auto forces_at = [&](const auto& velocity_of) {
    for (std::size_t i = 0; i < sim.position().size(); ++i)
      sim.velocity()[i] = velocity_of(sim.position()[i], i);
    PdContact<2> contact = *sim.contact();
    std::vector<Vec2> f(sim.position().size(), Vec2::Zero());
    contact.add_forces(sim.contact_state(), f);
    return std::make_pair(f, contact.dissipation_rate());
  };
  const auto [rest, rest_power] = forces_at([](const Vec2&, std::size_t) { return Vec2(0, 0); });
  const double omega = 50.0;  // 1/s: up to 0.6 m/s at the bodies' far corners
  const auto [rigid, rigid_power] = forces_at([&](const Vec2& y, std::size_t) {
    return Vec2(0.4 - omega * y.y(), -0.2 + omega * y.x());
  });
  const std::size_t plate_points = 12 * 4;
  const auto [approach, approach_power] = forces_at([&](const Vec2&, std::size_t i) {
    return i < plate_points ? Vec2(0, 0) : Vec2(0, -0.3);
  });
  double scale = 0.0, rigid_diff = 0.0, approach_diff = 0.0;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    scale = std::max(scale, rest[i].norm());
    rigid_diff = std::max(rigid_diff, (rigid[i] - rest[i]).norm());
    approach_diff = std::max(approach_diff, (approach[i] - rest[i]).norm());
  }
  ASSERT_GT(scale, 0.0);
  EXPECT_LT(rigid_diff, 1e-12 * scale);
  EXPECT_NEAR(rigid_power, rest_power, 1e-12 * scale * 0.3);
  EXPECT_GT(approach_diff, 1e-3 * scale);
  EXPECT_GT(approach_power, 0.0);
}

}  // namespace
}  // namespace tribo::pd
