#pragma once
// The pairwise PD friction models of seed document 002, for one contact pair (p, i) with unit
// direction M = (y_i - y_p)/|y_i - y_p|, compressive normal force N and adhesion area Ac. Each
// model takes two relative velocities v_i - v_p: the current one v (its slip speed drives the
// regularisation, seed eq. 6) and the trial one v~, the relative velocity the pair would have one
// step later without friction (v + dt times the relative acceleration of the other forces). The
// force never exceeds the stick force s |slip(v~)| (s = m_eff / dt, kg/s: the force that brings
// the trial slip to rest within the step), so friction cannot reverse the slip, and holds the pair
// while that force is within the static limit (contact/regularized_friction.hpp). It acts against
// the trial slip. Each returns the force on p (i receives its opposite) and the power it takes
// from the motion over the step it acts in: f . (v + v')/2, with v' = v~ - f / s the slip it
// leaves (the work of an impulse f dt on a relative velocity going from v to v'; f . v alone
// would count twice the work of a pair that friction brings to rest).
// The objective model needs the bodies' velocity fields and is in objective_friction.hpp.
#include <algorithm>
#include <cmath>

#include "tribo/contact/regularized_friction.hpp"
#include "tribo/contact/velocity_weakening_friction.hpp"
#include "tribo/core/types.hpp"

namespace tribo::pd {

template <int Dim>
struct PairFriction {
  Vec<Dim> force_on_first = Vec<Dim>::Zero();  // N
  double dissipation = 0.0;                    // W
  // The slip speed (m/s) the friction leaves, |v~| - F / s, when the pair slides (its stick
  // force exceeds the static limit); -1 when it sticks. Drives the slip-weakening history.
  double slip_after = -1.0;
};

// What every model needs of the law.
struct FrictionLaw {
  contact::CoulombFriction coulomb;
  double regularization_velocity = 0.0;  // m/s, eps_fric of seed eq. 6
  // Static friction above kinetic (Coulomb's third law): Coulomb's sharp stick/slip decision of
  // the MPM impulse law (CoulombFriction::resolve), without the viscous ramp: stick at the stick
  // force while it is within the static limit, else slide at the kinetic one. With the ramp a
  // resting pair creeps at the speed v_reg T / (mu N) the ramp needs to carry T (measured: a
  // block "at rest" on an incline crept at 0.8 mm/s whatever the gravity), and a creeping pair
  // whose stick force m v / dt exceeds the limit is never brought back to rest.
  bool exact_stick = false;
  // The deck's law velocity-weakening (contact/velocity_weakening_friction.hpp): v_c > 0 makes the
  // sliding force of the exact stick/slip decision mu(v) N + A Ac, v the trial slip speed, as at
  // an MPM node; 0 = Coulomb (mu(v) = mu_k: the same kernel gives CoulombFriction::resolve).
  double weakening_velocity = 0.0;
  bool sticks(double normal, double area, double stick_force) const {
    return stick_force <= coulomb.static_limit(normal, area);
  }
  // slip_speed: the slip at the start of the step (the viscous ramp's); trial_speed: the trial
  // slip (the velocity-weakening law's, as the MPM impulse form's s_t / m_red).
  double force(double normal, double area, double slip_speed, double stick_force,
               double trial_speed) const {
    if (exact_stick)
      return contact::VelocityWeakeningFriction{coulomb, weakening_velocity}
          .resolve(normal, stick_force, area, trial_speed)
          .magnitude;
    return contact::step_friction_force(coulomb, normal, area, slip_speed, regularization_velocity,
                                        stick_force);
  }
  // PairFriction::slip_after of a pair with this stick rate s (kg/s), trial slip speed and
  // friction force.
  double slip_after(double normal, double area, double stick_rate, double trial_speed,
                    double magnitude) const {
    if (sticks(normal, area, stick_rate * trial_speed)) return -1.0;
    return std::max(trial_speed - magnitude / stick_rate, 0.0);
  }
};

// BFCM (Stewart 2016; seed eq. 4-6): f_fric = -mu sgn(d|Y|/dt) f_nor along the bond, with the slip
// speed |d|Y|/dt| = |M . v|. f_nor on p is -N M, so f_p = +F sgn(M . v~) M: it resists the change
// of the pair's length. Central, so the pair's moment is zero (angular momentum is conserved); a
// rigid motion keeps |Y| fixed, so it gives no friction (objective).
template <int Dim>
PairFriction<Dim> bond_friction(const FrictionLaw& law, double normal, double area,
                                double stick_rate, const Vec<Dim>& direction,
                                const Vec<Dim>& relative_velocity, const Vec<Dim>& trial_velocity) {
  PairFriction<Dim> out;
  const double rate = direction.dot(relative_velocity);
  const double trial = direction.dot(trial_velocity);
  const double magnitude =
      law.force(normal, area, rate, stick_rate * std::abs(trial), std::abs(trial));
  out.slip_after = law.slip_after(normal, area, stick_rate, std::abs(trial), magnitude);
  if (magnitude <= 0.0 || trial == 0.0) return out;
  const double signed_force = trial > 0.0 ? magnitude : -magnitude;
  out.force_on_first = signed_force * direction;
  out.dissipation = 0.5 * signed_force * (rate + trial - signed_force / stick_rate);
  return out;
}

// NFCM (seed eq. 7; Peridigm, PeriLab): f_fric = -R(|v_tau|, N) v_tau/|v_tau| perpendicular to the
// bond, v_tau = v - (v . M) M; on p it points along v~_tau (p is dragged with i's relative
// motion). Gives Coulomb's mu in pure sliding, but a rigid rotation omega makes v_tau = omega x Y
// != 0 (not objective), and the force is not along Y, so its moment Y x f does not vanish
// (angular momentum is not conserved).
template <int Dim>
PairFriction<Dim> naive_friction(const FrictionLaw& law, double normal, double area,
                                 double stick_rate, const Vec<Dim>& direction,
                                 const Vec<Dim>& relative_velocity,
                                 const Vec<Dim>& trial_velocity) {
  PairFriction<Dim> out;
  const Vec<Dim> slip = relative_velocity - direction.dot(relative_velocity) * direction;
  const Vec<Dim> trial = trial_velocity - direction.dot(trial_velocity) * direction;
  const double trial_speed = trial.norm();
  const double magnitude =
      law.force(normal, area, slip.norm(), stick_rate * trial_speed, trial_speed);
  out.slip_after = law.slip_after(normal, area, stick_rate, trial_speed, magnitude);
  if (magnitude <= 0.0 || trial_speed <= 0.0) return out;
  out.force_on_first = (magnitude / trial_speed) * trial;
  out.dissipation = 0.5 * out.force_on_first.dot(slip + trial - out.force_on_first / stick_rate);
  return out;
}

}  // namespace tribo::pd
