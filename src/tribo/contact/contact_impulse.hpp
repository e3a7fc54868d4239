#pragma once
// Contact laws in impulse form for two bodies a, b that meet at one point (an MPM node, or any
// pair whose relative motion is corrected by an equal and opposite impulse).
//
// Everything is written in terms of the stick impulse s: the change of a's momentum that gives
// a and b one common velocity (Bardenhagen et al. 2001; Nairn et al. 2018, eq. for Delta p_a):
//   s = m_red (v_b - v_a),  m_red = m_a m_b / (m_a + m_b)   (m_red = m_a when b is rigid).
// A law returns the impulse dp applied to a (b receives -dp). With the normal n (unit, out of a
// toward b), s = s_n n + s_t t with s_n = s.n (< 0 when the bodies approach) and s_t >= 0.
//
// Energy: the relative kinetic energy of the pair after an impulse dp is |s - dp|^2 / (2 m_red)
// (exact for two deformable bodies, whose total momentum dp does not change, and in the rigid
// body's frame for a rigid partner). The frictional work of a law is the kinetic energy it removes
// beyond the frictionless outcome dp = s_n n:
//   W = (|s - s_n n|^2 - |s - dp|^2) / (2 m_red) = S (2 s_t - S) / (2 m_red)
// for a tangential impulse S along t. It is exact, not a first-order estimate; NairnMPM's heating
// S (s_t - S) / m_red is the work of the sliding force over the relative slide and differs from it
// by S^2 / (2 m_red), the kinetic energy of the relative tangential velocity the friction removes.
#include "tribo/contact/coulomb_friction.hpp"
#include "tribo/contact/velocity_weakening_friction.hpp"
#include "tribo/core/types.hpp"

namespace tribo::contact {

// The stick impulse resolved along a unit normal: s = normal * n + tangential * tangent.
template <int Dim>
struct ImpulseSplit {
  double normal = 0.0;                      // s . n, N s (< 0: approaching)
  double tangential = 0.0;                  // |s - (s.n) n| >= 0, N s
  Vec<Dim> tangent = Vec<Dim>::Zero();      // unit, or zero when there is no tangential part
};

template <int Dim>
ImpulseSplit<Dim> split_impulse(const Vec<Dim>& stick, const Vec<Dim>& unit_normal);

// The impulse a law applies to a, its tangential part, and the energy it dissipates by friction.
template <int Dim>
struct ImpulseOutcome {
  Vec<Dim> impulse = Vec<Dim>::Zero();  // dp on a, N s (b gets -dp)
  double tangential = 0.0;              // S, the tangential impulse transmitted, N s
  double frictional_work = 0.0;         // W >= 0, J
  bool sticking = false;                // the tangential stick impulse was transmitted in full
};

// W = S (2 s_t - S) / (2 m_red): the kinetic energy removed by a tangential impulse S beyond the
// frictionless outcome (see above). Zero when m_red <= 0.
double tangential_dissipation(double stick_tangential, double applied_tangential, double reduced_mass);

// Frictionless: dp = s_n n (only the normal approach is stopped).
template <int Dim>
ImpulseOutcome<Dim> frictionless_impulse(const ImpulseSplit<Dim>& split, const Vec<Dim>& unit_normal);

// Stick: dp = s (a and b leave with one velocity); W = s_t^2 / (2 m_red).
template <int Dim>
ImpulseOutcome<Dim> stick_impulse(const ImpulseSplit<Dim>& split, const Vec<Dim>& unit_normal,
                                  double reduced_mass);

// Coulomb with static/kinetic coefficients and adhesion: the normal impulse N dt = -s_n, the
// tangential limit from CoulombFriction::resolve with area = Ac dt (m^2 s); dp = s_n n + S t.
// Any friction law of contact/ in impulse form: the normal impulse N dt = -s_n, the tangential
// limit from law.resolve(N dt, s_t, Ac dt, v) with v = s_t / m_red the trial relative tangential
// speed (the relative tangential velocity without the impulse; velocity_weakening_friction.hpp);
// dp = s_n n + S t. The Coulomb law ignores v (coulomb_impulse is this with CoulombFriction).
template <int Dim, class Law>
ImpulseOutcome<Dim> friction_impulse(const ImpulseSplit<Dim>& split, const Vec<Dim>& unit_normal, const Law& law,
                                     double area_time, double reduced_mass) {
  const double slip_speed = reduced_mass > 0.0 ? split.tangential / reduced_mass : 0.0;
  const TangentialResponse response = law.resolve(-split.normal, split.tangential, area_time, slip_speed);
  ImpulseOutcome<Dim> out;
  out.tangential = response.magnitude;
  out.sticking = response.sticking;
  out.impulse = split.normal * unit_normal + out.tangential * split.tangent;
  out.frictional_work = tangential_dissipation(split.tangential, out.tangential, reduced_mass);
  return out;
}

template <int Dim>
ImpulseOutcome<Dim> coulomb_impulse(const ImpulseSplit<Dim>& split, const Vec<Dim>& unit_normal,
                                    const CoulombFriction& friction, double area_time, double reduced_mass);

}  // namespace tribo::contact
