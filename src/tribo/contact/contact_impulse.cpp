#include "tribo/contact/contact_impulse.hpp"

#include <cmath>

namespace tribo::contact {

template <int Dim>
ImpulseSplit<Dim> split_impulse(const Vec<Dim>& stick, const Vec<Dim>& unit_normal) {
  ImpulseSplit<Dim> split;
  split.normal = stick.dot(unit_normal);
  const Vec<Dim> tangential = stick - split.normal * unit_normal;
  split.tangential = tangential.norm();
  if (split.tangential > 0.0) split.tangent = tangential / split.tangential;
  return split;
}

double tangential_dissipation(double stick_tangential, double applied_tangential, double reduced_mass) {
  if (!(reduced_mass > 0.0)) return 0.0;
  // Closed form of (s_t^2 - (s_t - S)^2) / (2 m_red), free of the cancellation of the difference.
  return applied_tangential * (2.0 * stick_tangential - applied_tangential) / (2.0 * reduced_mass);
}

template <int Dim>
ImpulseOutcome<Dim> frictionless_impulse(const ImpulseSplit<Dim>& split, const Vec<Dim>& unit_normal) {
  ImpulseOutcome<Dim> out;
  out.impulse = split.normal * unit_normal;
  out.sticking = split.tangential == 0.0;
  return out;
}

template <int Dim>
ImpulseOutcome<Dim> stick_impulse(const ImpulseSplit<Dim>& split, const Vec<Dim>& unit_normal,
                                  double reduced_mass) {
  ImpulseOutcome<Dim> out;
  out.impulse = split.normal * unit_normal + split.tangential * split.tangent;
  out.tangential = split.tangential;
  out.frictional_work = tangential_dissipation(split.tangential, split.tangential, reduced_mass);
  out.sticking = true;
  return out;
}

template <int Dim>
ImpulseOutcome<Dim> coulomb_impulse(const ImpulseSplit<Dim>& split, const Vec<Dim>& unit_normal,
                                    const CoulombFriction& friction, double area_time, double reduced_mass) {
  // Nairn et al. 2018 / NairnMPM CoulombFriction: normal impulse N dt = -s_n (> 0 in contact);
  // stick if s_t <= mu_s N dt + A Ac dt, else slide with S = mu_k N dt + A Ac dt.
  return friction_impulse<Dim>(split, unit_normal, friction, area_time, reduced_mass);
}

template ImpulseSplit<2> split_impulse<2>(const Vec<2>&, const Vec<2>&);
template ImpulseSplit<3> split_impulse<3>(const Vec<3>&, const Vec<3>&);
template ImpulseOutcome<2> frictionless_impulse<2>(const ImpulseSplit<2>&, const Vec<2>&);
template ImpulseOutcome<3> frictionless_impulse<3>(const ImpulseSplit<3>&, const Vec<3>&);
template ImpulseOutcome<2> stick_impulse<2>(const ImpulseSplit<2>&, const Vec<2>&, double);
template ImpulseOutcome<3> stick_impulse<3>(const ImpulseSplit<3>&, const Vec<3>&, double);
template ImpulseOutcome<2> coulomb_impulse<2>(const ImpulseSplit<2>&, const Vec<2>&, const CoulombFriction&,
                                              double, double);
template ImpulseOutcome<3> coulomb_impulse<3>(const ImpulseSplit<3>&, const Vec<3>&, const CoulombFriction&,
                                              double, double);

}  // namespace tribo::contact
