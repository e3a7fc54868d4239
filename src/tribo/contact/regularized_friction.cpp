#include "tribo/contact/regularized_friction.hpp"

#include <algorithm>
#include <cmath>

namespace tribo::contact {

double regularized_friction_force(const CoulombFriction& law, double normal, double area,
                                  double slip_speed, double regularization_velocity) {
  const double speed = std::abs(slip_speed);
  if (!(speed > 0.0)) return 0.0;
  const double kinetic = law.kinetic_limit(normal, area);
  if (!(regularization_velocity > 0.0)) return kinetic;
  const double s = speed / regularization_velocity;
  const double stick = law.static_limit(normal, area);
  if (s <= 1.0) return stick * s;
  if (s >= 2.0) return kinetic;
  return stick + (kinetic - stick) * (s - 1.0);
}

double step_friction_force(const CoulombFriction& law, double normal, double area,
                           double slip_speed, double regularization_velocity, double stick_force) {
  const double stick = std::max(stick_force, 0.0);
  // Sharp law: a pair at rest is held by up to the static limit (no slip speed needed).
  if (!(regularization_velocity > 0.0)) return law.resolve(normal, stick, area).magnitude;
  return std::min(
      regularized_friction_force(law, normal, area, slip_speed, regularization_velocity), stick);
}

}  // namespace tribo::contact
