#include "tribo/pd/pd_simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "tribo/core/error.hpp"
#include "tribo/pd/lattice.hpp"
#include "tribo/pd/lps.hpp"
#include "tribo/pd/material_constants.hpp"
#include "tribo/pd/neighbor_search.hpp"
#include "tribo/parallel/particle_exchange.hpp"
#include "tribo/pd/parallel.hpp"
#include "tribo/pd/pmb.hpp"
#include "tribo/pd/precrack.hpp"
#include "tribo/pd/short_range_force.hpp"
#include "tribo/pd/spec_check.hpp"
#include "tribo/pd/surface_correction.hpp"
#include "tribo/pd/time_step.hpp"

namespace tribo::pd {

namespace {
// Safety factor on the stable step when the deck gives neither time.dt nor time.cfl.
constexpr double default_time_step_fraction = 0.8;

template <class T>
std::span<T> all(std::vector<T>& v) {
  return std::span<T>(v);
}
template <class T>
std::span<const T> all(const std::vector<T>& v) {
  return std::span<const T>(v);
}
}  // namespace

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec) {
  return std::make_unique<PdSimulation<Dim>>(spec);
}

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec,
                                                 const parallel::Communicator& processes) {
  return std::make_unique<PdSimulation<Dim>>(spec, processes);
}

template <int Dim>
PdSimulation<Dim>::PdSimulation(const SimulationSpec& spec)
    : PdSimulation(spec, parallel::Communicator::single()) {}

template <int Dim>
PdSimulation<Dim>::PdSimulation(const SimulationSpec& spec, const parallel::Communicator& processes)
    : spec_(spec), processes_(processes) {
  check_pd_spec<Dim>(spec_);
  for (BodySpec& body : spec_.bodies)
    if (body.material_index < 0) body.material_index = spec_.material_index(body.material);

  LatticeBodies<Dim> lattice = fill_bodies<Dim>(spec_);
  for (std::size_t b = 0; b < spec_.bodies.size(); ++b)
    if (lattice.bodies[b].size() == 0)
      throw DeckError(DeckLocation{spec_.source_file, 0, 0, fmt::format("bodies[{}].geometry", b)},
                      fmt::format("body '{}' holds no lattice point of spacing {} m",
                                  spec_.bodies[b].name, spec_.pd.spacing));

  for (std::size_t b = 0; b < spec_.bodies.size(); ++b) {
    const BodySpec& body = spec_.bodies[b];
    const MaterialSpec& material = spec_.materials[body.material_index];
    BodyModel model;
    model.points = lattice.bodies[b];
    model.material = body.material_index;
    model.model = material.model;
    model.density = material.density;
    model.stretch_limit = material.critical_stretch ? 1.0 + *material.critical_stretch
                                                    : std::numeric_limits<double>::infinity();
    if (material.model == MaterialModel::Lps) {
      model.bulk_modulus = lps_bulk_modulus<Dim>(material);
      model.shear_factor = lps_shear_factor<Dim>(material);
    }
    model.rigid.centroid = lattice.centroid[b];
    model.rigid.velocity = from_vec3<Dim>(body.velocity);
    model.rigid.angular_velocity = body.angular_velocity;
    body_models_.push_back(model);
    // Summed in lattice order, as contact sums them on one process.
    double mass = 0.0;
    for (int i = lattice.bodies[b].begin; i < lattice.bodies[b].end; ++i) mass += lattice.points.mass[i];
    body_mass_.push_back(mass);
  }
  stress_wanted_ = std::find(spec_.output.fields.begin(), spec_.output.fields.end(), "stress") !=
                   spec_.output.fields.end();

  if (!distributed()) {
    particles_ = std::move(lattice.points);
    body_points_ = std::move(lattice.bodies);
    set_up_points();
    set_up_bonds();
    set_up_contact();
  } else {
    sum_ = [this](std::span<double> values) { processes_.sum_in_place(values); };
    // Each process starts from a slice of the lattice (every process filled all of it) and the
    // first distribution sends every point to its box.
    const std::int64_t n = static_cast<std::int64_t>(lattice.points.size());
    const int parts = processes_.size(), rank = processes_.rank();
    const std::int64_t first = n * rank / parts, last = n * (rank + 1) / parts;
    PointRecords<Dim> mine;
    for (std::int64_t g = first; g < last; ++g) mine.global_id.push_back(g);
    const std::vector<std::size_t> slice(mine.global_id.begin(), mine.global_id.end());
    parallel::copy_particles(Particles<Dim>::arrays(lattice.points), slice, Particles<Dim>::arrays(mine.particles));
    const std::size_t count = slice.size();
    mine.owner.assign(count, rank);
    for (auto* zeros : {&mine.broken_volume, &mine.lps_dilatation, &mine.lps_coefficient,
                        &mine.lps_alpha, &mine.slip})
      zeros->assign(count, 0.0);
    mine.force.assign(count, Vec<Dim>::Zero());
    mine.applied_force.assign(count, Vec<Dim>::Zero());
    lattice = LatticeBodies<Dim>{};
    distribute(std::move(mine), {});
  }
  choose_time_step();
  apply_velocity_conditions();
  accumulate_forces(0.0);  // a(0) for the first half kick
  frictional_power_ = frictional_power();
  update_damage();
  if (distributed()) refresh_ghosts();
}

// The per-point arrays of the points this process holds, and each body's range of them.
template <int Dim>
void PdSimulation<Dim>::set_up_points() {
  const std::size_t n = particles_.size();
  if (distributed()) {  // the points arrive sorted by lattice index: each body's are contiguous
    body_points_.assign(spec_.bodies.size(), PointRange{});
    for (std::size_t i = 0; i < n; ++i) {
      PointRange& range = body_points_[static_cast<std::size_t>(particles_.body[i])];
      if (range.size() == 0) range.begin = static_cast<int>(i);
      range.end = static_cast<int>(i) + 1;
    }
  }
  for (std::size_t b = 0; b < body_models_.size(); ++b) body_models_[b].points = body_points_[b];
  force_.assign(n, Vec<Dim>::Zero());
  applied_force_.assign(n, Vec<Dim>::Zero());
  inverse_mass_.resize(n);
  for (std::size_t i = 0; i < n; ++i) inverse_mass_[i] = 1.0 / particles_.mass[i];
  point_energy_.assign(n, 0.0);
  condition_point_.clear();
  condition_component_.clear();
  condition_velocity_.clear();
  find_velocity_conditions();
}

template <int Dim>
void PdSimulation<Dim>::set_up_bonds() {
  const std::size_t n = particles_.size();
  std::vector<char> bonded(n, 1);
  for (const BodyModel& body : body_models_)
    if (body.model == MaterialModel::Rigid)
      std::fill(bonded.begin() + body.points.begin, bonded.begin() + body.points.end, 0);

  const double h = spec_.pd.spacing;
  const double delta = spec_.pd.horizon * h;
  NeighborSearchInput<Dim> input;
  input.reference_position = &particles_.reference_position;
  input.volume = &particles_.reference_volume;
  input.group = &particles_.body;
  input.bonded = &bonded;
  input.horizon = delta;
  input.spacing = h;
  input.rule = partial_volume_rule<Dim>(spec_.pd.partial_volume);
  bonds_ = build_bond_families<Dim>(input);

  bond_weight_.assign(bonds_.bond_count(), 0.0);
  family_volume_.assign(n, 0.0);
  broken_volume_.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::int64_t b = bonds_.begin(i); b < bonds_.end(i); ++b)
      family_volume_[i] += bonds_.neighbor_volume(b);

  const std::vector<double> factor = surface_correction_factors();
  set_bond_weights(factor);

  std::vector<std::vector<Vec3>> polylines;
  for (const auto& crack : spec_.pd.precracks) polylines.push_back(crack.points);
  if (!polylines.empty())
    break_precrack_bonds<Dim>(polylines, all(std::as_const(particles_.reference_position)), bonds_,
                              all(bond_weight_), all(broken_volume_));
}

// Contact needs each body's rigidity, breakability, bond micromodulus and (rigid) spin.
template <int Dim>
std::vector<ContactBody> PdSimulation<Dim>::contact_bodies() const {
  const double delta = spec_.pd.horizon * spec_.pd.spacing;
  std::vector<ContactBody> bodies;
  for (const BodyModel& body : body_models_) {
    const MaterialSpec& material = spec_.materials[body.material];
    ContactBody c;
    c.rigid = body.model == MaterialModel::Rigid;
    c.breakable = std::isfinite(body.stretch_limit);
    c.micromodulus = contact_micromodulus<Dim>(material, delta, spec_.thickness);
    c.angular_velocity = body.rigid.angular_velocity;
    bodies.push_back(c);
  }
  return bodies;
}

template <int Dim>
void PdSimulation<Dim>::set_up_contact() {
  const std::vector<ContactBody> bodies = contact_bodies();
  if (PdContact<Dim>::needed(bodies)) {
    contact_ = std::make_unique<PdContact<Dim>>(
        spec_.pd, bodies, static_cast<int>(spec_.materials.size()),
        point_volume<Dim>(spec_.pd.spacing, spec_.thickness));
    if (distributed()) contact_->set_body_masses(body_mass_);
  }
}

// lambda_ij of every bond (surface_correction.hpp), body by body: PMB's energy weights bonds by
// |xi|, LPS' by |xi|^2. Empty when the correction is off.
template <int Dim>
std::vector<double> PdSimulation<Dim>::surface_correction_factors() const {
  std::vector<double> correction, bond_factor;
  if (!spec_.pd.surface_correction) return bond_factor;
  const std::size_t n = particles_.size();
  const double delta = spec_.pd.horizon * spec_.pd.spacing;
  const auto X = all(particles_.reference_position);
  correction.assign(Dim * n, 1.0);
  bond_factor.assign(bonds_.bond_count(), 1.0);
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Rigid) continue;
    const int power = body.model == MaterialModel::Pmb ? 1 : 2;
    const double nu = spec_.materials[body.material].poisson_ratio;
    axial_energy_factors<Dim>(body.points, X, bonds_, power, nu,
                              full_horizon_axial_integral<Dim>(delta, spec_.thickness, power, nu),
                              all(correction));
    bond_correction_factors<Dim>(body.points, X, bonds_, all(std::as_const(correction)),
                                 all(bond_factor));
  }
  return bond_factor;
}

// PMB: w = c lambda beta V_j / |xi|; LPS: w = lambda beta V_j (influence function 1), and the
// weighted volumes m from them.
template <int Dim>
void PdSimulation<Dim>::set_bond_weights(const std::vector<double>& factor) {
  const std::size_t n = particles_.size();
  const double delta = spec_.pd.horizon * spec_.pd.spacing;
  bool any_lps = false;
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Pmb) {
      const MaterialSpec& material = spec_.materials[body.material];
      const double c = pmb_micromodulus<Dim>(material, delta, spec_.thickness);
      pmb_bond_weights(body.points, c, bonds_, all(factor), all(bond_weight_));
    } else if (body.model == MaterialModel::Lps) {
      any_lps = true;
      for (int i = body.points.begin; i < body.points.end; ++i)
        for (std::int64_t b = bonds_.begin(i); b < bonds_.end(i); ++b)
          bond_weight_[b] = (factor.empty() ? 1.0 : factor[b]) * bonds_.neighbor_volume(b);
    }
  }
  if (!any_lps) return;
  lps_weighted_volume_.assign(n, 0.0);
  lps_dilatation_.assign(n, 0.0);
  lps_coefficient_.assign(n, 0.0);
  lps_alpha_.assign(n, 0.0);
  for (const BodyModel& body : body_models_)
    if (body.model == MaterialModel::Lps)
      lps_weighted_volume(body.points, bonds_, all(std::as_const(bond_weight_)),
                          all(lps_weighted_volume_));
}

// The contact repulsion stiffens the points it can press on: a point of the surface (a family
// short of the body's fullest) or of a breakable body may be pushed by up to 2^(Dim-1) points of
// the other side at once (a lattice nested half a spacing across, every partner within d), each a
// spring k V_i; the stiffest partner body sets k. Empty without contact.
template <int Dim>
std::vector<double> PdSimulation<Dim>::contact_stiffness() const {
  std::vector<double> extra;
  if (!contact_) return extra;
  extra.assign(particles_.size(), 0.0);
  constexpr double partners = Dim == 2 ? 2.0 : 4.0;
  for (std::size_t b = 0; b < body_models_.size(); ++b) {
    const BodyModel& body = body_models_[b];
    if (body.model == MaterialModel::Rigid) continue;
    const double k = contact_->stiffest_partner(static_cast<int>(b));
    double fullest = 0.0;
    for (int i = body.points.begin; i < body.points.end; ++i)
      if (owns(i)) fullest = std::max(fullest, family_volume_[i]);
    fullest = processes_.max(fullest);  // collective: every process, every body
    const bool every_point = std::isfinite(body.stretch_limit);
    for (int i = body.points.begin; i < body.points.end; ++i)
      if (every_point || family_volume_[i] < (1.0 - 1e-9) * fullest)
        extra[i] = partners * k * particles_.reference_volume[i];
  }
  return extra;
}

template <int Dim>
void PdSimulation<Dim>::choose_time_step() {
  const double delta = spec_.pd.horizon * spec_.pd.spacing;
  critical_dt_ = std::numeric_limits<double>::infinity();
  const std::vector<double> contact = contact_stiffness();
  // Across processes the minimum over the points this process owns (the copies' families may be
  // cut at the edge of what it holds), then over the processes.
  const auto over_own_points = [&](PointRange range, auto&& critical) {
    if (!distributed()) return critical(range);
    double smallest = std::numeric_limits<double>::infinity();
    for (int i = range.begin; i < range.end; ++i)
      if (owns(i)) smallest = std::min(smallest, critical(PointRange{i, i + 1}));
    return smallest;
  };
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Pmb) {
      critical_dt_ = std::min(critical_dt_, over_own_points(body.points, [&](PointRange range) {
        return pd::critical_time_step(range, body.density, bonds_, all(std::as_const(bond_weight_)),
                                      all(contact));
      }));
    } else if (body.model == MaterialModel::Lps) {
      const MaterialSpec& material = spec_.materials[body.material];
      const double c = equivalent_micromodulus<Dim>(material, delta, spec_.thickness);
      critical_dt_ = std::min(critical_dt_, over_own_points(body.points, [&](PointRange range) {
        return pd::critical_time_step(range, body.density, bonds_, c, all(contact));
      }));
    }
  }
  critical_dt_ = processes_.min(critical_dt_);
  if (spec_.time.dt) {
    dt_ = *spec_.time.dt;
  } else {
    const double fraction = spec_.time.cfl ? *spec_.time.cfl : default_time_step_fraction;
    if (!std::isfinite(critical_dt_))
      throw DeckError(DeckLocation{spec_.source_file, 0, 0, "time.dt"},
                      "required when no PD body has bonds (no stable step to estimate)");
    dt_ = fraction * critical_dt_;
  }
}

template <int Dim>
void PdSimulation<Dim>::find_velocity_conditions() {
  // Points belong to a region by their reference position, so a condition holds the same
  // material points for the whole run.
  for (const BoundaryConditionSpec& condition : spec_.boundary_conditions)
    for (const BodyModel& body : body_models_) {
      if (body.model == MaterialModel::Rigid) continue;
      for (int i = body.points.begin; i < body.points.end; ++i) {
        if (!condition.region.contains(to_vec3<Dim>(particles_.reference_position[i]))) continue;
        for (int d = 0; d < Dim; ++d)
          if (condition.velocity[d]) {
            condition_point_.push_back(i);
            condition_component_.push_back(d);
            condition_velocity_.push_back(*condition.velocity[d]);
          }
      }
    }
}

// One velocity-Verlet step (the central difference of Silling & Askari 2005 in kick-drift-kick
// form): half kick, drift, forces at the new positions, half kick. Prescribed velocities are
// imposed after each kick, so the drift carries them into the positions.
template <int Dim>
void PdSimulation<Dim>::step() {
  // The external impulse of the step (external_impulse()), term by term as the kicks apply it:
  // dt/2 of the outside force at each pass, the damping -alpha m v (semi-implicit: at v(n) in the
  // first kick, at v(n+1) in the second) and what the velocity conditions change.
  if (distributed() && (redistribute_due_ || moved_past_skin())) {
    std::vector<std::int64_t> broken = owned_broken_bonds();
    distribute(owned_records(), std::move(broken));
  }
  const double half = 0.5 * dt_;
  const double alpha = spec_.pd.damping;
  external_impulse_ = half * external_force_;
  if (alpha != 0.0) external_impulse_ -= alpha * half * deformable_momentum();
  first_half_kick();
  external_impulse_ += apply_velocity_conditions();
  drift();
  move_rigid_bodies(time_ + dt_);
  accumulate_forces(time_ + dt_);
  // Trapezoidal rule: a force pass's friction acts over the half steps on either side of it.
  const double power = frictional_power();
  frictional_work_ += 0.5 * dt_ * (frictional_power_ + power);
  frictional_power_ = power;
  external_impulse_ += half * external_force_;
  second_half_kick();
  if (alpha != 0.0) external_impulse_ -= alpha * half * deformable_momentum();
  external_impulse_ += apply_velocity_conditions();
  update_damage();
  time_ += dt_;
  ++step_;
  if (distributed()) refresh_ghosts();
}

template <int Dim>
void PdSimulation<Dim>::recompute_forces() {
  accumulate_forces(time_);
  frictional_power_ = frictional_power();
  update_damage();
  stress_step_ = -1;
  if (distributed()) refresh_ghosts();
}

template <int Dim>
void PdSimulation<Dim>::accumulate_forces(double t) {
  std::fill(force_.begin(), force_.end(), Vec<Dim>::Zero());
  add_bond_forces();
  add_external_forces(t);
  add_contact_forces();  // last: friction's stick force needs every other force
  if (contact_ && distributed())
    communicate([&] { contact_->sum_totals_over_processes(sum_); });
  external_force_ = external_force(t);
}

// The force on the deformable points from outside them at this pass: gravity, applied loads and
// the contact of rigid bodies (bond forces and contact between deformable bodies cancel in pairs).
template <int Dim>
Vec<Dim> PdSimulation<Dim>::external_force(double t) const {
  const double ramp = spec_.gravity_ramp > 0.0 ? std::min(1.0, t / spec_.gravity_ramp) : 1.0;
  const Vec<Dim> g = ramp * from_vec3<Dim>(spec_.gravity);
  Vec<Dim> f = Vec<Dim>::Zero();
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Rigid) continue;
    for (int i = body.points.begin; i < body.points.end; ++i)
      if (owns(i)) f += particles_.mass[i] * g + applied_force_[i];
  }
  processes_.sum_in_place(std::span<double>(f.data(), Dim));
  if (contact_)
    for (std::size_t a = 0; a < spec_.materials.size(); ++a)
      for (std::size_t b = 0; b < spec_.materials.size(); ++b)
        if (!spec_.materials[a].rigid() && spec_.materials[b].rigid())
          f += contact_->force_between(static_cast<int>(a), static_cast<int>(b));
  return f;
}

// sum m v over the deformable points, for the damping's share of the external impulse.
template <int Dim>
Vec<Dim> PdSimulation<Dim>::deformable_momentum() const {
  Vec<Dim> p = Vec<Dim>::Zero();
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Rigid) continue;
    for (int i = body.points.begin; i < body.points.end; ++i)
      if (owns(i)) p += particles_.mass[i] * particles_.velocity[i];
  }
  processes_.sum_in_place(std::span<double>(p.data(), Dim));
  return p;
}

template <int Dim>
void PdSimulation<Dim>::add_bond_forces() {
  const auto x = all(std::as_const(particles_.position));
  const auto volume = all(std::as_const(particles_.reference_volume));
  for (const BodyModel& body : body_models_) {
    switch (body.model) {
      case MaterialModel::Pmb:
        add_pmb_forces<Dim>(body.points, body.stretch_limit, x, volume, bonds_, all(bond_weight_),
                            all(broken_volume_), all(force_));
        break;
      case MaterialModel::Lps:
        lps_dilatation<Dim>(body.points, body.stretch_limit, x, bonds_,
                            all(std::as_const(lps_weighted_volume_)), all(bond_weight_),
                            all(broken_volume_), all(lps_dilatation_));
        lps_force_coefficients<Dim>(body.points, body.bulk_modulus, body.shear_factor,
                                    all(std::as_const(lps_weighted_volume_)),
                                    all(std::as_const(lps_dilatation_)), all(lps_coefficient_),
                                    all(lps_alpha_));
        add_lps_forces<Dim>(body.points, x, volume, bonds_, all(std::as_const(bond_weight_)),
                            all(std::as_const(lps_coefficient_)), all(std::as_const(lps_alpha_)),
                            all(force_));
        break;
      default:
        break;  // rigid: no bonds
    }
  }
}

// Contact (pd_contact.hpp): contact neighbours (points of other bodies, or of the same body no
// longer bonded, within the contact radius; a Verlet list with a skin), the short-range
// repulsion and the deck's friction model, added to force_; the per-material-pair totals are kept
// for contact_force().
template <int Dim>
ContactState<Dim> PdSimulation<Dim>::contact_state() const {
  ContactState<Dim> state;
  state.position = all(particles_.position);
  state.reference_position = all(particles_.reference_position);
  state.velocity = all(particles_.velocity);
  state.volume = all(particles_.reference_volume);
  state.mass = all(particles_.mass);
  state.body = all(particles_.body);
  state.material = all(particles_.material);
  state.bonds = &bonds_;
  state.bond_weight = all(bond_weight_);
  state.dt = dt_;
  if (distributed()) {
    state.owned = all(owned_);
    state.sum_over_processes = &sum_;
  }
  return state;
}

template <int Dim>
void PdSimulation<Dim>::add_contact_forces() {
  if (contact_) contact_->add_forces(contact_state(), all(force_));
}

template <int Dim>
template <class Update>
void PdSimulation<Dim>::for_each_deformable_point(Update&& update) {
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Rigid) continue;
    for_each_block<int>(body.points.begin, body.points.end, worth_threads(body.points.size()),
                        [&](int first, int last) {
                          for (int i = first; i < last; ++i) update(i);
                        });
  }
}

template <int Dim>
void PdSimulation<Dim>::add_external_forces(double t) {
  // The deck's gravity_ramp: gravity rises linearly from zero over that time (a load applied
  // without the dynamic overshoot of a sudden one).
  const double ramp = spec_.gravity_ramp > 0.0 ? std::min(1.0, t / spec_.gravity_ramp) : 1.0;
  const Vec<Dim> g = ramp * from_vec3<Dim>(spec_.gravity);
  for_each_deformable_point([&](int i) { force_[i] += particles_.mass[i] * g + applied_force_[i]; });
}

// Mass-proportional damping -alpha m v (dynamic relaxation) enters the kicks semi-implicitly:
// v(n+1/2) = (1 - alpha dt/2) v(n) + dt/2 F/m, v(n+1) = (v(n+1/2) + dt/2 F/m) / (1 + alpha dt/2),
// the damped leapfrog, which is the undamped velocity Verlet when alpha = 0.
template <int Dim>
void PdSimulation<Dim>::first_half_kick() {
  const double half = 0.5 * dt_;
  const double keep = 1.0 - spec_.pd.damping * half;
  for_each_deformable_point([&](int i) {
    particles_.velocity[i] = keep * particles_.velocity[i] + (half * inverse_mass_[i]) * force_[i];
  });
}

template <int Dim>
void PdSimulation<Dim>::second_half_kick() {
  const double half = 0.5 * dt_;
  const double scale = 1.0 / (1.0 + spec_.pd.damping * half);
  for_each_deformable_point([&](int i) {
    particles_.velocity[i] = scale * (particles_.velocity[i] + (half * inverse_mass_[i]) * force_[i]);
  });
}

template <int Dim>
void PdSimulation<Dim>::drift() {
  for_each_deformable_point([&](int i) { particles_.position[i] += dt_ * particles_.velocity[i]; });
}

template <int Dim>
void PdSimulation<Dim>::move_rigid_bodies(double t) {
  for (const BodyModel& body : body_models_) {
    if (body.model != MaterialModel::Rigid) continue;
    const Mat<Dim> rotation = body.rigid.rotation(t);
    for (int i = body.points.begin; i < body.points.end; ++i) {
      particles_.position[i] = body.rigid.position(particles_.reference_position[i], t, rotation);
      particles_.velocity[i] = body.rigid.point_velocity(particles_.position[i], t);
    }
  }
}

template <int Dim>
Vec<Dim> PdSimulation<Dim>::apply_velocity_conditions() {
  Vec<Dim> impulse = Vec<Dim>::Zero();
  for (std::size_t k = 0; k < condition_point_.size(); ++k) {
    double& v = particles_.velocity[condition_point_[k]][condition_component_[k]];
    if (owns(static_cast<std::size_t>(condition_point_[k])))
      impulse[condition_component_[k]] += particles_.mass[condition_point_[k]] * (condition_velocity_[k] - v);
    v = condition_velocity_[k];
  }
  processes_.sum_in_place(std::span<double>(impulse.data(), Dim));
  return impulse;
}

template <int Dim>
void PdSimulation<Dim>::update_damage() {
  const int n = static_cast<int>(particles_.size());
  for_each_block<int>(0, n, worth_threads(n), [&](int first, int last) {
    for (int i = first; i < last; ++i)
      particles_.damage[i] = family_volume_[i] > 0.0 ? broken_volume_[i] / family_volume_[i] : 0.0;
  });
}

template <int Dim>
void PdSimulation<Dim>::update_stress() const {
  const auto x = all(std::as_const(particles_.position));
  const auto X = all(std::as_const(particles_.reference_position));
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Pmb)
      pmb_stress<Dim>(body.points, x, X, bonds_, all(bond_weight_), all(particles_.stress));
    else if (body.model == MaterialModel::Lps)
      lps_stress<Dim>(body.points, x, X, bonds_, all(bond_weight_), all(lps_coefficient_),
                      all(lps_alpha_), all(particles_.stress));
  }
  stress_step_ = step_;
}

template <int Dim>
const Particles<Dim>& PdSimulation<Dim>::particles() const {
  if (stress_wanted_ && stress_step_ != step_) update_stress();
  if (!distributed()) return particles_;
  if (owned_particles_step_ != step_ || owned_particles_.size() == 0) {
    // This process's own points, in lattice order: the copies are another process's to report.
    owned_particles_ = Particles<Dim>{};
    std::vector<std::size_t> own;
    for (std::size_t i = 0; i < particles_.size(); ++i)
      if (owned_[i]) own.push_back(i);
    parallel::copy_particles(Particles<Dim>::arrays(particles_), own, Particles<Dim>::arrays(owned_particles_));
    owned_particles_step_ = step_;
  }
  return owned_particles_;
}

template <int Dim>
EnergyBreakdown PdSimulation<Dim>::energy() const {
  EnergyBreakdown e;
  const Vec<Dim> g = from_vec3<Dim>(spec_.gravity);
  const auto x = all(std::as_const(particles_.position));
  const auto volume = all(std::as_const(particles_.reference_volume));
  std::fill(point_energy_.begin(), point_energy_.end(), 0.0);
  for (const BodyModel& body : body_models_) {
    if (body.model == MaterialModel::Rigid) continue;
    if (body.model == MaterialModel::Pmb)
      pmb_point_energy<Dim>(body.points, x, volume, bonds_, all(bond_weight_), all(point_energy_));
    else
      lps_point_energy<Dim>(body.points, body.bulk_modulus, x, volume, bonds_, all(bond_weight_),
                            all(lps_dilatation_), all(lps_alpha_), all(point_energy_));
    // Serial sums in point order: the same figures whatever the thread count.
    for (int i = body.points.begin; i < body.points.end; ++i) {
      if (!owns(i)) continue;
      const double m = particles_.mass[i];
      e.kinetic += 0.5 * m * particles_.velocity[i].squaredNorm();
      e.potential -= m * g.dot(particles_.position[i] - particles_.reference_position[i]);
      e.strain += point_energy_[i];
    }
  }
  // The repulsion is elastic: its energy counts as stored (strain) energy.
  if (contact_) e.strain += contact_->elastic_energy(contact_state());
  if (distributed()) {
    std::array<double, 3> parts{e.kinetic, e.potential, e.strain};
    processes_.sum_in_place(parts);
    e.kinetic = parts[0];
    e.potential = parts[1];
    e.strain = parts[2];
  }
  e.frictional = frictional_work_;
  return e;
}

template <int Dim>
Vec3 PdSimulation<Dim>::contact_force(int material_a, int material_b) const {
  if (!contact_) return Vec3::Zero();
  return to_vec3<Dim>(contact_->force_between(material_a, material_b));
}

template <int Dim>
std::vector<SurfaceMesh> PdSimulation<Dim>::surfaces() const {
  if (!contact_) return {};
  if (distributed()) return {gathered_pair_mesh()};
  return {contact_->pair_mesh(all(particles_.position))};
}

template <int Dim>
void PdSimulation<Dim>::check_health() const {
  const int n = static_cast<int>(particles_.size());
  // The lowest bad index: each block's first, the least of them kept.
  std::atomic<int> lowest{n};
  for_each_block<int>(0, n, worth_threads(n), [&](int first, int last) {
    for (int i = first; i < last; ++i)
      if (owns(i) && (!particles_.position[i].allFinite() || !particles_.velocity[i].allFinite())) {
        int seen = lowest.load();
        while (i < seen && !lowest.compare_exchange_weak(seen, i)) {
        }
        break;
      }
  });
  const int bad = lowest.load();
  // Across processes every process throws the same message, for the lowest lattice index.
  double point = bad < n ? static_cast<double>(distributed() ? global_id_[bad] : bad)
                         : std::numeric_limits<double>::infinity();
  double body = bad < n ? static_cast<double>(particles_.body[bad]) : 0.0;
  if (distributed()) {
    std::array<double, 2> found{point, std::numeric_limits<double>::infinity()};
    processes_.min_in_place(std::span<double>(found.data(), 1));
    found[1] = bad < n && point == found[0] ? body : std::numeric_limits<double>::infinity();
    processes_.min_in_place(std::span<double>(found.data() + 1, 1));
    point = found[0];
    body = found[1];
  }
  if (std::isfinite(point))
    throw SimulationError(
        step_, time_,
        fmt::format("PD point {} of body '{}' has a non-finite position or velocity (time step "
                    "{:.3g} s against a stable estimate of {:.3g} s)",
                    static_cast<long long>(point), spec_.bodies[static_cast<std::size_t>(body)].name,
                    dt_, critical_dt_));
}

template <int Dim>
std::int64_t PdSimulation<Dim>::intact_bond_count() const {
  if (!distributed())
    return std::count_if(bond_weight_.begin(), bond_weight_.end(), [](double w) { return w != 0.0; });
  long long count = 0;  // the bonds of this process's points, over the processes
  for (std::size_t i = 0; i < particles_.size(); ++i)
    if (owned_[i])
      for (std::int64_t b = bonds_.begin(i); b < bonds_.end(i); ++b) count += bond_weight_[b] != 0.0;
  return processes_.sum(count);
}

// Checkpoints: the points' current state (point_state_arrays(), by name; entries are found by
// name, so their order in the file is free), the bond weights (0 = broken) and broken volumes, the
// LPS dilatation and force coefficients and the total force of the last force pass (the next half
// kick and energy() read them), the applied loads, time, step and dt. The reference state, bond
// families, family volumes, body models and velocity conditions are rebuilt from the spec by the
// constructor; stress is derived on demand.
template <int Dim>
void PdSimulation<Dim>::save_state(StateWriter& out) const {
  out.write_value("pd.dt", dt_);
  out.write_value("pd.time", time_);
  out.write_value("pd.step", step_);
  out.write_value("pd.frictional_work", frictional_work_);
  out.write_value("pd.frictional_power", frictional_power_);
  if (distributed()) {
    // This process's own points with their state and broken bonds; the restored run distributes
    // them afresh, and so does this one at its next step after a checkpoint written to disk
    // (checkpoint_written), so that both go on from the same boxes and copies (a restart that
    // repeats the run bit for bit). A rewind to an in-memory snapshot agrees to round-off.
    PointRecords<Dim> mine = owned_records();
    for_each_array(PointRecords<Dim>::arrays(mine), [&out](std::string_view name, const auto& values) {
      out.write_array(fmt::format("pd.points.{}", name), values);
    });
    out.write_array("pd.points.broken_bonds", owned_broken_bonds());
    if (contact_) contact_->save_totals(out);
    return;
  }
  for_each_array(point_state_arrays(*this), [&out](std::string_view name, const auto& values) {
    out.write_array(fmt::format("pd.{}", name), values);
  });
  out.write_array("pd.bond_weight", bond_weight_);
  if (contact_) contact_->save_state(out);
}

template <int Dim>
void PdSimulation<Dim>::restore_state(const StateReader& in) {
  if (distributed()) {
    const StateReader* piece = &in;
    restore_pieces(std::span<const StateReader* const>(&piece, 1), in);
    return;
  }
  in.read_value("pd.dt", dt_);
  in.read_value("pd.time", time_);
  in.read_value("pd.step", step_);
  in.read_value("pd.frictional_work", frictional_work_);
  in.read_value("pd.frictional_power", frictional_power_);
  // Sizes are the deck's: a checkpoint of another deck fails here instead of running on.
  for_each_array(point_state_arrays(*this), [&in](std::string_view name, auto& values) {
    in.read_array_of_size(fmt::format("pd.{}", name), values);
  });
  in.read_array_of_size("pd.bond_weight", bond_weight_);
  if (contact_) contact_->restore_state(in);
  external_force_ = external_force(time_);  // from the restored state, as the pass computed it
  stress_step_ = -1;
}

// Across processes (collective): the points of every piece given, which together with the other
// processes' pieces hold every point once, distributed afresh over the boxes cut over them. The
// scalars (time, step, friction's work, the contact totals) are the run's, the same in every piece.
template <int Dim>
void PdSimulation<Dim>::restore_pieces(std::span<const StateReader* const> pieces, const StateReader& first) {
  if (!distributed()) throw std::logic_error("PdSimulation::restore_pieces: a run on one process reads one checkpoint");
  first.read_value("pd.dt", dt_);
  first.read_value("pd.time", time_);
  first.read_value("pd.step", step_);
  first.read_value("pd.frictional_work", frictional_work_);
  first.read_value("pd.frictional_power", frictional_power_);
  PointRecords<Dim> all_points;
  std::vector<std::int64_t> broken;
  for (const StateReader* piece : pieces) {
    PointRecords<Dim> points;
    for_each_array(PointRecords<Dim>::arrays(points), [piece](std::string_view name, auto& values) {
      piece->read_array(fmt::format("pd.points.{}", name), values);
    });
    std::vector<std::size_t> every(points.size());
    std::iota(every.begin(), every.end(), std::size_t{0});
    parallel::copy_particles(PointRecords<Dim>::arrays(points), every, PointRecords<Dim>::arrays(all_points));
    std::vector<std::int64_t> pairs;
    piece->read_array("pd.points.broken_bonds", pairs);
    broken.insert(broken.end(), pairs.begin(), pairs.end());
  }
  distribute(std::move(all_points), std::move(broken));
  if (contact_) contact_->restore_totals(first);
  external_force_ = external_force(time_);  // from the restored state, as the pass computed it
  stress_step_ = -1;
}

template class PdSimulation<2>;
template class PdSimulation<3>;
template std::unique_ptr<Simulation<2>> make_simulation<2>(const SimulationSpec&);
template std::unique_ptr<Simulation<3>> make_simulation<3>(const SimulationSpec&);
template std::unique_ptr<Simulation<2>> make_simulation<2>(const SimulationSpec&, const parallel::Communicator&);
template std::unique_ptr<Simulation<3>> make_simulation<3>(const SimulationSpec&, const parallel::Communicator&);

}  // namespace tribo::pd
