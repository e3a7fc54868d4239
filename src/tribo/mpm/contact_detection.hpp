#pragma once
// Contact detection at one node for two velocity fields a and b (NairnMPM multimaterial mode; the
// seed document "Detecting Contact"; Nairn, Bardenhagen and Smith 2018, Comput. Part. Mech. 5:285).
// In the seed's order: (1) Vmin screen on the nodal volume, (2) approach check on the normal
// component of the stick momentum change, (3) if enabled, the displacement (ContactPosition) check
// on the normal separation of the two fields. Pure functions: a node's fields in, a verdict out.
#include "tribo/core/simulation_spec.hpp"
#include "tribo/core/types.hpp"

namespace tribo::mpm {

// One velocity field at one node, extrapolated from its particles p with shape functions S.
template <int Dim>
struct ContactField {
  double mass = 0.0;                            // sum S m_p, kg (rigid: any positive weight)
  Vec<Dim> momentum = Vec<Dim>::Zero();         // sum S m_p v_p, kg m/s (rigid: momentum/mass = imposed velocity)
  double volume = 0.0;                          // sum S V_p, deformed, m^3 (2D: times the thickness)
  Vec<Dim> volume_gradient = Vec<Dim>::Zero();  // sum V_p grad S, m^2 (2D: times thickness); points out of the field
  Vec<Dim> mass_gradient = Vec<Dim>::Zero();    // sum m_p grad S, kg/m
  Vec<Dim> displacement = Vec<Dim>::Zero();     // sum S m_p u_p / mass, m
  Vec<Dim> position = Vec<Dim>::Zero();         // sum S m_p x_p / mass, m
  bool rigid = false;                           // velocity imposed: infinite mass in contact
  // Total nodal force (internal + external) that the momentum update of this step applied to the
  // field, N. Used only in the AfterMomentumUpdate stage to extrapolate the separation to the end
  // of the step; leave zero otherwise (the extrapolation is then first order, as NairnMPM's).
  Vec<Dim> force = Vec<Dim>::Zero();
};

template <int Dim>
struct NodeContext {
  Vec<Dim> cell_size = Vec<Dim>::Ones();  // m per direction (rectangular cells allowed)
  double cell_volume = 1.0;               // m^3 (2D: cell area times the thickness)
  double dt = 0.0;                        // s, the step
};

// The two calls of contact in a step (NairnMPM applies it a third time in the USL+/MUSL
// re-extrapolation, which is AfterExtrapolation again).
enum class ContactStage { AfterExtrapolation, AfterMomentumUpdate };

// m_red = m_a m_b / (m_a + m_b); m_a when b is rigid, m_b when a is rigid; 0 when both are.
template <int Dim>
double reduced_mass(const ContactField<Dim>& a, const ContactField<Dim>& b);

// The stick change s of a's momentum that gives both fields one velocity (b receives -s):
// s = (m_a / M) P - p_a for two deformable fields (Bardenhagen et al. 2001), m_a v_b - p_a with a
// rigid b, and p_b - m_b v_a with a rigid a (the change of b is then -s). In every case
// s = m_red (v_b - v_a).
template <int Dim>
Vec<Dim> stick_momentum_change(const ContactField<Dim>& a, const ContactField<Dim>& b);

// The stick change of the force, m_red (f_b/m_b - f_a/m_a) (a rigid field has no acceleration):
// the relative acceleration of b with respect to a is this over m_red.
template <int Dim>
Vec<Dim> stick_force_change(const ContactField<Dim>& a, const ContactField<Dim>& b);

// The seed's screen: the node is skipped when (V_a + V_b) / V_cell < vmin; vmin = 0 turns it off.
template <int Dim>
bool passes_vmin_screen(const ContactField<Dim>& a, const ContactField<Dim>& b, double vmin,
                        double cell_volume);

// The surfaces approach when dotn = s.n < 0 (equivalently (v_b - v_a).n < 0).
inline bool approaching(double dotn) { return dotn < 0.0; }

// h_perp, the cell size along n on a rectangular grid: sqrt(sum_d (h_d n_d)^2).
template <int Dim>
double perpendicular_cell_size(const Vec<Dim>& unit_normal, const Vec<Dim>& cell_size);

// The normal separation of b from a at the start of the step (NairnMPM ContactPosition):
//   displacement method: (u_b - u_a).n (surfaces that start in contact);
//   position method:     (x_b - x_a).n - offset h_perp.
// Negative means overlap.
template <int Dim>
double separation(const ContactField<Dim>& a, const ContactField<Dim>& b, const Vec<Dim>& unit_normal,
                  const MpmContactSpec& detection, const Vec<Dim>& cell_size);

// The separation at the end of the step, from the start-of-step separation and the updated
// momenta: deln + dt (dotn - fn dt / 2) / m_red, fn = stick_force_change . n (constant relative
// acceleration over the step: the mean relative velocity is the end velocity minus a dt / 2).
double extrapolated_separation(double separation_at_start, double dotn, double fn, double dt,
                               double reduced_mass);

// The contact area at the node for linear shape functions (Nairn et al. 2018; NairnMPM
// GetContactArea): Ac = sqrt(2 min(V_a, V_b) (V_a + V_b)) / h_perp. For V_a = V_b = V_cell / 2 it
// is V_cell / h_perp, the area of the node's tributary face, in 2D (times the thickness carried
// by the volumes) and in 3D alike, so the same form is used in both.
template <int Dim>
double contact_area(const ContactField<Dim>& a, const ContactField<Dim>& b, double perpendicular_size);

// Everything the detection found, for the law and for tests.
template <int Dim>
struct ContactDetection {
  bool in_contact = false;
  bool screened_out = false;                 // failed the Vmin screen (nothing else was computed)
  double reduced_mass = 0.0;                 // kg
  Vec<Dim> stick_change = Vec<Dim>::Zero();  // s, N s
  double dotn = 0.0;                         // s.n, N s
  double separation = 0.0;                   // m, extrapolated in the AfterMomentumUpdate stage
  double normal_impulse = 0.0;               // N s, the penalty law's push (detect_penalty_contact)
  double spring_work = 0.0;                  // J, work done on the penalty spring this step
};

// Penalty normal law (MpmContactSpec::normal_law): the overlap of the two fields' nodal volumes,
// V_a + V_b - V_cell, read as a penetration g = -h_perp (V_a + V_b - V_cell) / V_cell (exact for two
// flat faces on any lattice offset with uGIMP: a touching pair fills the node's support exactly),
// and the normal impulse of a spring k = modulus / h_perp per unit of the contact area, integrated
// by backward Euler over the step so that it is stable for any node mass:
//   P = dt k A (-g - dt v_n) / (1 + dt^2 k A / m_red),  v_n = s.n / m_red (< 0 approaching).
// It acts in the momentum-update stage only (a force, once a step), approaching or not; none in the
// extrapolation stage. `normal_impulse` is P (> 0 pushes the fields apart); `separation` is g;
// `spring_work` the work done on the spring over the step, -P (s.n + P) / m_red (its energy when
// summed over the run).
template <int Dim>
ContactDetection<Dim> detect_penalty_contact(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                             const Vec<Dim>& unit_normal, const MpmContactSpec& detection,
                                             const NodeContext<Dim>& context, ContactStage stage, double modulus);

// Vmin screen -> approach check -> (if detection.displacement_check) separation < 0.
// Requires a unit normal and at most one rigid field with positive masses.
template <int Dim>
ContactDetection<Dim> detect_contact(const ContactField<Dim>& a, const ContactField<Dim>& b,
                                     const Vec<Dim>& unit_normal, const MpmContactSpec& detection,
                                     const NodeContext<Dim>& context, ContactStage stage);

}  // namespace tribo::mpm
