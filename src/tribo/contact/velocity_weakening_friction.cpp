#include "tribo/contact/velocity_weakening_friction.hpp"

#include <algorithm>
#include <cmath>

namespace tribo::contact {

VelocityWeakeningFriction VelocityWeakeningFriction::from_spec(const ContactLawSpec& spec) {
  return {CoulombFriction::from_spec(spec), spec.weakening_velocity};
}

double VelocityWeakeningFriction::coefficient(double slip_speed) const {
  const double excess = limits.static_coefficient - limits.kinetic;
  if (!(weakening_velocity > 0.0) || !(excess > 0.0)) return limits.kinetic;
  return limits.kinetic + excess * std::exp(-std::abs(slip_speed) / weakening_velocity);
}

double VelocityWeakeningFriction::sliding_limit(double normal, double area, double slip_speed) const {
  return coefficient(slip_speed) * std::max(normal, 0.0) + limits.adhesion * std::max(area, 0.0);
}

TangentialResponse VelocityWeakeningFriction::resolve(double normal, double trial_tangential, double area,
                                                      double slip_speed) const {
  const double trial = std::max(trial_tangential, 0.0);
  if (trial <= static_limit(normal, area)) return {trial, true};
  // Sliding: mu(v) <= mu_s, so the sliding limit is <= the static one < trial.
  return {sliding_limit(normal, area, slip_speed), false};
}

}  // namespace tribo::contact
