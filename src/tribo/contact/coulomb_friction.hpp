#pragma once
// Coulomb friction with a static and a kinetic coefficient and the binomial adhesion term of the
// seed (f = mu N + A): the law shared by MPM (impulse form, one node and one step) and PD (force
// form, one contact bond). Every quantity here is a magnitude; the callers own the directions.
//
// The same arithmetic serves both forms because the impulse form is the force form times dt:
// MPM passes the normal impulse N dt and the area-time Ac dt, PD passes the normal force N and the
// area Ac. Sources: Bardenhagen et al. 2001 (CMES 2:509, frictional contact in MPM);
// Nairn, Bardenhagen and Smith 2018 (Comput. Part. Mech. 5:285, S_slide = mu N + S_a); NairnMPM
// CoulombFriction and AdhesionFriction laws (static check before the kinetic one).
#include <optional>

#include "tribo/core/simulation_spec.hpp"

namespace tribo::contact {

// What the tangential limit did to a trial (stick) tangential load.
struct TangentialResponse {
  double magnitude = 0.0;  // tangential force (or impulse) actually transmitted, >= 0
  bool sticking = false;   // true: the stick load was transmitted in full
};

struct CoulombFriction {
  double kinetic = 0.0;             // mu_k, sliding coefficient
  double static_coefficient = 0.0;  // mu_s >= mu_k (a smaller value is raised to mu_k)
  double adhesion = 0.0;            // A, Pa: shear strength of the bond per unit contact area

  // From a contact pair of the deck; an empty static_friction means mu_s = mu_k.
  static CoulombFriction from_spec(const ContactLawSpec& spec);
  static CoulombFriction from_coefficients(double kinetic, std::optional<double> static_coefficient,
                                           double adhesion);

  bool frictionless() const { return kinetic <= 0.0 && static_coefficient <= 0.0 && adhesion <= 0.0; }

  // mu_k N + A Ac: the most the interface carries while sliding. `normal` is the compressive
  // normal load (N or N dt); tension (normal < 0) transmits no friction, only adhesion.
  double kinetic_limit(double normal, double area) const;
  // mu_s N + A Ac: the most the interface carries without starting to slide.
  double static_limit(double normal, double area) const;

  // Impulse/force form of the Coulomb decision (Nairn et al. 2018; NairnMPM CoulombFriction):
  // stick when the trial load is within the static limit, otherwise slide at the kinetic limit.
  // With mu_s >= mu_k the sliding load is always below the trial load, so sliding never reverses
  // the relative tangential motion.
  TangentialResponse resolve(double normal, double trial_tangential, double area) const;
  // The same for callers generic over the friction law (contact_impulse.hpp friction_impulse):
  // Coulomb's second law, the slip speed does not matter.
  TangentialResponse resolve(double normal, double trial_tangential, double area, double /*slip_speed*/) const {
    return resolve(normal, trial_tangential, area);
  }

  // Linear slip-weakening (Ida 1972, J. Geophys. Res. 77:3796; Palmer and Rice 1973, Proc. R.
  // Soc. A 332:527): after a slip `slip` since the interface last stuck, both limits are
  // mu(slip) = mu_s - (mu_s - mu_k) min(slip / D_c, 1), D_c = `weakening_distance`. A sharp drop
  // (D_c = 0) gives zero fracture energy to the stick-slip front, so a slip that starts at one
  // over-stressed node runs across the whole interface; D_c > 0 gives it the energy
  // (mu_s - mu_k) N D_c / 2 per unit area. D_c <= 0, or mu_s = mu_k, returns the law unchanged.
  CoulombFriction after_slip(double slip, double weakening_distance) const;

  // Force form with a viscous regularisation for explicit PD (no trial stick force is known):
  // F = (mu_k N + A Ac) min(|v_slip| / v_reg, 1); v_reg = 0 gives the sharp Coulomb law
  // (full kinetic force at any non-zero slip speed, none at zero).
  double regularized_force(double normal, double area, double slip_speed,
                           double regularization_velocity) const;
};

}  // namespace tribo::contact
