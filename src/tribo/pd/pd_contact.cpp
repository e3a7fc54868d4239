#include "tribo/pd/pd_contact.hpp"

#include <algorithm>
#include <cmath>

#include "tribo/core/option_descriptors.hpp"
#include "tribo/pd/short_range_force.hpp"
#include "tribo/pd/slip_history.hpp"

namespace tribo::pd {

namespace {
// Skin of the Verlet list in units of the contact radius.
constexpr double skin_fraction = 0.5;
// LAMMPS PERI (fix PERI_NEIGH / pair peri): d = min(0.9 |X_p - X_i|, 1.35 lc).
constexpr double lammps_radius_factor = 0.9;
constexpr double lammps_radius_cap = 1.35;
// The contact dashpot (smoothed model): critical (zeta = 1) for a body bouncing on its contact
// springs, at most a quarter of the rate m_p / dt that would stop a point's approach within one
// step. The step, with the dashpot at the half-step velocity, is stable for C = c dt / m <
// 2 - (omega dt)^2 / 2 and overshoots (the velocity reverses each step) above C = 1; two
// deformable points at 1/4 each give their pair C = 1 on the reduced mass (docs/pd-friction.md,
// "The contact dashpot"; tests/pd/contact_dashpot_test.cpp).
constexpr double damping_ratio = 1.0;
constexpr double damping_step_fraction = 0.25;
// Springs between the fragments of one body (smoothed model): LAMMPS' peri short-range constant
// 15 c / delta (Parks et al. 2008), the pairwise model's default.
constexpr double fragment_stiffness_units = 15.0;
}  // namespace

template <int Dim>
bool PdContact<Dim>::needed(const std::vector<ContactBody>& bodies) {
  int deformable = 0;
  for (const ContactBody& b : bodies) {
    if (!b.rigid && b.breakable) return true;
    deformable += b.rigid ? 0 : 1;
  }
  return deformable > 0 && bodies.size() > 1;
}

// The list's cutoff: the kernel support R (smoothed), d (pairwise), or LAMMPS' largest d, 1.35 h.
double list_radius(const PdSpec& pd) {
  if (pd.contact.model == PdContactModel::Pairwise &&
      pd.contact.radius_rule == PdContactRadiusRule::Lammps)
    return lammps_radius_cap * pd.spacing;
  return radius_in_spacings(pd.contact) * pd.spacing;
}

template <int Dim>
PdContact<Dim>::PdContact(const PdSpec& pd, const std::vector<ContactBody>& bodies,
                          int material_count, double cell_volume)
    : radius_(list_radius(pd)),
      spacing_(pd.spacing),
      model_(pd.contact.friction_model),
      contact_model_(pd.contact.model),
      lammps_radius_(pd.contact.model == PdContactModel::Pairwise &&
                     pd.contact.radius_rule == PdContactRadiusRule::Lammps),
      cell_volume_(cell_volume > 0.0 ? cell_volume : std::pow(pd.spacing, Dim)),
      body_count_(static_cast<int>(bodies.size())),
      material_count_(material_count),
      bodies_(bodies),
      list_(list_radius(pd), skin_fraction * list_radius(pd)) {
  if (contact_model_ == PdContactModel::Smoothed)
    calibration_ = calibrate_smoothed_surface<Dim>(radius_in_spacings(pd.contact));
  const ContactLawSpec& friction_law = pd.contact.law;
  law_.coulomb = contact::CoulombFriction::from_coefficients(
      friction_law.friction, friction_law.static_friction, friction_law.adhesion);
  law_.regularization_velocity = pd.contact.regularization_velocity;
  if (model_ == FrictionModel::None) law_.coulomb = contact::CoulombFriction{};
  law_.exact_stick = law_.coulomb.static_coefficient > law_.coulomb.kinetic;
  // velocity-weakening: mu falls from mu_s with the slip speed, not with a slip history.
  if (friction_law.law == ContactLaw::VelocityWeakening)
    law_.weakening_velocity = friction_law.weakening_velocity;
  if (law_.exact_stick && !(law_.weakening_velocity > 0.0))
    weakening_distance_ = friction_law.slip_weakening_distance.value_or(pd.spacing);

  const double horizon = pd.horizon * pd.spacing;
  pair_stiffness_.assign(static_cast<std::size_t>(body_count_) * body_count_, 0.0);
  for (int a = 0; a < body_count_; ++a)
    for (int b = 0; b < body_count_; ++b)
      pair_stiffness_[a * body_count_ + b] =
          stiffness_in_units(pd.contact) *
          pair_micromodulus(bodies_[a].micromodulus, bodies_[b].micromodulus) / horizon;
  fragment_stiffness_.assign(static_cast<std::size_t>(body_count_), 0.0);
  for (int a = 0; a < body_count_; ++a)
    fragment_stiffness_[a] = fragment_stiffness_units *
                             pair_micromodulus(bodies_[a].micromodulus, bodies_[a].micromodulus) / horizon;
  for (const ContactBody& b : bodies_)
    point_stiffness_.push_back(
        b.rigid ? 0.0 : stiffness_in_units(pd.contact) * b.micromodulus / horizon);
  for (const ContactBody& b : bodies_) {
    eligibility_.rigid.push_back(b.rigid ? 1 : 0);
    eligibility_.self_contact.push_back(!b.rigid && b.breakable ? 1 : 0);
  }
  totals_.assign(static_cast<std::size_t>(material_count_) * material_count_, Vec<Dim>::Zero());
}

template <int Dim>
void PdContact<Dim>::add_forces(const ContactState<Dim>& state, std::span<Vec<Dim>> force) {
  if (list_.needs_rebuild(state.position))
    list_.build(state.position, state.body, eligibility_, *state.bonds);
  std::fill(totals_.begin(), totals_.end(), Vec<Dim>::Zero());
  dissipation_ = 0.0;
  find_pairs_in_contact(state, force);
  if (weakening_distance_ > 0.0 && slip_.size() != state.position.size())
    slip_.assign(state.position.size(), 0.0);
  if (!active_first_.empty() && !law_.coulomb.frictionless()) add_friction(state, force);
  if (weakening_distance_ > 0.0) update_slip(state);
  for (std::size_t k = 0; k < active_first_.size(); ++k)
    normal_of_point_[active_first_[k]] = normal_of_point_[active_second_[k]] = 0.0;
}

// The deck's model, chosen once per pass; the pair loop is templated on it.
template <int Dim>
void PdContact<Dim>::add_friction(const ContactState<Dim>& state, std::span<Vec<Dim>> force) {
  switch (model_) {
    case FrictionModel::Bfcm:
      add_pairwise_friction(
          state, force,
          [](const FrictionLaw& law, double n, double, double a, double s, const Vec<Dim>& m,
             const Vec<Dim>& v, const Vec<Dim>& t, const Vec<Dim>&) {
            return bond_friction<Dim>(law, n, a, s, m, v, t);
          });
      break;
    case FrictionModel::Nfcm:
      add_pairwise_friction(
          state, force,
          [](const FrictionLaw& law, double, double pressing, double a, double s,
             const Vec<Dim>&, const Vec<Dim>& v, const Vec<Dim>& t,
             const Vec<Dim>& surface_normal) {
            return naive_friction<Dim>(law, pressing, a, s, surface_normal, v, t);
          });
      break;
    case FrictionModel::Objective:
      add_objective_friction(state, force);
      break;
    case FrictionModel::None:
      break;
  }
}

template <int Dim>
double PdContact<Dim>::pair_radius(int p, int i, const ContactState<Dim>& state) const {
  if (!lammps_radius_) return radius_;
  const double reference = (state.reference_position[i] - state.reference_position[p]).norm();
  return std::min(lammps_radius_factor * reference, radius_);
}

// Two points whose bond broke started within a horizon of each other: the smoothed field would
// count the other as matter pressing on it while they are still at their lattice distance, and
// push apart every damaged zone (a notched plate then shatters at its grips). They touch by
// LAMMPS' rule instead, d = min(0.9 |X_i - X_p|, 1.35 h) (Parks et al. 2008): only once pressed
// closer than they started.
template <int Dim>
double PdContact<Dim>::fragment_radius(int p, int i, const ContactState<Dim>& state) const {
  const double reference = (state.reference_position[i] - state.reference_position[p]).norm();
  return std::min(lammps_radius_factor * reference, lammps_radius_cap * spacing_);
}

template <int Dim>
void PdContact<Dim>::push_active(int p, int i, double normal, const Vec<Dim>& direction,
                                 const Vec<Dim>& surface_normal, const ContactState<Dim>& state,
                                 std::span<Vec<Dim>> force) {
  force[p] -= normal * direction;
  force[i] += normal * direction;
  add_to_totals(p, i, state, -normal * direction);
  active_first_.push_back(p);
  active_second_.push_back(i);
  active_normal_.push_back(normal);
  active_direction_.push_back(direction);
  active_surface_normal_.push_back(surface_normal);
}

// fn(p, i, broken, M, r) for every listed pair closer than the list radius and not joined by an
// intact bond (broken: joined by a broken one), M = (y_i - y_p) / r.
template <int Dim>
template <class PairFunction>
void PdContact<Dim>::for_each_unbonded_pair_within(const ContactState<Dim>& state,
                                                   PairFunction&& fn) const {
  const ContactPairList& pairs = list_.pairs();
  const auto y = state.position;
  const double radius_squared = radius_ * radius_;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const int p = pairs.first[k], i = pairs.second[k];
    const bool bonded = pairs.bond[k] >= 0;
    if (bonded && state.bond_weight[pairs.bond[k]] != 0.0) continue;  // an intact bond
    const Vec<Dim> Y = y[i] - y[p];
    const double r2 = Y.squaredNorm();
    if (r2 >= radius_squared || r2 <= 0.0) continue;
    const double r = std::sqrt(r2);
    fn(p, i, bonded, Vec<Dim>(Y / r), r);
  }
}

// The seed's spring of stiffness k (c_s / delta, N/m^7) and radius d between p and i at r.
template <int Dim>
void PdContact<Dim>::push_spring(int p, int i, double k, double d, const Vec<Dim>& M, double r,
                                 const ContactState<Dim>& state, std::span<Vec<Dim>> force) {
  if (r >= d) return;
  const double normal = short_range_normal_force(k, state.volume[p], state.volume[i], d, r);
  push_active(p, i, normal, M, M, state, force);
}

// The repulsion of every listed pair in contact: the seed's springs (short_range_force.hpp) or
// the smoothed surface (find_smoothed_pairs).
template <int Dim>
void PdContact<Dim>::find_pairs_in_contact(const ContactState<Dim>& state,
                                           std::span<Vec<Dim>> force) {
  active_first_.clear();
  active_second_.clear();
  active_normal_.clear();
  active_direction_.clear();
  active_surface_normal_.clear();
  active_slip_.clear();
  if (contact_model_ == PdContactModel::Smoothed) {
    find_smoothed_pairs(state, force);
  } else {
    for_each_unbonded_pair_within(state, [&](int p, int i, bool, const Vec<Dim>& M, double r) {
      push_spring(p, i, pair_stiffness_[state.body[p] * body_count_ + state.body[i]],
                  pair_radius(p, i, state), M, r, state, force);
    });
  }
  if (normal_of_point_.size() != state.position.size())
    normal_of_point_.assign(state.position.size(), 0.0);
  for (std::size_t k = 0; k < active_first_.size(); ++k) {
    normal_of_point_[active_first_[k]] += active_normal_[k];
    normal_of_point_[active_second_[k]] += active_normal_[k];
  }
}

// E_p'(phi) = (k_p h^2 / G0^2) <phi - phi0>_+, k_p = stiffness c V_p^2 / delta.
template <int Dim>
double PdContact<Dim>::energy_slope(int point, double phi, const ContactState<Dim>& state) const {
  const double excess = phi - calibration_.phi0;
  if (excess <= 0.0) return 0.0;
  const double v = state.volume[point];
  const double k = point_stiffness_[state.body[point]] * v * v;
  return k * spacing_ * spacing_ * excess / (calibration_.gradient * calibration_.gradient);
}

// dD_p/d(dphi_p/dt) of the contact dashpot's Rayleigh function (docs/pd-friction.md, "Static
// friction" and "The contact dashpot"): D_p = (c_p h^2 / 2 G0^2) (dphi_p/dt)^2 while p is in contact (phi_p > phi0), the
// rate of its penetration (phi_p - phi0) h / G0 damped by
//   c_p = min(2 zeta sqrt(k_p M_b / n_b), m_p / (4 dt)),
// M_b / n_b the mass of p's body per point of it in contact: the n_b springs k_p then damp the
// body's bounce on them at the ratio zeta whatever its size or resolution. Only with static
// friction above kinetic, which needs a contact that settles (an undamped bounce unloads the
// contact twice a period and each unloading slips the static strength away); elsewhere the
// contact stays elastic: kept on, it costs the rolling disk 6.4% of its speed (a dashpot
// resists the rim's points coming into and out of contact) and the glancing impact's booked
// energy balance closes to 0.9-1.3% only (docs/pd-friction.md, "Static friction").
template <int Dim>
double PdContact<Dim>::damping_slope(int point, const ContactState<Dim>& state) const {
  if (!law_.exact_stick || !(phi_[point] > calibration_.phi0)) return 0.0;
  const double v = state.volume[point];
  const int b = state.body[point];
  const double k = point_stiffness_[b] * v * v;
  const double behind = body_mass_[b] / std::max(contact_points_[b], 1);
  const double c = std::min(2.0 * damping_ratio * std::sqrt(k * behind),
                            damping_step_fraction * state.mass[point] / state.dt);
  return c * spacing_ * spacing_ * phi_rate_[point] /
         (calibration_.gradient * calibration_.gradient);
}

// Smoothed surface (smoothed_surface.hpp; docs/pd-friction.md): phi_p and g_p = d phi_p / d y_p
// over the pairs within R, then each pair's central force
//   f_p = -N M,  N = -(E_p' V_i + E_i' V_p) w'(q) / (R V_cell) >= 0,
// the exact derivative of sum_p E_p(phi_p) (w' <= 0, E' >= 0: repulsive only). The pair's
// surface normal n = unit(g_p - g_i) (from p's side to i's) is what friction slides along.
template <int Dim>
void PdContact<Dim>::find_smoothed_pairs(const ContactState<Dim>& state,
                                         std::span<Vec<Dim>> force) {
  const auto y = state.position;
  const auto V = state.volume;
  if (phi_.size() != y.size()) {
    phi_.assign(y.size(), 0.0);
    phi_rate_.assign(y.size(), 0.0);
    phi_gradient_.assign(y.size(), Vec<Dim>::Zero());
  }
  near_rate_.clear();
  near_first_.clear();
  near_second_.clear();
  near_direction_.clear();
  near_slope_.clear();
  const double unit = 1.0 / cell_volume_;
  for_each_unbonded_pair_within(state, [&](int p, int i, bool broken, const Vec<Dim>& M,
                                           double r) {
    if (broken) {  // fragments of one body (fragment_radius)
      push_spring(p, i, fragment_stiffness_[state.body[p]], fragment_radius(p, i, state), M, r,
                  state, force);
      return;
    }
    const double q = r / radius_;
    const double w = wendland(q) * unit;
    const double slope = wendland_slope(q) * unit / radius_;  // d(w/V_cell)/dr <= 0
    phi_[p] += V[i] * w;
    phi_[i] += V[p] * w;
    // d phi_p / dt = V_i slope dr/dt, dr/dt = M . (v_i - v_p): the penetration rate.
    const double r_rate = M.dot(state.velocity[i] - state.velocity[p]);
    phi_rate_[p] += V[i] * slope * r_rate;
    phi_rate_[i] += V[p] * slope * r_rate;
    near_rate_.push_back(r_rate);
    // d phi_p / d y_p = V_i slope dr/dy_p = -V_i slope M: towards i.
    phi_gradient_[p] -= (V[i] * slope) * M;
    phi_gradient_[i] += (V[p] * slope) * M;
    near_first_.push_back(p);
    near_second_.push_back(i);
    near_direction_.push_back(M);
    near_slope_.push_back(slope);
  });
  if (body_mass_.empty()) {
    body_mass_.assign(static_cast<std::size_t>(body_count_), 0.0);
    for (std::size_t p = 0; p < y.size(); ++p) body_mass_[state.body[p]] += state.mass[p];
  }
  contact_points_.assign(static_cast<std::size_t>(body_count_), 0);
  if (counted_.size() != y.size()) counted_.assign(y.size(), 0);
  for (std::size_t k = 0; k < near_first_.size(); ++k)
    for (int point : {near_first_[k], near_second_[k]})
      if (!counted_[point] && phi_[point] > calibration_.phi0 && state.owns(point)) {
        counted_[point] = 1;
        ++contact_points_[state.body[point]];
      }
  for (std::size_t k = 0; k < near_first_.size(); ++k)
    counted_[near_first_[k]] = counted_[near_second_[k]] = 0;
  if (state.sum_over_processes && law_.exact_stick) {  // n_b of the dashpot: every process's points
    std::vector<double> counts(contact_points_.begin(), contact_points_.end());
    (*state.sum_over_processes)(counts);
    for (std::size_t b = 0; b < counts.size(); ++b) contact_points_[b] = static_cast<int>(std::lround(counts[b]));
  }
  for (std::size_t k = 0; k < near_first_.size(); ++k) {
    const int p = near_first_[k], i = near_second_[k];
    const double elastic = -(energy_slope(p, phi_[p], state) * V[i] +
                             energy_slope(i, phi_[i], state) * V[p]) *
                           near_slope_[k];
    const double damping = -(damping_slope(p, state) * V[i] + damping_slope(i, state) * V[p]) *
                            near_slope_[k];
    // The dashpot may not pull the bodies together: the pair's force stays compressive.
    const double normal = std::max(elastic + damping, 0.0);
    if (!(normal > 0.0)) continue;
    // The dashpot's power (W, >= 0 summed over the pairs): -(N - N_elastic) dr/dt.
    if (state.owns(p)) dissipation_ -= (normal - std::max(elastic, 0.0)) * near_rate_[k];
    const Vec<Dim> g = phi_gradient_[p] - phi_gradient_[i];
    const double g_norm = g.norm();
    const Vec<Dim> n = g_norm > 0.0 ? Vec<Dim>(g / g_norm) : near_direction_[k];
    push_active(p, i, normal, near_direction_[k], n, state, force);
  }
  for (std::size_t k = 0; k < near_first_.size(); ++k)
    for (int point : {near_first_[k], near_second_[k]}) {
      phi_[point] = 0.0;
      phi_rate_[point] = 0.0;
      phi_gradient_[point] = Vec<Dim>::Zero();
    }
}

template <int Dim>
void PdContact<Dim>::add_to_totals(int p, int i, const ContactState<Dim>& state,
                                   const Vec<Dim>& on_p) {
  const int a = state.material[p], b = state.material[i];
  if (state.owns(p)) totals_[a * material_count_ + b] += on_p;
  if (state.owns(i)) totals_[b * material_count_ + a] -= on_p;
}

// A point in contact through several pairs shares its contact among them in proportion to their
// normal forces: pair k of points p, i takes the fraction N_k / max(N_p, N_i) of either point's
// total N_p, N_i (so no point's shares add up to more than 1). It splits the point's lattice face
// V/h for the adhesion A of mu N + A, and the stick force (what stops a point's slip within the
// step), so that a pair that carries little of the load is not asked to hold an equal part.
template <int Dim>
double PdContact<Dim>::share(std::size_t k) const {
  const double total =
      std::max(normal_of_point_[active_first_[k]], normal_of_point_[active_second_[k]]);
  return total > 0.0 ? active_normal_[k] / total : 0.0;
}

// The pair's normal load on the surface, N (M . n)_+: the part of its repulsion along the surface
// normal (Coulomb's N). The pairs' N M add up to the load, and their tangential parts cancel on a
// flat surface, so friction mu N (M . n) adds up to mu times the load, where mu N would count it
// 1/cos of each pair's tilt too often (+12% on a flat lattice with R = 2 h). Pairwise: n = M.
template <int Dim>
double PdContact<Dim>::pressing(std::size_t k) const {
  return active_normal_[k] * std::max(active_direction_[k].dot(active_surface_normal_[k]), 0.0);
}

template <int Dim>
FrictionLaw PdContact<Dim>::pair_law(std::size_t k) const {
  if (!(weakening_distance_ > 0.0)) return law_;
  FrictionLaw law = law_;
  law.coulomb = law_.coulomb.after_slip(
      std::max(slip_[active_first_[k]], slip_[active_second_[k]]), weakening_distance_);
  return law;
}

// Slip-weakening history (contact/coulomb_friction.hpp after_slip), as the MPM nodes keep it
// (mpm/multimaterial_contact.cpp advance_slip): a point in contact with a pair that slides -
// whose tangential force exceeds the static limit, Coulomb's decision - adds its slip speed x dt
// to its slip; a point whose pairs all stick, or that is out of contact, starts again from 0.
// A point's slip speed is the mean of its pairs' slip speeds (PairFriction::slip_after; 0 for a
// pair that sticks) weighted by the part of the point's normal force each pair carries: the slip
// of its contact as a whole. (The fastest pair's, used before, counted at a block's corner a
// pair that carries 0.1-10% of the point's load and whose slip, extrapolated to its contact
// point 1-2 h away, is 10x the point's own: the corners weakened while the block held, at 0.3 h
// in 40 ms at gravity x10, and the block then slid.) The slip speed alone is no test of
// sliding: an elastic body's surface vibrates tangentially while its contact holds.
template <int Dim>
void PdContact<Dim>::update_slip(const ContactState<Dim>& state) {
  const std::size_t n_points = state.position.size();
  if (slip_.size() != n_points) slip_.assign(n_points, 0.0);
  slip_speed_.assign(n_points, -1.0);  // -1: no pair of the point slides
  if (active_slip_.size() == active_first_.size())  // no friction pass: nothing slides
    load_weighted_slip_speed(active_first_, active_second_, active_normal_, normal_of_point_,
                             active_slip_, slip_speed_);
  for (std::size_t p = 0; p < n_points; ++p)
    slip_[p] = slip_speed_[p] >= 0.0 ? slip_[p] + slip_speed_[p] * state.dt : 0.0;
}

template <int Dim>
double PdContact<Dim>::adhesion_area(std::size_t k, const ContactState<Dim>& state) const {
  const double face =
      std::min(state.volume[active_first_[k]], state.volume[active_second_[k]]) / spacing_;
  return face * share(k);
}

// v + dt f / m: the velocity a deformable point would have one step on without friction (f holds
// every other force of this pass); a rigid point keeps its prescribed velocity.
template <int Dim>
Vec<Dim> PdContact<Dim>::trial_velocity(int point, const ContactState<Dim>& state,
                                        std::span<const Vec<Dim>> force) const {
  if (bodies_[state.body[point]].rigid) return state.velocity[point];
  return state.velocity[point] + (state.dt / state.mass[point]) * force[point];
}

// Friction forces are gathered per pair first and added after the loop, so that every pair's
// trial velocities see the same forces (the result does not depend on the pair order).
template <int Dim>
template <class PairLaw>
void PdContact<Dim>::add_pairwise_friction(const ContactState<Dim>& state,
                                           std::span<Vec<Dim>> force, PairLaw&& law) {
  const std::size_t pairs = active_first_.size();
  active_friction_.assign(pairs, Vec<Dim>::Zero());
  active_slip_.assign(pairs, -1.0);
  for (std::size_t k = 0; k < pairs; ++k) {
    const int p = active_first_[k], i = active_second_[k];
    const double area = adhesion_area(k, state);
    const PairFriction<Dim> f =
        law(pair_law(k), active_normal_[k], pressing(k), area, stick_rate(k, state),
            active_direction_[k],
            Vec<Dim>(state.velocity[i] - state.velocity[p]),
            Vec<Dim>(trial_velocity(i, state, force) - trial_velocity(p, state, force)),
            active_surface_normal_[k]);
    active_friction_[k] = f.force_on_first;
    active_slip_[k] = f.slip_after;
    if (state.owns(p)) dissipation_ += f.dissipation;
  }
  for (std::size_t k = 0; k < pairs; ++k) {
    const int p = active_first_[k], i = active_second_[k];
    force[p] += active_friction_[k];
    force[i] -= active_friction_[k];
    add_to_totals(p, i, state, active_friction_[k]);
  }
}

// share m_red / dt: the pair's reduced mass (the deformable point's mass against a rigid body)
// over the step, times its share of its points' contact.
template <int Dim>
double PdContact<Dim>::stick_rate(std::size_t k, const ContactState<Dim>& state) const {
  const int p = active_first_[k], i = active_second_[k];
  const bool rigid_p = bodies_[state.body[p]].rigid, rigid_i = bodies_[state.body[i]].rigid;
  const double inverse_mass =
      (rigid_p ? 0.0 : 1.0 / state.mass[p]) + (rigid_i ? 0.0 : 1.0 / state.mass[i]);
  return share(k) / (inverse_mass * state.dt);
}

template <int Dim>
Vec<Dim> PdContact<Dim>::rigid_velocity(int body, int point, const Vec<Dim>& x,
                                        const ContactState<Dim>& state) const {
  const Vec3 r = to_vec3<Dim>(Vec<Dim>(x - state.position[point]));
  const Vec3 w = bodies_[body].angular_velocity;
  return state.velocity[point] + from_vec3<Dim>(Vec3(w.cross(r)));
}

// objective_friction.hpp: slip from the bodies' velocity fields at the contact point, friction
// applied there and spread over the points by the transpose of the extrapolation.
template <int Dim>
void PdContact<Dim>::add_objective_friction(const ContactState<Dim>& state,
                                            std::span<Vec<Dim>> force) {
  const auto y = state.position;
  const auto v = state.velocity;
  const std::size_t pairs = active_first_.size();
  objective_.begin(static_cast<int>(y.size()));
  for (std::size_t k = 0; k < pairs; ++k)
    for (int point : {active_first_[k], active_second_[k]})
      if (!bodies_[state.body[point]].rigid) objective_.slot(point);
  objective_.compute_velocity_fields(y, v, force, state.mass, state.dt, *state.bonds,
                                     state.bond_weight);

  active_friction_.assign(pairs, Vec<Dim>::Zero());  // central fall-back forces, added last
  active_slip_.assign(pairs, -1.0);
  for (std::size_t k = 0; k < pairs; ++k) {
    const int p = active_first_[k], i = active_second_[k];
    const int bp = state.body[p], bi = state.body[i];
    const bool rigid_p = bodies_[bp].rigid, rigid_i = bodies_[bi].rigid;
    const int sp = rigid_p ? -1 : objective_.slot(p), si = rigid_i ? -1 : objective_.slot(i);
    const double area = adhesion_area(k, state);
    const Vec<Dim>& M = active_direction_[k];
    if ((sp >= 0 && !objective_.has_field(sp)) || (si >= 0 && !objective_.has_field(si))) {
      // No velocity field (a point with too few intact bonds): the central BFCM force keeps
      // the momenta balanced for this pair.
      const PairFriction<Dim> f = bond_friction<Dim>(
          pair_law(k), active_normal_[k], area, stick_rate(k, state), M, Vec<Dim>(v[i] - v[p]),
          Vec<Dim>(trial_velocity(i, state, force) - trial_velocity(p, state, force)));
      active_friction_[k] = f.force_on_first;
      active_slip_[k] = f.slip_after;
      if (state.owns(p)) dissipation_ += f.dissipation;
      continue;
    }
    const Vec<Dim> xc = 0.5 * (y[p] + y[i]);
    const Vec<Dim> va =
        rigid_p ? rigid_velocity(bp, p, xc, state) : objective_.velocity_at(sp, xc, y, v);
    const Vec<Dim> vb =
        rigid_i ? rigid_velocity(bi, i, xc, state) : objective_.velocity_at(si, xc, y, v);
    const Vec<Dim> ta = rigid_p ? va : objective_.trial_velocity_at(sp, xc, y);
    const Vec<Dim> tb = rigid_i ? vb : objective_.trial_velocity_at(si, xc, y);
    const Vec<Dim> w = vb - va, wt = tb - ta;
    const Vec<Dim>& n = active_surface_normal_[k];  // the slip is tangential to the surface
    const Vec<Dim> slip = w - n.dot(w) * n;
    const Vec<Dim> trial = wt - n.dot(wt) * n;
    const double trial_speed = trial.norm();
    // The stick force of the two bodies' effective masses at xc, shared among the pairs.
    double inverse_mass = 0.0;
    if (sp >= 0) inverse_mass += objective_.inverse_mass_at(sp, xc, y, state.mass);
    if (si >= 0) inverse_mass += objective_.inverse_mass_at(si, xc, y, state.mass);
    const double rate = share(k) / (inverse_mass * state.dt);  // stick force per slip speed
    const FrictionLaw law = pair_law(k);
    const double magnitude =
        law.force(pressing(k), area, slip.norm(), rate * trial_speed, trial_speed);
    active_slip_[k] = law.slip_after(pressing(k), area, rate, trial_speed, magnitude);
    if (magnitude <= 0.0 || trial_speed <= 0.0) continue;
    const Vec<Dim> F = (magnitude / trial_speed) * trial;  // on p's body, at xc
    if (sp >= 0) objective_.apply(sp, F, xc, y);
    if (si >= 0) objective_.apply(si, Vec<Dim>(-F), xc, y);
    add_to_totals(p, i, state, F);
    // The spread forces' work: F . (w + w')/2 at xc, w' = w~ - F / rate the slip they leave
    // (friction_models.hpp).
    if (state.owns(p)) dissipation_ += 0.5 * F.dot(slip + trial - F / rate);
  }
  objective_.distribute(y, *state.bonds, state.bond_weight, force);
  for (std::size_t k = 0; k < pairs; ++k) {
    if (active_friction_[k] == Vec<Dim>::Zero()) continue;
    const int p = active_first_[k], i = active_second_[k];
    force[p] += active_friction_[k];
    force[i] -= active_friction_[k];
    add_to_totals(p, i, state, active_friction_[k]);
  }
}

template <int Dim>
double PdContact<Dim>::stiffest_partner(int body) const {
  double k = 0.0;
  for (int b = 0; b < body_count_; ++b) {
    if (b == body && !eligibility_.self_contact[b]) continue;
    if (eligibility_.rigid[b] && eligibility_.rigid[body]) continue;
    k = std::max(k, pair_stiffness_[body * body_count_ + b]);
  }
  return k;
}

template <int Dim>
Vec<Dim> PdContact<Dim>::force_between(int material_a, int material_b) const {
  if (material_a < 0 || material_b < 0 || material_a >= material_count_ ||
      material_b >= material_count_)
    return Vec<Dim>::Zero();
  return totals_[material_a * material_count_ + material_b];
}

template <int Dim>
double PdContact<Dim>::elastic_energy(const ContactState<Dim>& state) const {
  double energy = 0.0;
  if (contact_model_ == PdContactModel::Smoothed) {
    // sum_p (k_p h^2 / 2 G0^2) <phi_p - phi0>_+^2 (an output-time pass: its own phi storage).
    std::vector<double> phi(state.position.size(), 0.0);
    for_each_unbonded_pair_within(state, [&](int p, int i, bool broken, const Vec<Dim>&,
                                             double r) {
      if (broken) {  // fragments of one body: springs (find_smoothed_pairs)
        if (state.owns(p))
          energy += short_range_energy(fragment_stiffness_[state.body[p]], state.volume[p],
                                       state.volume[i], fragment_radius(p, i, state), r);
        return;
      }
      const double w = wendland(r / radius_) / cell_volume_;
      phi[p] += state.volume[i] * w;
      phi[i] += state.volume[p] * w;
    });
    for (std::size_t p = 0; p < phi.size(); ++p)
      if (phi[p] > calibration_.phi0 && state.owns(static_cast<int>(p)))
        energy += 0.5 * energy_slope(static_cast<int>(p), phi[p], state) *
                  (phi[p] - calibration_.phi0);
    return energy;
  }
  for_each_unbonded_pair_within(state, [&](int p, int i, bool, const Vec<Dim>&, double r) {
    if (state.owns(p))
      energy += short_range_energy(pair_stiffness_[state.body[p] * body_count_ + state.body[i]],
                                 state.volume[p], state.volume[i], pair_radius(p, i, state), r);
  });
  return energy;
}

template <int Dim>
SurfaceMesh PdContact<Dim>::pair_mesh(std::span<const Vec<Dim>> position,
                                      std::span<const char> owned) const {
  SurfaceMesh mesh;
  mesh.name = "contact_pairs";
  mesh.points.reserve(2 * active_first_.size());
  mesh.cells.reserve(active_first_.size());
  for (std::size_t k = 0; k < active_first_.size(); ++k) {
    if (!owned.empty() && !owned[active_first_[k]]) continue;
    const int n = static_cast<int>(mesh.points.size());
    mesh.points.push_back(to_vec3<Dim>(position[active_first_[k]]));
    mesh.points.push_back(to_vec3<Dim>(position[active_second_[k]]));
    mesh.cells.push_back({n, n + 1});
  }
  return mesh;
}

template <int Dim>
void PdContact<Dim>::sum_totals_over_processes(const std::function<void(std::span<double>)>& sum) {
  std::vector<double> values;
  values.reserve(totals_.size() * Dim + 1);
  for (const Vec<Dim>& t : totals_)
    for (int d = 0; d < Dim; ++d) values.push_back(t[d]);
  values.push_back(dissipation_);
  sum(values);
  std::size_t k = 0;
  for (Vec<Dim>& t : totals_)
    for (int d = 0; d < Dim; ++d) t[d] = values[k++];
  dissipation_ = values[k];
}

template <int Dim>
void PdContact<Dim>::save_totals(StateWriter& out) const {
  out.write_array("pd.contact.totals", totals_);
  out.write_value("pd.contact.dissipation", dissipation_);
}

template <int Dim>
void PdContact<Dim>::restore_totals(const StateReader& in) {
  in.read_array_of_size("pd.contact.totals", totals_);
  in.read_value("pd.contact.dissipation", dissipation_);
}

template <int Dim>
void PdContact<Dim>::save_state(StateWriter& out) const {
  list_.save_state(out);
  out.write_array("pd.contact.totals", totals_);
  out.write_value("pd.contact.dissipation", dissipation_);
  out.write_array("pd.contact.active_first", active_first_);
  out.write_array("pd.contact.active_second", active_second_);
  out.write_array("pd.contact.active_normal", active_normal_);
  out.write_array("pd.contact.active_direction", active_direction_);
  if (weakening_distance_ > 0.0) out.write_array("pd.contact.slip", slip_);
}

template <int Dim>
void PdContact<Dim>::restore_state(const StateReader& in) {
  list_.restore_state(in);
  in.read_array_of_size("pd.contact.totals", totals_);
  in.read_value("pd.contact.dissipation", dissipation_);
  in.read_array("pd.contact.active_first", active_first_);
  in.read_array("pd.contact.active_second", active_second_);
  in.read_array("pd.contact.active_normal", active_normal_);
  in.read_array("pd.contact.active_direction", active_direction_);
  if (weakening_distance_ > 0.0) in.read_array("pd.contact.slip", slip_);
}

template class PdContact<2>;
template class PdContact<3>;

}  // namespace tribo::pd
