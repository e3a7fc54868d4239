#include "tribo/pd/pd_contact.hpp"

#include <algorithm>
#include <cmath>

#include "tribo/pd/short_range_force.hpp"

namespace tribo::pd {

namespace {
// Skin of the Verlet list in units of the contact radius.
constexpr double skin_fraction = 0.5;
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

template <int Dim>
PdContact<Dim>::PdContact(const PdSpec& pd, const std::vector<ContactBody>& bodies,
                          int material_count)
    : radius_(pd.contact.radius * pd.spacing),
      spacing_(pd.spacing),
      model_(pd.contact.friction_model),
      body_count_(static_cast<int>(bodies.size())),
      material_count_(material_count),
      bodies_(bodies),
      list_(pd.contact.radius * pd.spacing, skin_fraction * pd.contact.radius * pd.spacing) {
  ContactLawSpec law;
  law.friction = pd.contact.friction;
  law.static_friction = pd.contact.static_friction;
  law.adhesion = pd.contact.adhesion;
  law_.coulomb = contact::CoulombFriction::from_spec(law);
  law_.regularization_velocity = pd.contact.regularization_velocity;
  if (model_ == FrictionModel::None) law_.coulomb = contact::CoulombFriction{};

  const double horizon = pd.horizon * pd.spacing;
  pair_stiffness_.assign(static_cast<std::size_t>(body_count_) * body_count_, 0.0);
  for (int a = 0; a < body_count_; ++a)
    for (int b = 0; b < body_count_; ++b)
      pair_stiffness_[a * body_count_ + b] =
          pd.contact.stiffness *
          pair_micromodulus(bodies_[a].micromodulus, bodies_[b].micromodulus) / horizon;
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
  if (!active_first_.empty() && !law_.coulomb.frictionless()) add_friction(state, force);
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
          [this](double n, double a, double s, const Vec<Dim>& m, const Vec<Dim>& v,
                 const Vec<Dim>& t) { return bond_friction<Dim>(law_, n, a, s, m, v, t); });
      break;
    case FrictionModel::Nfcm:
      add_pairwise_friction(
          state, force,
          [this](double n, double a, double s, const Vec<Dim>& m, const Vec<Dim>& v,
                 const Vec<Dim>& t) { return naive_friction<Dim>(law_, n, a, s, m, v, t); });
      break;
    case FrictionModel::Objective:
      add_objective_friction(state, force);
      break;
    case FrictionModel::None:
      break;
  }
}

// The short-range repulsion (short_range_force.hpp) of every listed pair inside the radius.
template <int Dim>
void PdContact<Dim>::find_pairs_in_contact(const ContactState<Dim>& state,
                                           std::span<Vec<Dim>> force) {
  const ContactPairList& pairs = list_.pairs();
  const auto y = state.position;
  active_first_.clear();
  active_second_.clear();
  active_normal_.clear();
  active_direction_.clear();
  const double radius_squared = radius_ * radius_;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const int p = pairs.first[k], i = pairs.second[k];
    if (pairs.bond[k] >= 0 && state.bond_weight[pairs.bond[k]] != 0.0) continue;  // still bonded
    const Vec<Dim> Y = y[i] - y[p];
    const double r2 = Y.squaredNorm();
    if (r2 >= radius_squared || r2 <= 0.0) continue;
    const double r = std::sqrt(r2);
    const Vec<Dim> M = Y / r;
    const double k_pi = pair_stiffness_[state.body[p] * body_count_ + state.body[i]];
    const double normal =
        short_range_normal_force(k_pi, state.volume[p], state.volume[i], radius_, r);
    force[p] -= normal * M;
    force[i] += normal * M;
    add_to_totals(p, i, state, -normal * M);
    active_first_.push_back(p);
    active_second_.push_back(i);
    active_normal_.push_back(normal);
    active_direction_.push_back(M);
  }
  if (normal_of_point_.size() != y.size()) normal_of_point_.assign(y.size(), 0.0);
  for (std::size_t k = 0; k < active_first_.size(); ++k) {
    normal_of_point_[active_first_[k]] += active_normal_[k];
    normal_of_point_[active_second_[k]] += active_normal_[k];
  }
}

template <int Dim>
void PdContact<Dim>::add_to_totals(int p, int i, const ContactState<Dim>& state,
                                   const Vec<Dim>& on_p) {
  const int a = state.material[p], b = state.material[i];
  totals_[a * material_count_ + b] += on_p;
  totals_[b * material_count_ + a] -= on_p;
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
  for (std::size_t k = 0; k < pairs; ++k) {
    const int p = active_first_[k], i = active_second_[k];
    const double area = adhesion_area(k, state);
    const PairFriction<Dim> f =
        law(active_normal_[k], area, stick_rate(k, state), active_direction_[k],
            Vec<Dim>(state.velocity[i] - state.velocity[p]),
            Vec<Dim>(trial_velocity(i, state, force) - trial_velocity(p, state, force)));
    active_friction_[k] = f.force_on_first;
    dissipation_ += f.dissipation;
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
          law_, active_normal_[k], area, stick_rate(k, state), M, Vec<Dim>(v[i] - v[p]),
          Vec<Dim>(trial_velocity(i, state, force) - trial_velocity(p, state, force)));
      active_friction_[k] = f.force_on_first;
      dissipation_ += f.dissipation;
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
    const Vec<Dim> slip = w - M.dot(w) * M;
    const Vec<Dim> trial = wt - M.dot(wt) * M;
    const double trial_speed = trial.norm();
    // The stick force of the two bodies' effective masses at xc, shared among the pairs.
    double inverse_mass = 0.0;
    if (sp >= 0)
      inverse_mass +=
          objective_.inverse_mass_at(sp, xc, y, state.mass, *state.bonds, state.bond_weight);
    if (si >= 0)
      inverse_mass +=
          objective_.inverse_mass_at(si, xc, y, state.mass, *state.bonds, state.bond_weight);
    const double rate = share(k) / (inverse_mass * state.dt);  // stick force per slip speed
    const double magnitude = law_.force(active_normal_[k], area, slip.norm(), rate * trial_speed);
    if (magnitude <= 0.0 || trial_speed <= 0.0) continue;
    const Vec<Dim> F = (magnitude / trial_speed) * trial;  // on p's body, at xc
    if (sp >= 0) objective_.apply(sp, F, xc, y);
    if (si >= 0) objective_.apply(si, Vec<Dim>(-F), xc, y);
    add_to_totals(p, i, state, F);
    // The spread forces' work: F . (w + w')/2 at xc, w' = w~ - F / rate the slip they leave
    // (friction_models.hpp).
    dissipation_ += 0.5 * F.dot(slip + trial - F / rate);
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
  const ContactPairList& pairs = list_.pairs();
  double energy = 0.0;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const int p = pairs.first[k], i = pairs.second[k];
    if (pairs.bond[k] >= 0 && state.bond_weight[pairs.bond[k]] != 0.0) continue;
    const double r = (state.position[i] - state.position[p]).norm();
    energy += short_range_energy(pair_stiffness_[state.body[p] * body_count_ + state.body[i]],
                                 state.volume[p], state.volume[i], radius_, r);
  }
  return energy;
}

template <int Dim>
SurfaceMesh PdContact<Dim>::pair_mesh(std::span<const Vec<Dim>> position) const {
  SurfaceMesh mesh;
  mesh.name = "contact_pairs";
  mesh.points.reserve(2 * active_first_.size());
  mesh.cells.reserve(active_first_.size());
  for (std::size_t k = 0; k < active_first_.size(); ++k) {
    const int n = static_cast<int>(mesh.points.size());
    mesh.points.push_back(to_vec3<Dim>(position[active_first_[k]]));
    mesh.points.push_back(to_vec3<Dim>(position[active_second_[k]]));
    mesh.cells.push_back({n, n + 1});
  }
  return mesh;
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
}

template class PdContact<2>;
template class PdContact<3>;

}  // namespace tribo::pd
