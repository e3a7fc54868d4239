// Issue 15: velocity-weakening friction (contact/velocity_weakening_friction.hpp) on a block
// launched on a flat floor, in MPM and in PD from one check. Under mu(v) = mu_k + d exp(-v / v_c),
// d = mu_s - mu_k, a block sliding on a level floor decelerates at dv/dt = -mu(v) g, and
//   t(v) = int_v^v0 dv' / (g mu(v')) = [(v0 - v) + v_c ln((mu_k + d e^(-v0/v_c)) / (mu_k + d e^(-v/v_c)))] / (mu_k g)
// (substitute u = e^(v'/v_c): int dv' / (mu_k + d e^(-v'/v_c)) = (v_c / mu_k) ln(mu_k e^(v'/v_c) + d)).
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "tribo/app/validation_problem.hpp"

namespace tribo::app {

namespace {

struct VelocityLaw {
  double kinetic = 0.0, static_coefficient = 0.0, weakening_velocity = 0.0;
};

VelocityLaw law_of(const SimulationSpec& spec) {
  const ContactLawSpec& law =
      spec.method == Method::Pd ? spec.pd.contact.law : spec.mpm.contact.pairs.front().law;
  return {law.friction, law.static_friction.value_or(law.friction), law.weakening_velocity};
}

double closed_form_time(const VelocityLaw& law, double g, double v0, double v) {
  const double d = law.static_coefficient - law.kinetic, vc = law.weakening_velocity;
  return ((v0 - v) + vc * std::log((law.kinetic + d * std::exp(-v0 / vc)) / (law.kinetic + d * std::exp(-v / vc)))) /
         (law.kinetic * g);
}

// The first time the velocity falls to `v`, linear between the history rows around it.
double time_at_speed(const std::vector<double>& t, const std::vector<double>& velocity, double v) {
  for (std::size_t i = 1; i < t.size(); ++i)
    if (velocity[i] <= v && velocity[i - 1] > v)
      return t[i - 1] + (t[i] - t[i - 1]) * (velocity[i - 1] - v) / (velocity[i - 1] - velocity[i]);
  return std::nan("");  // never reached: the row fails
}

}  // namespace

// t(v) at five speeds along the deceleration, from 0.8 v0 to 0.1 v0 (for the decks' v_c = 0.2 v0,
// mu there has risen 61% of the way back from mu_k to mu_s), each within the 2%.
std::vector<ValidationRow> velocity_weakening_slowdown(const std::string& deck, const std::string& problem) {
  const History h = run_example(deck);
  const VelocityLaw law = law_of(h.spec);
  if (!(law.weakening_velocity > 0.0)) throw std::runtime_error(deck + ": not a velocity-weakening deck");
  const double g = h.spec.gravity.norm();
  const double v0 = h.spec.bodies[h.spec.body_index("block")].velocity.x();
  const std::vector<double> t = h.column("time"), v = h.column("velocity.block.x");
  std::vector<ValidationRow> rows;
  for (double fraction : {0.8, 0.6, 0.4, 0.2, 0.1}) {
    const double speed = fraction * v0;
    rows.push_back(compare_relative(problem, fmt::format("t(v = {:g} m/s) (s)", speed),
                                    closed_form_time(law, g, v0, speed), time_at_speed(t, v, speed), 0.02));
  }
  return rows;
}

}  // namespace tribo::app
