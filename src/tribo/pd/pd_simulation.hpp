#pragma once
// The peridynamic solver: lattice bodies, PMB or LPS bonds with breaking, velocity Verlet.
// The driver reaches it only through make_simulation; tests and benches may also build a
// PdSimulation directly for its PD-specific access (bonds, loads, the stable step).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <tuple>
#include <vector>

#include "tribo/core/named_arrays.hpp"
#include "tribo/core/simulation.hpp"
#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"
#include "tribo/pd/pd_contact.hpp"
#include "tribo/pd/rigid_motion.hpp"
#include "tribo/pd/point_records.hpp"
#include "tribo/parallel/communicator.hpp"

namespace tribo::pd {

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec);

// The same solver on the processes of `processes` (docs/parallel.md, "PD"): each owns the points
// of one box of a recursive coordinate bisection of the current positions and holds copies
// (ghosts) of the other processes' points within a width that covers every interaction its
// points' forces depend on; it steps them all, keeps its own, and refreshes the copies from their
// owners after every step. The boxes are recut, and the points moved, once a point has moved
// half the ghosts' skin and after every checkpoint written to disk. energy(), contact_force(),
// external_impulse(), check_health() and surfaces() are collective and return the whole run's
// values; particles() holds this process's points. On one process it is make_simulation(spec).
template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec,
                                                 const parallel::Communicator& processes);

template <int Dim>
class PdSimulation final : public Simulation<Dim> {
 public:
  // Throws DeckError for a spec PD cannot run (spec_check.hpp) or a body with no lattice point.
  explicit PdSimulation(const SimulationSpec& spec);
  PdSimulation(const SimulationSpec& spec, const parallel::Communicator& processes);

  void step() override;
  double time() const override { return time_; }
  long step_count() const override { return step_; }
  double dt() const override { return dt_; }
  const Particles<Dim>& particles() const override;
  const SimulationSpec& spec() const override { return spec_; }
  EnergyBreakdown energy() const override;
  Vec3 contact_force(int material_a, int material_b) const override;
  Vec3 external_impulse() const override { return to_vec3<Dim>(external_impulse_); }
  void check_health() const override;
  // The pairs in contact as 2-point cells ("contact_pairs"), when the run has contact.
  std::vector<SurfaceMesh> surfaces() const override;
  // Checkpoints (docs/reliability.md): every member that step() changes is written by
  // save_state(): per-point arrays through point_state_arrays(), the rest (bond weights, scalars,
  // contact state) there and in restore_state().
  void save_state(StateWriter& out) const override;
  void restore_state(const StateReader& in) override;
  double time_step_limit() const override { return critical_dt_; }
  void checkpoint_written() override { redistribute_due_ = distributed(); }
  bool restores_any_process_count() const override { return distributed(); }
  void restore_pieces(std::span<const StateReader* const> pieces, const StateReader& first) override;
  int process_count() const override { return processes_.size(); }
  int process_rank() const override { return processes_.rank(); }
  double communication_seconds() const override { return communication_seconds_; }
  void sum_over_processes(std::span<double> values) const override { processes_.sum_in_place(values); }
  void max_over_processes(std::span<double> values) const override { processes_.max_in_place(values); }
  // Across processes: how often the points were distributed (the first time included), and the
  // copies of other processes' points this process holds.
  long distributions() const { return distributions_; }
  std::size_t ghost_count() const;
  // Every point this process holds (its own and the copies, in lattice order; force() follows the
  // same order) and whether it owns point i. On one process: particles() and true.
  const Particles<Dim>& held_points() const { return particles_; }
  bool owns_point(std::size_t i) const { return owns(i); }

  // PD-specific access.
  const BondFamilies& bonds() const { return bonds_; }
  bool bond_intact(std::int64_t bond) const { return bond_weight_[bond] != 0.0; }
  std::int64_t intact_bond_count() const;
  // Silling & Askari's stable step, min over the deformable bodies (s; +inf if none).
  double critical_time_step() const { return critical_dt_; }
  // Points of each body, deck order.
  const std::vector<PointRange>& body_points() const { return body_points_; }
  // External force on each point (N), applied every step until changed; zero at start.
  std::vector<Vec<Dim>>& applied_force() { return applied_force_; }
  // Total force on each point at the current state (N): bonds, contact, gravity, loads.
  const std::vector<Vec<Dim>>& force() const { return force_; }
  // Positions and velocities, writable for initial conditions the deck cannot express (a mode
  // shape, a pre-strain). After editing positions call recompute_forces(), which evaluates the
  // forces (breaking bonds past their critical stretch) at the current state for the next step.
  std::vector<Vec<Dim>>& position() { return particles_.position; }
  std::vector<Vec<Dim>>& velocity() { return particles_.velocity; }
  void recompute_forces();
  // Contact (pd_contact.hpp; null when no two points can ever touch) and friction's dissipation:
  // power at the last force pass (W) and its time integral so far (J, energy().frictional).
  const PdContact<Dim>* contact() const { return contact_.get(); }
  ContactState<Dim> contact_state() const;  // what contact sees of the current state
  double frictional_power() const { return contact_ ? contact_->dissipation_rate() : 0.0; }
  double frictional_work() const { return frictional_work_; }

 private:
  struct BodyModel {
    PointRange points;
    int material = 0;  // index into spec.materials
    MaterialModel model = MaterialModel::Pmb;
    double density = 0.0;
    double stretch_limit = 0.0;  // 1 + critical stretch; +inf = unbreakable
    double bulk_modulus = 0.0;   // LPS kappa, Pa
    double shear_factor = 0.0;   // LPS 15 G (3D) or 8 G (2D), Pa
    RigidMotion<Dim> rigid;      // used when model == Rigid
  };

  bool distributed() const { return processes_.size() > 1; }
  bool owns(std::size_t point) const { return owned_.empty() || owned_[point] != 0; }
  void set_up_points();
  void set_up_bonds();
  void set_up_contact();
  std::vector<ContactBody> contact_bodies() const;  // what contact needs of each body
  std::vector<double> surface_correction_factors() const;
  void set_bond_weights(const std::vector<double>& factor);
  std::vector<double> contact_stiffness() const;
  void choose_time_step();
  void find_velocity_conditions();

  // The force pass, one function so that contact (issue 6) adds to the same accumulation.
  void accumulate_forces(double t);  // forces at time t (s), the state's
  void add_bond_forces();
  void add_contact_forces();
  void add_external_forces(double t);

  void first_half_kick();   // v(n+1/2) = v(n) + dt/2 a(n), with damping
  void second_half_kick();  // v(n+1) = v(n+1/2) + dt/2 a(n+1), with damping
  void drift();             // x(n+1) = x(n) + dt v(n+1/2)
  // update(i) for every point of the deformable bodies, each body's points in blocks over the
  // threads when they are worth them (pd/parallel.hpp).
  template <class Update>
  void for_each_deformable_point(Update&& update);
  void move_rigid_bodies(double t);
  Vec<Dim> apply_velocity_conditions();  // returns the impulse it gave (N s)
  Vec<Dim> external_force(double t) const;
  Vec<Dim> deformable_momentum() const;
  void update_damage();
  void update_stress() const;

  // Across processes (pd_distribution.cpp).
  PointRecords<Dim> owned_records() const;
  std::vector<std::int64_t> owned_broken_bonds() const;
  void distribute(PointRecords<Dim> mine, std::vector<std::int64_t> broken);
  void take_points(PointRecords<Dim>& records, const std::vector<std::int64_t>& broken);
  double ghost_width() const;
  bool moved_past_skin() const;
  void refresh_ghosts();
  SurfaceMesh gathered_pair_mesh() const;
  template <class Fn>
  void communicate(Fn&& fn) const {  // fn's wall time counts as exchanging (communication_seconds())
    const auto start = std::chrono::steady_clock::now();
    fn();
    communication_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // Every per-point array that step() changes (named_arrays.hpp), Particles' and the solver's:
  // checkpoints hold them as "pd.<name>". A per-point state array the solver adds is listed here
  // and nowhere else. The other per-point arrays (reference positions, masses, volumes, family
  // volumes, inverse masses) are rebuilt from the spec; stress is derived on demand.
  template <class Self>
  static auto point_state_arrays(Self& self) {
    return std::tuple{NamedArray{"position", self.particles_.position},
                      NamedArray{"velocity", self.particles_.velocity},
                      NamedArray{"damage", self.particles_.damage},
                      NamedArray{"broken_volume", self.broken_volume_},
                      NamedArray{"lps_dilatation", self.lps_dilatation_},
                      NamedArray{"lps_coefficient", self.lps_coefficient_},
                      NamedArray{"lps_alpha", self.lps_alpha_},
                      NamedArray{"force", self.force_},
                      NamedArray{"applied_force", self.applied_force_}};
  }

  SimulationSpec spec_;
  // Stress is a derived field, filled on demand by particles(); hence mutable.
  mutable Particles<Dim> particles_;
  mutable long stress_step_ = -1;
  bool stress_wanted_ = false;
  std::vector<PointRange> body_points_;
  std::vector<BodyModel> body_models_;

  BondFamilies bonds_;
  std::vector<double> bond_weight_;    // PMB c lambda beta V_j / |xi|; LPS beta V_j; 0 = broken
  std::vector<double> family_volume_;  // sum of beta V_j over the reference family
  std::vector<double> broken_volume_;  // sum of beta V_j over the broken bonds
  std::vector<double> lps_weighted_volume_, lps_dilatation_, lps_coefficient_, lps_alpha_;
  mutable std::vector<double> point_energy_;  // scratch for energy(), sized once

  std::vector<Vec<Dim>> force_;
  std::unique_ptr<PdContact<Dim>> contact_;
  double frictional_work_ = 0.0;   // J, trapezoidal integral of the dissipated power
  double frictional_power_ = 0.0;  // W, at the force pass of the last step
  // The summary's momentum balance: the outside force at the last force pass (recomputed from the
  // state on restore) and the external impulse of the last step (read right after it).
  Vec<Dim> external_force_ = Vec<Dim>::Zero();
  Vec<Dim> external_impulse_ = Vec<Dim>::Zero();
  std::vector<Vec<Dim>> applied_force_;
  std::vector<double> inverse_mass_;
  // Velocity boundary conditions as flat (point, component, value) lists.
  std::vector<int> condition_point_;
  std::vector<int> condition_component_;
  std::vector<double> condition_velocity_;

  double critical_dt_ = 0.0;
  double dt_ = 0.0;
  double time_ = 0.0;
  long step_ = 0;

  // Across processes (docs/parallel.md, "PD"); on one process processes_ is single and the rest
  // stays empty.
  parallel::Communicator processes_ = parallel::Communicator::single();
  std::function<void(std::span<double>)> sum_;  // processes_.sum_in_place, for contact
  std::vector<double> body_mass_;                // each body's whole mass, kg
  std::vector<std::int64_t> global_id_;          // per point: its index in the deck's lattice
  std::vector<char> owned_;                      // per point: this process owns it
  std::vector<int> owner_;                       // per point: the process that owns it
  std::vector<int> ghost_peers_;                 // processes whose box is within the ghost width
  std::vector<std::vector<std::size_t>> ghost_send_;     // per peer: own points it holds copies of
  std::vector<std::vector<std::size_t>> ghost_receive_;  // per peer: its points held here
  std::vector<Vec<Dim>> distributed_at_;         // positions at the last distribution
  double ghost_skin_ = 0.0;                      // m
  bool redistribute_due_ = false;                // set by a checkpoint written to disk
  long distributions_ = 0;
  mutable double communication_seconds_ = 0.0;   // surfaces() gathers at outputs
  mutable Particles<Dim> owned_particles_;       // particles() across processes
  mutable long owned_particles_step_ = -1;
};

}  // namespace tribo::pd
