#include "tribo/mpm/contact_pair.hpp"

#include <cmath>

#include "tribo/contact/contact_impulse.hpp"
#include "tribo/contact/coulomb_friction.hpp"
#include "tribo/contact/interface_springs.hpp"
#include "tribo/contact/velocity_weakening_friction.hpp"

namespace tribo::mpm {

namespace {

template <int Dim>
bool has_mass(const ContactField<Dim>& f) {
  return f.mass > 0.0 && std::isfinite(f.mass);
}

// Imperfect interface (Nairn 2013): no approach or separation check, the springs act on the
// opening u_b - u_a in every state. Their force enters once a step, in the momentum update
// (NairnMPM adds the interface force in the update call only). A direction whose spring is too
// stiff for the step is bonded perfectly instead: the stick change along it, in both stages.
template <int Dim>
contact::ImpulseOutcome<Dim> interface_impulse(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                               const Vec<Dim>& n, const ContactLawSpec& law,
                                               const NodeContext<Dim>& context, ContactStage stage,
                                               double& stored_energy) {
  const double mred = reduced_mass(a, b);
  const contact::ImpulseSplit<Dim> split = contact::split_impulse<Dim>(stick_momentum_change(a, b), n);
  const double area = contact_area(a, b, perpendicular_cell_size<Dim>(n, context.cell_size));
  const contact::InterfaceSprings springs{law.normal_stiffness, law.tangential_stiffness};
  const bool normal_spring = contact::spring_is_resolved(springs.normal_stiffness, area, context.dt, mred);
  const bool tangential_spring = contact::spring_is_resolved(springs.tangential_stiffness, area, context.dt, mred);

  contact::ImpulseOutcome<Dim> out;
  if (!normal_spring) out.impulse += split.normal * n;
  if (!tangential_spring) out.impulse += split.tangential * split.tangent;
  stored_energy = 0.0;
  if (stage == ContactStage::AfterMomentumUpdate) {
    const contact::InterfaceTraction<Dim> traction =
        contact::interface_traction<Dim>(springs, Vec<Dim>(b.displacement - a.displacement), n, area);
    const double opening_n = (b.displacement - a.displacement).dot(n);
    if (normal_spring) {
      out.impulse += context.dt * traction.normal_force;
      stored_energy += 0.5 * area * springs.normal_stiffness * opening_n * opening_n;
    }
    if (tangential_spring) {
      out.impulse += context.dt * traction.tangential_force;
      stored_energy += traction.energy - 0.5 * area * springs.normal_stiffness * opening_n * opening_n;
    }
  }
  return out;
}

double adhesion_of(const contact::CoulombFriction& law) { return law.adhesion; }
double adhesion_of(const contact::VelocityWeakeningFriction& law) { return law.limits.adhesion; }

// A friction law of contact/ (CoulombFriction, VelocityWeakeningFriction) at a node in contact.
template <int Dim, class Law>
contact::ImpulseOutcome<Dim> friction_outcome(const Law& friction, const ContactField<Dim>& a,
                                              const ContactField<Dim>& b, const Vec<Dim>& n,
                                              const contact::ImpulseSplit<Dim>& split,
                                              const ContactDetection<Dim>& found, const NodeContext<Dim>& context,
                                              const Vec<Dim>* surface_offset) {
  if (friction.frictionless()) return contact::frictionless_impulse<Dim>(split, n);
  // The adhesion term is a stress: it needs the contact area (times dt for an impulse).
  const double area_time =
      adhesion_of(friction) > 0.0
          ? contact_area(a, b, perpendicular_cell_size<Dim>(n, context.cell_size)) * context.dt
          : 0.0;
  if (surface_offset == nullptr)
    return contact::friction_impulse<Dim>(split, n, friction, area_time, found.reduced_mass);
  // Slip at the surface: the tangential stick change is m_red times the relative velocity at
  // the surface points; the normal part (hence N) stays the node's.
  const double mred = found.reduced_mass;
  contact::ImpulseSplit<Dim> at_surface =
      contact::split_impulse<Dim>(Vec<Dim>(found.stick_change + mred * *surface_offset), n);
  at_surface.normal = split.normal;
  contact::ImpulseOutcome<Dim> outcome = contact::friction_impulse<Dim>(at_surface, n, friction, area_time, mred);
  // The impulse acts at the node: the work is the kinetic energy the tangential impulse S t
  // removes from the node's relative motion, S (2 s.t - S) / (2 m_red) with the node's stick
  // change s (docs/mpm-contact.md), so that the energy balance closes as with node slip.
  outcome.frictional_work =
      contact::tangential_dissipation(found.stick_change.dot(at_surface.tangent), outcome.tangential, mred);
  return outcome;
}

}  // namespace

template <int Dim>
PairContactResult<Dim> resolve_contact_pair(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                            const Vec<Dim>& normal, const ContactLawSpec& law,
                                            const MpmContactSpec& detection, const NodeContext<Dim>& context,
                                            ContactStage stage, std::optional<double> slip_since_stick,
                                            const Vec<Dim>* surface_offset, double penalty_modulus) {
  PairContactResult<Dim> result;
  const double length = normal.norm();
  if (!(length > 0.0) || !std::isfinite(length)) return result;  // no normal: NairnMPM skips the node
  const Vec<Dim> n = normal / length;
  result.normal = n;
  if (a.rigid && b.rigid) return result;  // nothing can move
  if (!has_mass(a) || !has_mass(b)) return result;

  contact::ImpulseOutcome<Dim> outcome;
  if (law.law == ContactLaw::ImperfectInterface) {
    if (!passes_vmin_screen(a, b, detection.vmin, context.cell_volume)) return result;
    outcome = interface_impulse<Dim>(a, b, n, law, context, stage, result.interface_energy);
  } else {
    const bool penalty = penalty_modulus > 0.0;
    const ContactDetection<Dim> found = penalty ? detect_penalty_contact<Dim>(a, b, n, detection, context, stage, penalty_modulus)
                                                : detect_contact<Dim>(a, b, n, detection, context, stage);
    if (!found.in_contact) return result;
    result.interface_energy = found.spring_work;
    contact::ImpulseSplit<Dim> split = contact::split_impulse<Dim>(found.stick_change, n);
    // The laws read the normal impulse as -split.normal (the stop of the approach): the push here.
    if (penalty) split.normal = -found.normal_impulse;
    switch (law.law) {
      case ContactLaw::Frictionless:
        outcome = contact::frictionless_impulse<Dim>(split, n);
        break;
      case ContactLaw::Stick:
        // Stick acts only while in contact (approaching and overlapping); separation is free, as
        // NairnMPM's stick law ("Contact by stick conditions, separation is free").
        outcome = contact::stick_impulse<Dim>(split, n, found.reduced_mass);
        break;
      case ContactLaw::VelocityWeakening:
        // mu(v) from the trial slip speed; no slip-weakening history (the law has its own decline).
        outcome = friction_outcome<Dim>(contact::VelocityWeakeningFriction::from_spec(law), a, b, n, split, found,
                                        context, surface_offset);
        break;
      case ContactLaw::Coulomb:
      default: {
        contact::CoulombFriction friction = contact::CoulombFriction::from_spec(law);
        if (slip_since_stick)
          friction = friction.after_slip(*slip_since_stick, slip_weakening_distance<Dim>(law, context.cell_size));
        outcome = friction_outcome<Dim>(friction, a, b, n, split, found, context, surface_offset);
        break;
      }
    }
  }
  result.in_contact = true;
  result.sticking = outcome.sticking;
  result.frictional_work = outcome.frictional_work;
  // The impulse is the change of a; b gets exactly its negative. A rigid field keeps its imposed
  // velocity (its infinite mass absorbs the change).
  if (!a.rigid) result.momentum_change_a = outcome.impulse;
  if (!b.rigid) result.momentum_change_b = -outcome.impulse;
  return result;
}

template PairContactResult<2> resolve_contact_pair<2>(const ContactField<2>&, const ContactField<2>&, const Vec<2>&,
                                                      const ContactLawSpec&, const MpmContactSpec&,
                                                      const NodeContext<2>&, ContactStage,
                                                      std::optional<double>, const Vec<2>*, double);
template PairContactResult<3> resolve_contact_pair<3>(const ContactField<3>&, const ContactField<3>&, const Vec<3>&,
                                                      const ContactLawSpec&, const MpmContactSpec&,
                                                      const NodeContext<3>&, ContactStage,
                                                      std::optional<double>, const Vec<3>*, double);

}  // namespace tribo::mpm
