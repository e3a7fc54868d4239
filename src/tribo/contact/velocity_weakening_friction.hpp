#pragma once
// Velocity-weakening kinetic friction: Coulomb's second law (kinetic friction independent of the
// sliding speed) "is not true in general" (seed document 002); for many dry pairs the kinetic
// coefficient falls from the static value as the slip speed grows. The exponential form
//   mu(v) = mu_k + (mu_s - mu_k) exp(-|v| / v_c),   v_c > 0, mu_s >= mu_k
// (the exponential Stribeck curve of Bo and Pavelescu 1982, Wear 82:277, with exponent 1 and no
// viscous term; Olsson et al. 1998, Eur. J. Control 4:176) equals mu_s at rest, falls to mu_k well
// past v_c, and keeps the binomial adhesion term of the Coulomb law (f = mu N + A). One
// implementation serves MPM
// contact pairs and cracks (impulse form, contact_impulse.hpp friction_impulse) and PD contact
// (force form, pd/friction_models.hpp): both call `resolve`.
//
// The slip speed v is the trial relative tangential speed: the speed of the pair's relative
// tangential motion at the end of the step if friction did not act (MPM: s_t / m_red of the
// stick impulse; PD: the trial slip of the pair's points). It is the one speed both solvers know
// before the friction of the step is chosen, so the law stays explicit (no iteration). On a block
// sliding under gravity it differs from the speed after the step's impulse by mu g dt, which
// changes mu by at most (mu_s - mu_k) mu_s g dt / v_c: small against mu while dt << v_c / (mu_s g)
// (50 ms for the validation decks, whose steps are below 0.1 ms; tribo validate velocity-weakening).
#include "tribo/contact/coulomb_friction.hpp"

namespace tribo::contact {

struct VelocityWeakeningFriction {
  CoulombFriction limits;           // mu_k (kinetic, far above v_c), mu_s (at rest), adhesion A
  double weakening_velocity = 0.0;  // v_c, m/s (> 0; the deck reader rejects anything else)

  // From a `law: velocity-weakening` entry of the deck (friction, static_friction, adhesion,
  // weakening_velocity).
  static VelocityWeakeningFriction from_spec(const ContactLawSpec& spec);

  bool frictionless() const { return limits.frictionless(); }
  // mu(v) = mu_k + (mu_s - mu_k) exp(-|v| / v_c).
  double coefficient(double slip_speed) const;
  // mu_s N + A Ac: the most the interface carries without starting to slide (= the sliding limit
  // at v = 0, so stick and slide meet without a jump).
  double static_limit(double normal, double area) const { return limits.static_limit(normal, area); }
  // mu(v) N + A Ac; tension (normal < 0) transmits no friction, only adhesion.
  double sliding_limit(double normal, double area, double slip_speed) const;
  // Stick while the trial load is within the static limit, otherwise slide at mu(v) N + A Ac with
  // v the trial slip speed. mu(v) <= mu_s, so sliding never reverses the relative motion.
  TangentialResponse resolve(double normal, double trial_tangential, double area, double slip_speed) const;
};

}  // namespace tribo::contact
