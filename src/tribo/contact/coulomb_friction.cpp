#include "tribo/contact/coulomb_friction.hpp"

#include <algorithm>
#include <cmath>

namespace tribo::contact {

CoulombFriction CoulombFriction::from_coefficients(double kinetic, std::optional<double> static_coefficient,
                                                   double adhesion) {
  CoulombFriction law;
  law.kinetic = std::max(kinetic, 0.0);
  // A static coefficient below the kinetic one would make a sliding load exceed the stick load
  // (the slide would reverse the motion); the deck reader rejects it, and here it is raised.
  law.static_coefficient = std::max(static_coefficient.value_or(law.kinetic), law.kinetic);
  law.adhesion = std::max(adhesion, 0.0);
  return law;
}

CoulombFriction CoulombFriction::from_spec(const ContactLawSpec& spec) {
  return from_coefficients(spec.friction, spec.static_friction, spec.adhesion);
}

double CoulombFriction::kinetic_limit(double normal, double area) const {
  return kinetic * std::max(normal, 0.0) + adhesion * std::max(area, 0.0);
}

double CoulombFriction::static_limit(double normal, double area) const {
  return static_coefficient * std::max(normal, 0.0) + adhesion * std::max(area, 0.0);
}

TangentialResponse CoulombFriction::resolve(double normal, double trial_tangential, double area) const {
  const double trial = std::max(trial_tangential, 0.0);
  if (trial <= static_limit(normal, area)) return {trial, true};
  // Sliding: the kinetic limit is <= the static one < trial, so magnitude < trial.
  return {kinetic_limit(normal, area), false};
}

CoulombFriction CoulombFriction::after_slip(double slip, double weakening_distance) const {
  if (!(weakening_distance > 0.0) || static_coefficient <= kinetic) return *this;
  const double fraction = std::min(std::max(slip, 0.0) / weakening_distance, 1.0);
  CoulombFriction weakened = *this;
  weakened.static_coefficient = static_coefficient - (static_coefficient - kinetic) * fraction;
  weakened.kinetic = weakened.static_coefficient;  // the strength reached so far, in stick and in slide
  return weakened;
}

double CoulombFriction::regularized_force(double normal, double area, double slip_speed,
                                          double regularization_velocity) const {
  const double speed = std::abs(slip_speed);
  if (speed <= 0.0) return 0.0;
  const double ramp = regularization_velocity > 0.0 ? std::min(speed / regularization_velocity, 1.0) : 1.0;
  return kinetic_limit(normal, area) * ramp;
}

}  // namespace tribo::contact
