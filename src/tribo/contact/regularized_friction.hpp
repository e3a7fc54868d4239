#pragma once
// Force form of the shared Coulomb law for explicit solvers (PD contact bonds), where no trial
// stick force is known and friction must be a function of the slip speed alone. The viscous
// regularisation of the seed (document 002, eq. 6; Kamensky et al. 2019) ramps the force up to
// the limit over a speed v_reg; here the ramp rises to the *static* limit and the force then
// relaxes to the kinetic one, so that Coulomb's third law (static above kinetic) holds:
//   |v| <= v_reg:           F = (mu_s N + A Ac) |v| / v_reg
//   v_reg < |v| < 2 v_reg:  F from mu_s N + A Ac down to mu_k N + A Ac, linearly in |v|
//   |v| >= 2 v_reg:         F = mu_k N + A Ac   (kinetic: independent of the sliding speed)
// With mu_s = mu_k this is exactly CoulombFriction::regularized_force (seed eq. 6). v_reg = 0 is
// the sharp law: the kinetic force at any non-zero slip speed, none at zero.
#include "tribo/contact/coulomb_friction.hpp"

namespace tribo::contact {

// Magnitude of the friction force (N) opposing a slip of speed |slip_speed| (m/s) under the
// compressive normal force `normal` (N; tension transmits no friction) over the contact area
// `area` (m^2, for the adhesion A).
double regularized_friction_force(const CoulombFriction& law, double normal, double area,
                                  double slip_speed, double regularization_velocity);

// The friction force of one explicit time step. `stick_force` (N) is the force that would bring
// the slip to rest within the step (effective mass times slip speed over dt): no friction force
// may exceed it, or it would reverse the slip and, with a steep regularisation (mu N / v_reg
// against m / dt), make the contact chatter and gain energy. With v_reg > 0 the result is
// min(regularized_friction_force, stick_force); with v_reg = 0 it is Coulomb's stick/slip
// decision of CoulombFriction::resolve (stick while the stick force is within mu_s N + A Ac,
// else slide at mu_k N + A Ac), the force form of the MPM impulse law.
double step_friction_force(const CoulombFriction& law, double normal, double area,
                           double slip_speed, double regularization_velocity, double stick_force);

}  // namespace tribo::contact
