#pragma once
// The pairwise PD friction models of seed document 002, for one contact pair (p, i) with unit
// direction M = (y_i - y_p)/|y_i - y_p|, relative velocity v = v_i - v_p, compressive normal force
// N, adhesion area Ac and stick rate s = m_eff / dt (kg/s; the force s |slip| would stop the slip
// within the step, and caps the friction: contact/regularized_friction.hpp). Each returns the friction force on p (i receives its opposite) and the
// power it dissipates, -(f_p . v_p + f_i . v_i) = f_p . v >= 0. The magnitude is the shared
// Coulomb law in force form (contact/regularized_friction.hpp: static above kinetic, mu N + A).
// The objective model needs the bodies' velocity fields and is in objective_friction.hpp.
#include <cmath>

#include "tribo/contact/regularized_friction.hpp"
#include "tribo/core/types.hpp"

namespace tribo::pd {

template <int Dim>
struct PairFriction {
  Vec<Dim> force_on_first = Vec<Dim>::Zero();  // N
  double dissipation = 0.0;                    // W, >= 0
};

// What every model needs of the law.
struct FrictionLaw {
  contact::CoulombFriction coulomb;
  double regularization_velocity = 0.0;  // m/s, eps_fric of seed eq. 6
  double force(double normal, double area, double slip_speed, double stick_rate) const {
    return contact::step_friction_force(coulomb, normal, area, slip_speed,
                                        regularization_velocity, stick_rate * std::abs(slip_speed));
  }
};

// BFCM (Stewart 2016; seed eq. 4-6): f_fric = -mu sgn(d|Y|/dt) f_nor along the bond, with the slip
// speed |d|Y|/dt| = |M . v| in the regularisation. f_nor on p is -N M, so f_p = +F sgn(M . v) M:
// it resists the change of the pair's length. Central, so the pair's moment is zero (angular
// momentum is conserved); a rigid motion keeps |Y| fixed, so it gives no friction (objective).
template <int Dim>
PairFriction<Dim> bond_friction(const FrictionLaw& law, double normal, double area,
                                double stick_rate, const Vec<Dim>& direction,
                                const Vec<Dim>& relative_velocity) {
  PairFriction<Dim> out;
  const double rate = direction.dot(relative_velocity);
  const double magnitude = law.force(normal, area, rate, stick_rate);
  if (magnitude <= 0.0) return out;
  out.force_on_first = (rate > 0.0 ? magnitude : -magnitude) * direction;
  out.dissipation = magnitude * std::abs(rate);
  return out;
}

// NFCM (seed eq. 7; Peridigm, PeriLab): f_fric = -R(|v_tau|, N) v_tau/|v_tau| perpendicular to the
// bond, v_tau = v - (v . M) M; on p it points along v_tau (p is dragged with i's relative motion).
// Gives Coulomb's mu in pure sliding, but a rigid rotation omega makes v_tau = omega x Y != 0
// (not objective), and the force is not along Y, so its moment Y x f does not vanish (angular
// momentum is not conserved).
template <int Dim>
PairFriction<Dim> naive_friction(const FrictionLaw& law, double normal, double area,
                                 double stick_rate, const Vec<Dim>& direction,
                                 const Vec<Dim>& relative_velocity) {
  PairFriction<Dim> out;
  const Vec<Dim> slip = relative_velocity - direction.dot(relative_velocity) * direction;
  const double speed = slip.norm();
  const double magnitude = law.force(normal, area, speed, stick_rate);
  if (magnitude <= 0.0 || speed <= 0.0) return out;
  out.force_on_first = (magnitude / speed) * slip;
  out.dissipation = magnitude * speed;
  return out;
}

}  // namespace tribo::pd
