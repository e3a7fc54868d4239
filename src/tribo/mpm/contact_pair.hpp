#pragma once
// Contact of two velocity fields at one node: detection (contact_detection.hpp), then the contact
// law of the pair in impulse form (contact/contact_impulse.hpp, contact/interface_springs.hpp),
// then equal and opposite momentum changes. A node's fields in, momentum changes out.
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
  double interface_energy = 0.0;                 // J stored in imperfect-interface springs (this call's state)
  Vec<Dim> normal = Vec<Dim>::Zero();            // unit normal used (out of a toward b), or zero
};

// `normal` need not be unit (it is normalised); a zero or non-finite normal, two rigid fields, or a
// deformable field without mass give no contact. The law:
//   Frictionless        dp = dotn n
//   Stick               dp = s (the stick change) while in contact; separation is free
//   Coulomb             static/kinetic Coulomb with the adhesion term A Ac dt in the tangential limit
//   ImperfectInterface  springs D_n, D_t on the opening u_b - u_a (no contact detection but Vmin)
template <int Dim>
PairContactResult<Dim> resolve_contact_pair(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                            const Vec<Dim>& normal, const ContactLawSpec& law,
                                            const MpmContactSpec& detection, const NodeContext<Dim>& context,
                                            ContactStage stage);

}  // namespace tribo::mpm
