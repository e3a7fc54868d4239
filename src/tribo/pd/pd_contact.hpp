#pragma once
// PD contact (issue 6; seed document 002; Kamensky et al. 2019; issue 12): the contact neighbour
// list, the repulsion (smoothed_surface.hpp: against a smoothed surface of the other body, the
// default; or the seed's pairwise springs, short_range_force.hpp) and the friction model of the
// deck, evaluated once per force pass and
// added to the solver's force array. It also keeps what the output needs: the contact force per
// pair of materials, the power friction dissipates, the repulsion's energy and the pairs in
// contact (a VTK surface of 2-point cells).
#include <functional>
#include <span>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/contact_neighbor_search.hpp"
#include "tribo/pd/friction_models.hpp"
#include "tribo/pd/objective_friction.hpp"
#include "tribo/pd/smoothed_surface.hpp"

namespace tribo::pd {

// What contact needs of each body.
struct ContactBody {
  bool rigid = false;
  bool breakable = false;                // finite critical stretch: its broken bonds can touch
  double micromodulus = 0.0;             // contact_micromodulus, N/m^6 (0 = rigid)
  Vec3 angular_velocity = Vec3::Zero();  // rigid bodies' field v_i + omega x (x - y_i)
};

// The solver's state at one force pass. The force array passed with it must already hold every
// other force of the pass (bonds, gravity, loads): friction's stick force needs them.
template <int Dim>
struct ContactState {
  std::span<const Vec<Dim>> position;  // y, m
  std::span<const Vec<Dim>> reference_position;  // X, m (pairwise contact, LAMMPS' radius rule)
  std::span<const Vec<Dim>> velocity;  // m/s
  std::span<const double> volume;      // m^3
  std::span<const double> mass;        // kg
  std::span<const int> body;
  std::span<const int> material;
  const BondFamilies* bonds = nullptr;
  std::span<const double> bond_weight;  // 0 = broken
  double dt = 0.0;                      // s, the step the forces will act over
  // Across processes (docs/parallel.md, "PD"): which points this process owns (empty: all) and
  // the sum over the processes (null: one process). The list holds this process's points and
  // copies of its neighbours' (ghosts); every pass runs over all of them, and what is reported
  // (totals, dissipation, energy, pairs) counts a point's share on its owner only: a pair's
  // force on its owned end, its dissipation and cell where its first point is owned.
  std::span<const char> owned;
  const std::function<void(std::span<double>)>* sum_over_processes = nullptr;
  bool owns(int point) const { return owned.empty() || owned[point] != 0; }
};

// The contact list's cutoff (m): the kernel support R (smoothed), d (pairwise), or LAMMPS' largest
// d, 1.35 h.
double list_radius(const PdSpec& pd);

template <int Dim>
class PdContact {
 public:
  // radius and skin from the spec (in spacings; skin = half the radius: a rebuild every ~d/4 of
  // travel, a list about 1.5^Dim times the pairs in contact). cell_volume: a lattice point's
  // volume h^Dim (x thickness in 2D), the unit of the smoothed volume fraction; 0 = h^Dim.
  PdContact(const PdSpec& pd, const std::vector<ContactBody>& bodies, int material_count,
            double cell_volume = 0.0);

  // Whether any pair of points can ever touch (two bodies not both rigid, or a breakable body).
  static bool needed(const std::vector<ContactBody>& bodies);

  // Adds the contact forces at `state` to `force` (N); rebuilds the list when the skin is used up.
  void add_forces(const ContactState<Dim>& state, std::span<Vec<Dim>> force);

  // At the last add_forces: force on material a by material b (N), friction's dissipated power
  // (W, >= 0) and the pairs in contact.
  Vec<Dim> force_between(int material_a, int material_b) const;
  double dissipation_rate() const { return dissipation_; }
  std::size_t pairs_in_contact() const { return active_first_.size(); }
  // The repulsion's stored energy at `state` (J).
  double elastic_energy(const ContactState<Dim>& state) const;
  // Pairs in contact at the last add_forces, drawn at `position` (those whose first point is in
  // `owned`, when given).
  SurfaceMesh pair_mesh(std::span<const Vec<Dim>> position, std::span<const char> owned = {}) const;

  // The largest c_s/delta (N/m^7) of body b against any body it can touch (itself when
  // breakable), for the stable time step.
  double stiffest_partner(int body) const;

  // Across processes: each body's whole mass (kg), summed over every process's points (else the
  // first pass sums the points it holds); the slip history per point, for the copies of
  // another process's points; the totals and dissipation of the last pass completed over the
  // processes (collective).
  void set_body_masses(std::vector<double> masses) { body_mass_ = std::move(masses); }
  std::vector<double>& slip_history() { return slip_; }
  bool keeps_slip_history() const { return weakening_distance_ > 0.0; }
  void sum_totals_over_processes(const std::function<void(std::span<double>)>& sum);

  // Checkpoints: the list, and what the outputs read of the last pass (totals, dissipation,
  // pairs in contact).
  void save_state(StateWriter& out) const;
  void restore_state(const StateReader& in);
  // Only the totals and dissipation of the last pass (a run across processes rebuilds the rest).
  void save_totals(StateWriter& out) const;
  void restore_totals(const StateReader& in);

  double radius() const { return radius_; }
  const ContactNeighborList<Dim>& neighbors() const { return list_; }
  FrictionModel model() const { return model_; }
  PdContactModel contact_model() const { return contact_model_; }
  const SurfaceCalibration& calibration() const { return calibration_; }

 private:
  void find_pairs_in_contact(const ContactState<Dim>& state, std::span<Vec<Dim>> force);
  void find_smoothed_pairs(const ContactState<Dim>& state, std::span<Vec<Dim>> force);
  template <class PairFunction>
  void for_each_unbonded_pair_within(const ContactState<Dim>& state, PairFunction&& fn) const;
  void push_spring(int p, int i, double k, double d, const Vec<Dim>& M, double r,
                   const ContactState<Dim>& state, std::span<Vec<Dim>> force);
  double pair_radius(int p, int i, const ContactState<Dim>& state) const;
  double fragment_radius(int p, int i, const ContactState<Dim>& state) const;
  void push_active(int p, int i, double normal, const Vec<Dim>& direction,
                   const Vec<Dim>& surface_normal, const ContactState<Dim>& state,
                   std::span<Vec<Dim>> force);
  // dE_p/dphi_p of the smoothed surface's energy (J), 0 below phi0.
  double energy_slope(int point, double phi, const ContactState<Dim>& state) const;
  // dD_p/d(dphi_p/dt) of the contact dashpot (J s), 0 out of contact.
  double damping_slope(int point, const ContactState<Dim>& state) const;
  void add_friction(const ContactState<Dim>& state, std::span<Vec<Dim>> force);
  template <class PairLaw>
  void add_pairwise_friction(const ContactState<Dim>& state, std::span<Vec<Dim>> force,
                             PairLaw&& law);
  void add_objective_friction(const ContactState<Dim>& state, std::span<Vec<Dim>> force);
  void add_to_totals(int p, int i, const ContactState<Dim>& state, const Vec<Dim>& on_p);
  double share(std::size_t pair) const;
  double pressing(std::size_t pair) const;
  // The law of pair k: the deck's, weakened by its points' slip when static > kinetic.
  FrictionLaw pair_law(std::size_t pair) const;
  void update_slip(const ContactState<Dim>& state);
  double adhesion_area(std::size_t pair, const ContactState<Dim>& state) const;
  double stick_rate(std::size_t pair, const ContactState<Dim>& state) const;
  Vec<Dim> trial_velocity(int point, const ContactState<Dim>& state,
                          std::span<const Vec<Dim>> force) const;
  Vec<Dim> rigid_velocity(int body, int point, const Vec<Dim>& x,
                          const ContactState<Dim>& state) const;

  double radius_;   // d (pairwise) or the kernel support R (smoothed), m
  double spacing_;  // h, m
  FrictionModel model_;
  PdContactModel contact_model_;
  bool lammps_radius_;
  double cell_volume_;               // V_cell, m^3
  SurfaceCalibration calibration_;   // phi0, G0 (smoothed)
  std::vector<double> point_stiffness_;  // per body: stiffness c / delta (N/m^7), 0 = rigid
  FrictionLaw law_;
  double weakening_distance_ = 0.0;  // D_c, m; > 0 only when static friction exceeds kinetic
  std::vector<double> slip_;         // per point: slip since it last stuck (m), checkpointed
  std::vector<double> slip_speed_;   // scratch: per point, its pairs' slip speed by load (-1: sticks)
  int body_count_;
  int material_count_;
  std::vector<ContactBody> bodies_;
  std::vector<double> pair_stiffness_;  // c_s / delta per pair of bodies, N/m^7
  std::vector<double> fragment_stiffness_;  // per body: fragment springs, 15 c / delta, N/m^7
  ContactEligibility eligibility_;
  ContactNeighborList<Dim> list_;

  // The pairs in contact at the last pass (reused storage).
  std::vector<int> active_first_, active_second_;
  std::vector<double> active_normal_;
  std::vector<Vec<Dim>> active_direction_;       // M = unit(y_i - y_p): repulsion, BFCM
  std::vector<Vec<Dim>> active_surface_normal_;  // n: slip is projected off it (NFCM, objective)
  // Smoothed model, per point (reset after each pass): phi_p and its gradient g_p; per pair
  // within R: the pair's points, direction and w'(q) / (R V_cell).
  std::vector<double> phi_;
  std::vector<double> phi_rate_;     // d phi_p / dt
  std::vector<double> body_mass_;    // per body, kg (set at the first pass)
  std::vector<int> contact_points_;  // per body: its points with phi > phi0 (this pass)
  std::vector<char> counted_;        // scratch: point already counted
  std::vector<double> near_rate_;     // per pair within R: dr/dt
  std::vector<Vec<Dim>> phi_gradient_;
  std::vector<int> near_first_, near_second_;
  std::vector<Vec<Dim>> near_direction_;
  std::vector<double> near_slope_;
  std::vector<Vec<Dim>> active_friction_;  // scratch: friction on each pair's first point
  std::vector<double> active_slip_;        // scratch: PairFriction::slip_after per pair
  std::vector<double> normal_of_point_;    // per point: sum of its pairs' N (their shares)
  std::vector<Vec<Dim>> totals_;           // material_count^2, force on a by b
  double dissipation_ = 0.0;
  ObjectiveFriction<Dim> objective_;
};

}  // namespace tribo::pd
