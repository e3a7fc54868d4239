#include "tribo/mpm/contact_detection.hpp"

#include <algorithm>
#include <cmath>

namespace tribo::mpm {

template <int Dim>
double reduced_mass(const ContactField<Dim>& a, const ContactField<Dim>& b) {
  if (a.rigid && b.rigid) return 0.0;
  if (b.rigid) return a.mass;
  if (a.rigid) return b.mass;
  const double total = a.mass + b.mass;
  return total > 0.0 ? a.mass * b.mass / total : 0.0;
}

template <int Dim>
Vec<Dim> stick_momentum_change(const ContactField<Dim>& a, const ContactField<Dim>& b) {
  if (a.rigid && b.rigid) return Vec<Dim>::Zero();
  if (b.rigid) return a.mass * (b.momentum / b.mass) - a.momentum;  // a takes b's imposed velocity
  if (a.rigid) return b.momentum - b.mass * (a.momentum / a.mass);  // b takes a's; b changes by -s
  // Bardenhagen et al. 2001: both fields move with the centre of mass, dp_a = (m_a / M) P - p_a.
  const double total = a.mass + b.mass;
  return (a.mass / total) * (a.momentum + b.momentum) - a.momentum;
}

template <int Dim>
Vec<Dim> stick_force_change(const ContactField<Dim>& a, const ContactField<Dim>& b) {
  if (a.rigid && b.rigid) return Vec<Dim>::Zero();
  if (b.rigid) return -a.force;  // m_a (0 - f_a / m_a)
  if (a.rigid) return b.force;   // m_b (f_b / m_b - 0)
  // NairnMPM's delta f_a = (m_a F - M f_a) / M = (m_a f_b - m_b f_a) / M.
  const double total = a.mass + b.mass;
  return (a.mass / total) * (a.force + b.force) - a.force;
}

template <int Dim>
bool passes_vmin_screen(const ContactField<Dim>& a, const ContactField<Dim>& b, double vmin,
                        double cell_volume) {
  if (!(vmin > 0.0)) return true;  // 0 turns the screen off
  return (a.volume + b.volume) / cell_volume >= vmin;
}

template <int Dim>
double perpendicular_cell_size(const Vec<Dim>& unit_normal, const Vec<Dim>& cell_size) {
  return cell_size.cwiseProduct(unit_normal).norm();
}

template <int Dim>
double separation(const ContactField<Dim>& a, const ContactField<Dim>& b, const Vec<Dim>& unit_normal,
                  const MpmContactSpec& detection, const Vec<Dim>& cell_size) {
  if (detection.position_method == ContactPositionMethod::Displacement)
    return (b.displacement - a.displacement).dot(unit_normal);
  // Position method (NairnMPM ContactPosition r > 0): the mass-weighted positions of two fields that
  // touch at a node are about a cell apart, so the cutoff r h_perp is removed from their distance.
  return (b.position - a.position).dot(unit_normal) -
         detection.position_offset * perpendicular_cell_size<Dim>(unit_normal, cell_size);
}

double extrapolated_separation(double separation_at_start, double dotn, double fn, double dt,
                               double reduced_mass) {
  if (!(reduced_mass > 0.0)) return separation_at_start;
  // (v_b - v_a).n at the end of the step is dotn / m_red and the relative acceleration fn / m_red;
  // the mean relative normal velocity over the step is (dotn - fn dt / 2) / m_red.
  return separation_at_start + dt * (dotn - 0.5 * fn * dt) / reduced_mass;
}

template <int Dim>
double contact_area(const ContactField<Dim>& a, const ContactField<Dim>& b, double perpendicular_size) {
  if (!(perpendicular_size > 0.0)) return 0.0;
  const double smaller = std::max(std::min(a.volume, b.volume), 0.0);
  const double total = std::max(a.volume + b.volume, 0.0);
  return std::sqrt(2.0 * smaller * total) / perpendicular_size;
}

template <int Dim>
ContactDetection<Dim> detect_contact(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                     const Vec<Dim>& unit_normal, const MpmContactSpec& detection,
                                     const NodeContext<Dim>& context, ContactStage stage) {
  ContactDetection<Dim> out;
  // 1. Vmin screen (the seed's first criterion).
  if (!passes_vmin_screen(a, b, detection.vmin, context.cell_volume)) {
    out.screened_out = true;
    return out;
  }
  out.reduced_mass = reduced_mass(a, b);
  if (!(out.reduced_mass > 0.0)) return out;
  out.stick_change = stick_momentum_change(a, b);
  out.dotn = out.stick_change.dot(unit_normal);
  out.separation = separation(a, b, unit_normal, detection, context.cell_size);
  if (stage == ContactStage::AfterMomentumUpdate) {
    const double fn = stick_force_change(a, b).dot(unit_normal);
    out.separation = extrapolated_separation(out.separation, out.dotn, fn, context.dt, out.reduced_mass);
  }
  // 2. Approach check: separating fields are never in contact.
  if (!approaching(out.dotn)) return out;
  // 3. Displacement check (optional in multimaterial mode).
  out.in_contact = detection.displacement_check ? out.separation < 0.0 : true;
  return out;
}

template <int Dim>
ContactDetection<Dim> detect_penalty_contact(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                             const Vec<Dim>& unit_normal, const MpmContactSpec& detection,
                                             const NodeContext<Dim>& context, ContactStage stage, double modulus) {
  ContactDetection<Dim> out;
  if (stage != ContactStage::AfterMomentumUpdate || !(modulus > 0.0)) return out;
  if (!passes_vmin_screen(a, b, detection.vmin, context.cell_volume)) {
    out.screened_out = true;
    return out;
  }
  out.reduced_mass = reduced_mass(a, b);
  if (!(out.reduced_mass > 0.0) || !(context.cell_volume > 0.0)) return out;
  const double h = perpendicular_cell_size<Dim>(unit_normal, context.cell_size);
  out.separation = -h * (a.volume + b.volume - context.cell_volume) / context.cell_volume;
  if (!(out.separation < 0.0)) return out;
  out.stick_change = stick_momentum_change(a, b);
  out.dotn = out.stick_change.dot(unit_normal);
  const double spring_time = context.dt * (modulus / h) * contact_area(a, b, h);  // dt k A
  const double push = spring_time * (-out.separation - context.dt * out.dotn / out.reduced_mass) /
                      (1.0 + spring_time * context.dt / out.reduced_mass);
  // No push (P <= 0) means the fields separate past touching within the step: the spring is empty.
  if (!(push > 0.0) || !std::isfinite(push)) return out;
  out.normal_impulse = push;
  out.in_contact = true;
  // The work the fields do on the spring over the step: its force P / dt times the closing of the
  // gap, -dt v_n' with v_n' = (s.n + P) / m_red the relative normal velocity it leaves. Summed over
  // the run this is the springs' energy, as LS-DYNA's sliding-interface energy; the state
  // k A g'^2 / 2 undercounts it where g moves slower than the bodies (a node off the interface:
  // the oblique impact dipped by 3.1% of E0 with it; docs/mpm-contact.md).
  out.spring_work = -push * (out.dotn + push) / out.reduced_mass;
  return out;
}

#define TRIBO_INSTANTIATE(D)                                                                          \
  template double reduced_mass<D>(const ContactField<D>&, const ContactField<D>&);                    \
  template Vec<D> stick_momentum_change<D>(const ContactField<D>&, const ContactField<D>&);            \
  template Vec<D> stick_force_change<D>(const ContactField<D>&, const ContactField<D>&);              \
  template bool passes_vmin_screen<D>(const ContactField<D>&, const ContactField<D>&, double, double); \
  template double perpendicular_cell_size<D>(const Vec<D>&, const Vec<D>&);                           \
  template double separation<D>(const ContactField<D>&, const ContactField<D>&, const Vec<D>&,        \
                                const MpmContactSpec&, const Vec<D>&);                                \
  template double contact_area<D>(const ContactField<D>&, const ContactField<D>&, double);            \
  template ContactDetection<D> detect_contact<D>(const ContactField<D>&, const ContactField<D>&,       \
                                                 const Vec<D>&, const MpmContactSpec&,                \
                                                 const NodeContext<D>&, ContactStage);                \
  template ContactDetection<D> detect_penalty_contact<D>(const ContactField<D>&, const ContactField<D>&, \
                                                         const Vec<D>&, const MpmContactSpec&,        \
                                                         const NodeContext<D>&, ContactStage, double);
TRIBO_INSTANTIATE(2)
TRIBO_INSTANTIATE(3)
#undef TRIBO_INSTANTIATE

}  // namespace tribo::mpm
