#pragma once
// Contact of two velocity fields at one node: detection (contact_detection.hpp), then the contact
// law of the pair in impulse form (contact/contact_impulse.hpp, contact/interface_springs.hpp),
// then equal and opposite momentum changes. A node's fields in, momentum changes out.
#include <optional>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/core/types.hpp"
#include "tribo/mpm/contact_detection.hpp"

namespace tribo::mpm {

template <int Dim>
struct PairContactResult {
  bool in_contact = false;                       // the law acted at this node
  bool sticking = false;                         // no relative tangential motion after the change
  Vec<Dim> momentum_change_a = Vec<Dim>::Zero(); // N s; zero when a is rigid
  Vec<Dim> momentum_change_b = Vec<Dim>::Zero(); // N s; exactly -momentum_change_a for two deformable
                                                 // fields, zero when b is rigid
  double frictional_work = 0.0;                  // J dissipated by the tangential slide this call
  double interface_energy = 0.0;                 // J stored in imperfect-interface springs (this call's
                                                 // state); with the penalty law, the work done on its
                                                 // spring this step (momentum-update stage)
  Vec<Dim> normal = Vec<Dim>::Zero();            // unit normal used (out of a toward b), or zero
};

// `normal` need not be unit (it is normalised); a zero or non-finite normal, two rigid fields, or a
// deformable field without mass give no contact. The law:
//   Frictionless        dp = dotn n
//   Stick               dp = s (the stick change) while in contact; separation is free
//   Coulomb             static/kinetic Coulomb with the adhesion term A Ac dt in the tangential limit;
//                       with `slip_since_stick` (m, the node's slip since it last stuck) and
//                       mu_s > mu_k, the coefficient weakens linearly from mu_s to mu_k over the
//                       law's slip_weakening_distance (CoulombFriction::after_slip); without it the
//                       drop is sharp (stick below mu_s N, slide at mu_k N)
//   ImperfectInterface  springs D_n, D_t on the opening u_b - u_a (no contact detection but Vmin)
//   VelocityWeakening   as Coulomb, sliding at mu(v) N + A Ac dt with v the trial relative
//                       tangential speed (contact/velocity_weakening_friction.hpp); no slip history
// With `penalty_modulus` > 0 (the penalty normal law: detect_penalty_contact) the normal impulse is
// the penalty's push P in place of the stop -s.n, and the friction laws take N dt = P.
// With `surface_offset` (Coulomb only; contact_moments.hpp) the tangential part of the law sees the
// relative velocity at the surface, (v_b - v_a) + surface_offset, where surface_offset is the
// difference of the two fields' velocity offsets from node to surface point (b's minus a's): it
// sticks when the surfaces move together, and slides along their relative tangential velocity
// there. The detection, the normal impulse and the point of action stay the node's, so the
// frictional work is the kinetic energy the tangential impulse removes at the node (below).
template <int Dim>
PairContactResult<Dim> resolve_contact_pair(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                            const Vec<Dim>& normal, const ContactLawSpec& law,
                                            const MpmContactSpec& detection, const NodeContext<Dim>& context,
                                            ContactStage stage,
                                            std::optional<double> slip_since_stick = std::nullopt,
                                            const Vec<Dim>* surface_offset = nullptr, double penalty_modulus = 0.0);

// D_c of a Coulomb law: its slip_weakening_distance, or 0.01 of the smallest cell size when the
// deck gives none (docs/mpm-contact.md, "Static friction": large enough that a slip at one
// over-stressed node does not run across a held interface, small enough that a block that must
// slide starts to within a few percent as with a sharp drop).
template <int Dim>
double slip_weakening_distance(const ContactLawSpec& law, const Vec<Dim>& cell_size) {
  return law.slip_weakening_distance.value_or(0.01 * cell_size.minCoeff());
}

}  // namespace tribo::mpm
