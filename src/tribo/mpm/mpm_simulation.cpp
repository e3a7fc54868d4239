#include "tribo/mpm/mpm_simulation.hpp"

#include <algorithm>
#include <optional>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "tribo/core/error.hpp"
#include "tribo/core/named_arrays.hpp"
#include "tribo/mpm/affine_transfer.hpp"
#include "tribo/mpm/boundary_conditions.hpp"
#include "tribo/mpm/constitutive.hpp"
#include "tribo/mpm/crack_contact.hpp"
#include "tribo/mpm/crack_fields.hpp"
#include "tribo/mpm/crack_geometry.hpp"
#include "tribo/mpm/crack_scatter.hpp"
#include "tribo/mpm/crack_surfaces.hpp"
#include "tribo/mpm/multimaterial_contact.hpp"
#include "tribo/mpm/node_halo.hpp"
#include "tribo/mpm/particle_filling.hpp"
#include "tribo/mpm/particle_sort.hpp"
#include "tribo/mpm/rigid_interior.hpp"
#include "tribo/mpm/rigid_node_image.hpp"
#include "tribo/mpm/scatter_kernels.hpp"
#include "tribo/mpm/scatter_partition.hpp"
#include "tribo/mpm/scatter_stencil.hpp"
#include "tribo/mpm/stencil.hpp"
#include "tribo/parallel/ghost_exchange.hpp"
#include "tribo/parallel/particle_exchange.hpp"
#include "tribo/parallel/rcb_partition.hpp"

namespace tribo::mpm {

FieldLayout FieldLayout::from(const SimulationSpec& spec) {
  FieldLayout layout;
  const int materials = static_cast<int>(spec.materials.size());
  std::vector<bool> own(materials, false);
  for (const ContactPairSpec& pair : spec.mpm.contact.pairs)
    for (int m : pair.material_indices)
      if (m >= 0) own[m] = true;
  for (int m = 0; m < materials; ++m)
    if (spec.materials[m].rigid()) own[m] = true;  // a rigid field imposes its velocity

  // Field 0: every material without a field of its own (they move as one, perfectly bonded).
  layout.field_of_material.assign(materials, 0);
  layout.fields = 1;
  layout.rigid_field = {false};
  for (int m = 0; m < materials; ++m)
    if (own[m]) {
      layout.field_of_material[m] = layout.fields++;
      layout.rigid_field.push_back(spec.materials[m].rigid());
    }
  const int f = layout.fields;
  layout.bulk_modulus.assign(f, 0.0);
  for (int m = 0; m < materials; ++m) {
    if (spec.materials[m].rigid()) continue;
    double& k = layout.bulk_modulus[layout.field_of_material[m]];
    const double km = spec.materials[m].bulk_modulus();
    k = k > 0.0 ? std::min(k, km) : km;
  }
  // Pairs not listed stick: the same motion they would have in one shared field.
  layout.pair_law.assign(f * f, ContactLawSpec{ContactLaw::Stick});
  layout.pair_has_law.assign(f * f, false);
  for (const ContactPairSpec& pair : spec.mpm.contact.pairs) {
    const int a = layout.field_of_material[pair.material_indices[0]];
    const int b = layout.field_of_material[pair.material_indices[1]];
    layout.pair_law[a * f + b] = layout.pair_law[b * f + a] = pair.law;
    layout.pair_has_law[a * f + b] = layout.pair_has_law[b * f + a] = true;
  }
  return layout;
}

unsigned contact_data_needed(const SimulationSpec& spec, const FieldLayout& layout) {
  // Cracks: crack contact and the crack-field scatter keep every array (docs/mpm-cracks.md).
  if (!spec.mpm.cracks.empty()) return kContactAll;
  // Slip at the surface: the moments centre every node field on its mass-weighted position
  // (extrapolate_moments(), at every node, not only shared ones): every array, one pass.
  if (spec.mpm.contact.slip == ContactSlipPoint::Surface) return kContactAll;
  if (layout.fields < 2) return 0;
  // Who reads what (node_contact_field.hpp gathers them): the normals of contact_normal.cpp read
  // the volume gradients, `mass-gradient` also the mass gradients; the detection of
  // contact_detection.cpp the volumes, and the separation (displacement_check) the displacements
  // or the positions of position.method; the imperfect interface of contact_pair.cpp the
  // displacements. Logistic-regression normals start from the volume gradients. The penalty normal
  // law reads the volumes alone (detect_penalty_contact).
  const MpmContactSpec& c = spec.mpm.contact;
  unsigned needed = kContactVolume;
  if (c.normals == ContactNormalMethod::MassGradient) needed |= kContactMassGradient;
  if (c.displacement_check && c.normal_law == ContactNormalLaw::Impulse)
    needed |= c.position_method == ContactPositionMethod::Displacement ? kContactDisplacement : kContactPosition;
  for (const ContactLawSpec& law : layout.pair_law)
    if (law.law == ContactLaw::ImperfectInterface) needed |= kContactDisplacement;
  // The scatter has one instance per set below; any other set fills every array.
  for (unsigned set : {0u, unsigned{kContactVolume}, kContactVolume | kContactDisplacement,
                       kContactVolume | kContactPosition})
    if (needed == set) return set;
  return kContactAll;
}


template <int Dim>
double stable_time_step(const SimulationSpec& spec, const std::vector<Vec<Dim>>& velocities, double cfl) {
  double wave = 0.0;
  for (const MaterialSpec& m : spec.materials) wave = std::max(wave, dilatational_wave_speed(m));
  double vmax = 0.0;
  for (const Vec<Dim>& v : velocities) vmax = std::max(vmax, v.norm());
  double h = spec.mpm.cell[0];
  for (int d = 1; d < Dim; ++d) h = std::min(h, spec.mpm.cell[d]);
  return cfl * h / std::max(wave + vmax, 1e-300);
}

namespace {

// dst = src over the threads (a serial copy of the node arrays was ~5% of a 2-thread step), for
// the entries [first, last).
template <class T>
void copy_entries(std::vector<T>& dst, const std::vector<T>& src, long first, long last) {
#pragma omp parallel for schedule(static)
  for (long i = first; i < last; ++i) dst[i] = src[i];
}

template <int Dim>
class MpmSimulation final : public Simulation<Dim> {
 public:
  MpmSimulation(const SimulationSpec& spec, const parallel::Communicator& processes);

  void step() override;
  double time() const override { return time_; }
  long step_count() const override { return steps_; }
  double dt() const override { return dt_; }
  const Particles<Dim>& particles() const override { return particles_; }
  Particles<Dim>& mutable_particles() override { return particles_; }
  const SimulationSpec& spec() const override { return spec_; }
  EnergyBreakdown energy() const override;
  Vec3 contact_force(int material_a, int material_b) const override;
  Vec3 external_impulse() const override { return to_vec3<Dim>(sum_over_processes(external_impulse_)); }
  Vec3 crack_force(int crack) const override;
  Vec3 particle_spin() const override;
  std::vector<SurfaceMesh> surfaces() const override;
  void check_health() const override;
  void save_state(StateWriter& out) const override;
  void restore_state(const StateReader& in) override;
  bool restores_any_process_count() const override { return true; }
  void restore_pieces(std::span<const StateReader* const> pieces, const StateReader& first) override;
  double time_step_limit() const override;
  int process_count() const override { return processes_.size(); }
  double communication_seconds() const override { return communication_seconds_; }
  int process_rank() const override { return processes_.rank(); }
  void sum_over_processes(std::span<double> values) const override {
    if (distributed_) processes_.sum_in_place(values);
  }
  void max_over_processes(std::span<double> values) const override {
    if (distributed_) processes_.max_in_place(values);
  }

 private:
  template <class Shape>
  void step_with();
  template <class Shape, bool WithForces>
  void extrapolate_to_grid();
  template <class Shape>
  void extrapolate_forces();
  void update_nodal_momenta();
  // inverse_mass_ (and node_dust_) from the node masses of the step.
  // And the FLIP base: momentum_flip_base <- momentum, the momenta as extrapolated.
  void invert_node_masses();
  // The nodes the binned particles reach: the node rows of the scatter's first and last slab when
  // its slabs cut the last axis (whose rows are contiguous in the flat index), else every node
  // (and every node with cracks or across processes: their masks and halo sums reach further).
  NodeRange reached_nodes() const;
  template <class Shape>
  NodeRange contact_pass_reach() const;
  // A still rigid field whose nodal image is not recorded yet: this step's scatter records it.
  bool still_image_unrecorded() const {
    return !rigid_image_.recorded && std::find(still_field_.begin(), still_field_.end(), 1) != still_field_.end();
  }
  long first_active_entry() const { return active_nodes_.begin * nodes_.fields; }
  long last_active_entry() const { return active_nodes_.end * nodes_.fields; }
  template <class Shape>
  void update_particles();
  // One particle's grid-to-particle update (update_particles()), its stencil expanded.
  template <class Shape>
  [[gnu::always_inline]] inline void update_particle(long p, const ScatterStencil<Dim, Shape>& s, double flip,
                                                     bool affine);
  template <class Shape>
  void reextrapolate_momenta();
  // MUSL without cracks: the grid-to-particle update and the re-extrapolation in one pass over the
  // slabs; the new momenta go to musl_momentum_, swapped into the nodes after the pass.
  template <class Shape>
  void update_particles_and_reextrapolate();
  template <class Shape>
  void add_affine_momentum(long p, const ScatterStencil<Dim, Shape>& s, const StencilFactors<Dim>& factors,
                           Vec<Dim>* momentum) const;
  // MUSL's re-extrapolation of particle p: its momentum m_p v_p (and APIC's affine part) added to
  // the node entries of its stencil in `momentum` (both reextrapolate_momenta() and the fused pass).
  template <class Shape>
  [[gnu::always_inline]] inline void add_particle_momentum(long p, const ScatterStencil<Dim, Shape>& s, bool affine,
                                                           Vec<Dim>* momentum) const;
  template <class Shape>
  void extrapolate_moments();
  template <class Shape>
  void build_regression_neighbourhoods();
  // Move: also x_p += dt v_move (move_particles()) in the same pass, for USL and MUSL, whose
  // stress update is the last use of the positions in the step.
  template <class Shape, bool Move>
  void update_stress();
  template <class Shape, bool Move, class Stress>
  void update_stress_with(const Stress& stress);
  void move_particles();
  void sort_particles_by_cell();
  double affine_kinetic_energy() const;
  template <class T, class PerParticle>
  T sum_affine(T zero, PerParticle per_particle) const;
  // Across processes (docs/parallel.md): keep the particles of this process's box and move to the
  // part of the grid they reach; complete the nodal sums of `columns` on shared nodes; send the
  // particles that left the box to its owner.
  void decompose();
  enum class HaloSum { Extrapolated, Force, Momentum };
  void sum_halo(HaloSum which);
  void migrate_particles();
  void size_particle_scratch();
  // Support of the shape function from a particle, in cells: linear 1, uGIMP 1 + l_p, quadratic
  // B-spline 1.5.
  double stencil_support() const {
    return spec_.mpm.shape_function == ShapeFunctionKind::Linear ? 1.0
           : spec_.mpm.shape_function == ShapeFunctionKind::Gimp ? 1.0 + half_width_
                                                                  : 1.5;
  }
  void place_boundary_conditions();
  void rebalance();
  void adopt_sub_grid();
  // A node entry of the slip history by global node index, for moving it between sub-grids.
  struct SlipEntry {
    long node;
    int field;
    double slip;
  };
  // The non-zero entries of a slip history laid out on sub-grid `sub` (node entry = node * F + field).
  std::vector<SlipEntry> slip_entries(const std::vector<double>& slip, const SubGrid<Dim>& sub) const;
  // Collective: the slip history afresh on this process's sub-grid, each entry given by any process
  // placed on every process whose sub-grid holds its node (holders of a shared node agree). On one
  // process every entry is its own.
  void place_slip_entries(const std::vector<SlipEntry>& entries);
  // The particle indices of the deck's bodies, materials and fields: a checkpoint of another deck
  // fails here instead of running on.
  void check_restored_particles() const;
  void add_piece_sums(const StateReader& piece);
  void read_run_scalars_and_cracks(const StateReader& in);
  void recount_deformable_mass();
  void complete_crack_masks(std::vector<std::uint64_t>& masks);
  // Runs an exchange between processes, its wall time added to communication_seconds_.
  template <class Exchange>
  void communicate(Exchange&& exchange) {
    const auto start = std::chrono::steady_clock::now();
    exchange();
    communication_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  // A vector summed over the processes (each holds its particles' and counted nodes' share).
  Vec<Dim> sum_over_processes(Vec<Dim> value) const {
    if (distributed_) processes_.sum_in_place(std::span<double>(value.data(), Dim));
    return value;
  }
  // Every per-particle array of the solver (named_arrays.hpp), Particles' first: the sort
  // permutes them together, checkpoints hold them as "mpm.<name>" in this order. A per-particle
  // array the solver adds is listed here and nowhere else. `self`: this solver, const or not.
  template <class Self>
  static auto particle_arrays(Self& self) {
    return std::tuple_cat(Particles<Dim>::arrays(self.particles_),
                          std::tuple{NamedArray{"deformation_gradient", self.deformation_gradient_},
                                     NamedArray{"grid_velocity", self.grid_velocity_},
                                     NamedArray{"strain_energy_density", self.strain_energy_density_},
                                     NamedArray{"field", self.field_}, NamedArray{"rigid", self.rigid_},
                                     NamedArray{"affine_velocity", self.affine_velocity_}});
  }
  // record: sum the impulses (contact force); count_work: add the frictional work of this pass
  // (only passes whose changes reach the particle velocities dissipate their kinetic energy).
  // at_surface: Coulomb slip at the surface where the deck asks for it (not in the MUSL pass,
  // whose particle velocities the moments of the step do not describe).
  void apply_contact(ContactStage stage, bool record = true, bool count_work = true, bool at_surface = true);
  Vec<Dim> impose_boundary_conditions();
  bool cracked() const { return !cracks_.empty(); }
  // Below this a node field is empty (G2P skips it).
  double node_mass_floor() const { return 1e-14 * spec_.materials.front().density * grid_.cell_volume(); }
  // Crack-field offsets of particle p's stencil nodes, or null (far from every crack, or no cracks).
  const int* crack_offsets(long p) const { return cracked() ? crack_fields_.offsets(p) : nullptr; }

  SimulationSpec spec_;
  Grid<Dim> grid_;        // the deck's grid with one cell of padding on every side
  Vec<Dim> domain_lo_, domain_hi_;
  FieldLayout layout_;
  NodeFields<Dim> nodes_;
  Particles<Dim> particles_;
  // Per-particle arrays of the solver beyond Particles': each one is listed in particle_arrays().
  std::vector<Mat3> deformation_gradient_;
  std::vector<Vec<Dim>> grid_velocity_;        // per particle, sum S v_I of the step
  std::vector<double> strain_energy_density_;  // J per m^3 of reference volume
  std::vector<int> field_;                     // per particle
  std::vector<char> rigid_;                    // per particle: a ParticleRole (rigid_interior.hpp)
  // transfer: apic, per particle: C_p of affine_transfer.hpp (1/s); zero with transfer: flip and
  // on rigid particles.
  std::vector<Mat<Dim>> affine_velocity_;
  // Per field: rigid and standing still, so its nodal values are restored from rigid_image_
  // instead of scattered (rigid_node_image.hpp). Derived from the deck, not checkpointed.
  std::vector<char> still_field_;
  // Per field: still, and its particles' per-step no-ops skipped (v_move = v_p = +0 and
  // x += dt v_move in update_particles() and the move): every velocity component +0 and no
  // coordinate -0, so that skipping them leaves every bit as it was (x + 0 is x but for x = -0).
  // A 3D floor of 3e5 such particles cost 5% of a block's step in those two loops.
  std::vector<char> parked_field_;
  RigidNodeImage<Dim> rigid_image_;
  std::vector<ElasticConstants> elastic_;      // per material
  std::vector<MaterialModel> material_model_;  // per material
  // The model of every deformable material (update_stress's kernel), or none when they differ.
  std::optional<MaterialModel> stress_model_ = MaterialModel::LinearElastic;
  GridBoundaryConditions<Dim> boundary_;
  ContactAccumulator<Dim> contact_;
  SlipHistory slip_history_;  // slip-weakening state of static friction, per node entry
  // Slip at the surface (contact.slip: surface; contact_moments.hpp): the node fields' second and
  // velocity moments, rebuilt every step. Empty with slip at the node.
  NodeMoments<Dim> moments_;
  NodeParticles<Dim> around_;  // particles near contact nodes (logistic-regression normals only)
  // Across processes, for around_: the other processes' particles within reach of this one's
  // sub-grid, positions and fields, exchanged every step (not state).
  std::vector<Vec<Dim>> ghost_position_;
  std::vector<int> ghost_field_;
  // Explicit cracks (docs/mpm-cracks.md): with cracks every node holds kCrackFields crack fields
  // of layout_.fields material fields each, flat index node * (4 F) + c F + f; without, one.
  std::vector<Crack> cracks_;
  CrackFields<Dim> crack_fields_;
  CrackContactAccumulator<Dim> crack_contact_;
  std::vector<bool> rigid_entry_;  // per flat field of a node (crack field x material field)
  std::vector<char> deformable_entry_;  // !rigid_entry_, for the node loops
  Vec<Dim> gravity_;
  double dt_ = 0.0;
  double time_ = 0.0;
  long steps_ = 0;
  double half_width_ = 0.25;  // GIMP particle half-size, in cells
  double frictional_work_ = 0.0;
  // Impulse of gravity, boundary conditions and rigid fields on the deformable fields over the last
  // step (external_impulse(); read by the driver after each step, so not checkpointed).
  Vec<Dim> external_impulse_ = Vec<Dim>::Zero();
  double deformable_mass_ = 0.0;
  // Particle-to-grid in parallel (scatter_partition.hpp) and the periodic sort by cell
  // (particle_sort.hpp), which permutes every array of particle_arrays().
  ScatterPartition<Dim> partition_;
  ParticleSorter<Dim> sorter_;
  // Per particle, the stencil factors of the step (scatter_stencil.hpp), written by the
  // particle-to-grid pass and expanded again by every later pass of the step until
  // move_particles(): the positions, and so the stencils, are the same in all of them. Every
  // particle a later pass visits was scattered (the skips below are supersets of the scatter's).
  // Rebuilt every step after the sort: not state, never permuted.
  std::vector<StencilFactors<Dim>> stencil_;
  // The nodes the step's particles reach (reached_nodes()). The per-step node loops (clear, 1/m,
  // the FLIP base and start copies, the momentum update, the shared-node screen, MUSL's zeroing,
  // the boundary conditions, the regression neighbourhoods) run over them only; outside them the
  // summed arrays (mass, momenta, forces, contact arrays) are zero and the others (1/m, the FLIP
  // base, the start momenta, shared_node_) are not read. Some passes still walk the whole grid and
  // rely on those zeros: the contact pass without a candidate list (slip at the surface), the
  // moments' centring, node_field_dust() and the still rigid image's record. Hence touched_nodes_:
  // it spans every range written since the last completed step, and the clear covers it (a range
  // that shrinks, or a step that throws, leaves no sum behind). A body on a long floor reaches the
  // floor's rows only: on examples/incline.yaml a third of the grid's.
  NodeRange active_nodes_, touched_nodes_;
  // The nodes whose contact arrays may be non-zero: those the step's scatter wrote them at. The
  // two-pass scatter below fills them near contact only (a block on a floor: its bottom rows), so
  // the clear zeroes them there and not over touched_nodes_ (on the oblique disks they are half
  // the bytes the clear wrote). Set before each write, emptied by the clear.
  NodeRange contact_touched_nodes_;
  std::vector<char> shared_node_;  // per node, of the step: two fields or more hold mass there
  // Those nodes, ascending, for the contact passes (valid for the step when contact_nodes_listed_).
  std::vector<long> contact_nodes_;
  bool contact_nodes_listed_ = false;
  // MUSL's re-extrapolated node momenta while the grid-to-particle pass still reads the updated
  // ones (update_particles_and_reextrapolate()); swapped with nodes_.momentum. Scratch, not state.
  std::vector<Vec<Dim>> musl_momentum_;
  // The dust threshold of the step's contact passes (node_field_dust()): the node masses do not
  // change after the particle-to-grid pass, so it is taken once a step, not once a pass.
  double node_dust_ = 0.0;
  // The deck's normals are logistic-regression fits and some node may need one: the fit is read
  // only between two deformable fields (node_particles.hpp), so with one deformable field (a body
  // on a rigid floor) there is nothing to build, not even the node screen. Not with cracks
  // (their normals fall back to gradients). Fixed for the run.
  bool regression_neighbourhoods_ = false;
  // Per node entry, 1 / m of the step, or 0 where m is below node_mass_floor() (an empty field):
  // the grid-to-particle and stress passes multiply by it instead of dividing by m at every stencil
  // node of every particle (nine divisions a particle and pass in 2D; issue 17). Scratch, not state.
  std::vector<double> inverse_mass_;
  static constexpr int kSortInterval = 20;  // steps between sorts
  // Across processes: the run's processes, its boxes (fixed for the run; rebalancing as bodies
  // move is still to come, docs/parallel.md), and the nodes this process shares with others.
  parallel::Communicator processes_ = parallel::Communicator::single();
  bool distributed_ = false;
  parallel::RcbPartition<Dim> decomposition_;
  NodeHalo<Dim> halo_;
  Grid<Dim> global_grid_;                       // the deck's grid (grid_ is this process's part)
  IVec<Dim> grid_first_ = IVec<Dim>::Zero();    // global index of grid_'s node 0
  int reach_ = 0;                               // cells of stencil support around a box
  static constexpr int kRebalanceInterval = 100;  // steps between balance checks
  // Wall time in the halo sums and the migration (which include waiting for the other processes),
  // for the share of a step spent communicating (summary.json). Not state.
  double communication_seconds_ = 0.0;
};

template <int Dim>
MpmSimulation<Dim>::MpmSimulation(const SimulationSpec& spec, const parallel::Communicator& processes)
    : spec_(spec), processes_(processes), distributed_(processes.size() > 1) {
  const Vec<Dim> cell = from_vec3<Dim>(spec.mpm.cell);
  domain_lo_ = from_vec3<Dim>(spec.mpm.grid_min);
  domain_hi_ = from_vec3<Dim>(spec.mpm.grid_max);
  grid_ = Grid<Dim>(domain_lo_ - cell, domain_hi_ + cell, cell);
  gravity_ = from_vec3<Dim>(spec.gravity);
  half_width_ = 0.5 / spec.mpm.particles_per_cell;

  fill_bodies<Dim>(spec_, grid_, particles_);
  const std::size_t n = particles_.size();
  deformation_gradient_.assign(n, Mat3::Identity());
  grid_velocity_.assign(n, Vec<Dim>::Zero());
  strain_energy_density_.assign(n, 0.0);
  affine_velocity_.assign(n, Mat<Dim>::Zero());
  layout_ = FieldLayout::from(spec_);
  field_.resize(n);
  rigid_.resize(n);
  for (std::size_t p = 0; p < n; ++p) {
    field_[p] = layout_.field_of_material[particles_.material[p]];
    rigid_[p] = spec_.materials[particles_.material[p]].rigid();
    if (!rigid_[p]) deformable_mass_ += particles_.mass[p];
  }
  // Rigid particles deep inside their body reach no node that another field reaches: the
  // particle-to-grid pass skips them (rigid_interior.hpp).
  rigid_ = classify_rigid_particles<Dim>(grid_, particles_.position, particles_.body, rigid_,
                                         rigid_interior_reach(stencil_support()));
  still_field_.assign(layout_.fields, 0);
  for (int f = 0; f < layout_.fields; ++f) still_field_[f] = layout_.rigid_field[f];
  for (std::size_t p = 0; p < n; ++p)
    if (!rigid_[p] || particles_.velocity[p] != Vec<Dim>::Zero()) still_field_[field_[p]] = 0;
  parked_field_ = still_field_;
  for (std::size_t p = 0; p < n; ++p)
    for (int d = 0; d < Dim; ++d)
      if (std::signbit(particles_.velocity[p][d]) || std::signbit(particles_.position[p][d]))
        parked_field_[field_[p]] = 0;
  for (const MaterialSpec& m : spec_.materials) {
    elastic_.push_back(ElasticConstants::of(m));
    material_model_.push_back(m.model);
  }
  std::optional<MaterialModel> deformable;
  for (const MaterialSpec& m : spec_.materials) {
    if (m.rigid()) continue;
    stress_model_ = !deformable || *deformable == m.model ? std::optional(m.model) : std::nullopt;
    if (!stress_model_) break;
    deformable = m.model;
  }
  // Every process filled every body and classified every particle as one process would (the
  // rigid interior, the still fields): each now keeps its box's share and its part of the grid.
  // The time step from every particle, before the decomposition: the same on every process.
  if (spec_.time.dt) {
    dt_ = *spec_.time.dt;
  } else {
    dt_ = stable_time_step<Dim>(spec_, particles_.velocity, spec_.time.cfl.value_or(0.4));
  }
  if (distributed_) decompose();
  if (!spec_.mpm.cracks.empty()) {
    if (Dim != 2) throw std::invalid_argument("mpm.cracks: cracks are 2D polylines; 3D cracks are not supported");
    // Crack particles half a cell apart (NairnMPM's advice: at least two per cell).
    cracks_ = build_cracks(spec_.mpm.cracks, 0.5 * grid_.cell.minCoeff());
    crack_fields_.allocate(grid_, particles_.size(), layout_.fields);
    crack_contact_.resize(static_cast<int>(cracks_.size()));
  }
  const int crack_fields = cracked() ? kCrackFields : 1;
  for (int c = 0; c < crack_fields; ++c)
    rigid_entry_.insert(rigid_entry_.end(), layout_.rigid_field.begin(), layout_.rigid_field.end());
  for (bool rigid : rigid_entry_) deformable_entry_.push_back(!rigid);
  nodes_.allocate(grid_.node_count(), layout_.fields * crack_fields);
  touched_nodes_ = contact_touched_nodes_ = NodeRange{0, grid_.node_count()};
  if (nodes_.with_contact_data) nodes_.contact_data = contact_data_needed(spec_, layout_);
  if (nodes_.with_contact_data) {
    shared_node_.assign(grid_.node_count(), 0);
    contact_nodes_.reserve(grid_.node_count());  // no allocation in a step
  }
  size_particle_scratch();
  contact_.resize(layout_.fields);
  place_boundary_conditions();
  if (layout_.fields > 1) slip_history_.resize(nodes_.nodes, nodes_.fields);  // every node entry
  regression_neighbourhoods_ = spec_.mpm.contact.normals == ContactNormalMethod::LogisticRegression && !cracked() &&
                               std::count(layout_.rigid_field.begin(), layout_.rigid_field.end(), false) >= 2;
  // Cracked grids keep node slip: their crack fields are not material fields of the moments.
  if (layout_.fields > 1 && !cracked() && spec_.mpm.contact.slip == ContactSlipPoint::Surface)
    moments_.allocate(nodes_.mass.size());

}

// The grid's velocity constraints on this process's nodes; across processes, which nodes' impulses
// this process counts: a node shared with processes of lower rank is counted by the lowest.
template <int Dim>
void MpmSimulation<Dim>::place_boundary_conditions() {
  boundary_ = distributed_ ? GridBoundaryConditions<Dim>::from(spec_, grid_, &global_grid_, grid_first_)
                           : GridBoundaryConditions<Dim>::from(spec_, grid_);
  if (!distributed_) return;
  std::vector<char> counted(static_cast<std::size_t>(grid_.node_count()), 1);
  for (std::size_t k = 0; k < halo_.peers().size(); ++k)
    if (halo_.peers()[k] < processes_.rank())
      for (long node : halo_.shared_nodes(k)) counted[static_cast<std::size_t>(node)] = 0;
  for (auto& constraint : boundary_.constraints) constraint.counted = counted[static_cast<std::size_t>(constraint.node)];
  if (cracked()) {
    crack_contact_.counted_node = counted;
    // Material contact sees node n's crack field c as a node of its own, n C + c (apply_contact).
    std::vector<char> per_crack_field(counted.size() * kCrackFields);
    for (std::size_t n = 0; n < counted.size(); ++n)
      for (int c = 0; c < kCrackFields; ++c) per_crack_field[n * kCrackFields + c] = counted[n];
    counted = std::move(per_crack_field);
  }
  contact_.counted_node = std::move(counted);
}

// Across processes, every kRebalanceInterval steps when the particle counts drift more than 10%
// from the mean: new boxes from the particles where they are now (RCB), the particles migrate to
// their new owners, each process moves to its new sub-grid, and the slip history of static
// friction (per node entry, the only nodal state that outlives a step) follows its nodes.
template <int Dim>
void MpmSimulation<Dim>::rebalance() {
  double load[2] = {static_cast<double>(particles_.size()), static_cast<double>(particles_.size())};
  processes_.sum_in_place(std::span<double>(load, 1));
  processes_.max_in_place(std::span<double>(load + 1, 1));
  if (load[1] <= 1.1 * load[0] / processes_.size()) return;
  const Grid<Dim> old_grid = grid_;
  const IVec<Dim> old_first = grid_first_;
  std::vector<double> old_slip = std::move(slip_history_.slip);
  decomposition_ = parallel::RcbPartition<Dim>::build(
      particles_.position, processes_.size(), parallel::Box<Dim>{global_grid_.origin, global_grid_.upper()}, processes_);
  migrate_particles();
  adopt_sub_grid();
  if (old_slip.empty()) return;
  place_slip_entries(slip_entries(old_slip, SubGrid<Dim>{old_grid, old_first}));
}

template <int Dim>
auto MpmSimulation<Dim>::slip_entries(const std::vector<double>& slip, const SubGrid<Dim>& sub) const
    -> std::vector<SlipEntry> {
  const int F = nodes_.fields;  // entries per node: crack fields x material fields
  std::vector<SlipEntry> entries;
  for (std::size_t e = 0; e < slip.size(); ++e) {
    if (slip[e] == 0.0) continue;
    const IVec<Dim> g = sub.grid.node_ijk(static_cast<long>(e) / F) + sub.first;
    entries.push_back({global_grid_.node_index(g), static_cast<int>(e % F), slip[e]});
  }
  return entries;
}

template <int Dim>
void MpmSimulation<Dim>::place_slip_entries(const std::vector<SlipEntry>& entries) {
  slip_history_.slip.assign(nodes_.mass.size(), 0.0);
  slip_history_.anywhere = true;
  const int F = nodes_.fields;
  std::vector<SubGrid<Dim>> subs;  // one process: its grid is the whole grid (no boxes)
  for (int r = 0; r < processes_.size(); ++r)
    subs.push_back(distributed_ ? sub_grid_for_box(global_grid_, decomposition_.box(r), reach_)
                                : SubGrid<Dim>{grid_, grid_first_});
  const auto holds = [](const SubGrid<Dim>& sub, const IVec<Dim>& g) {
    for (int d = 0; d < Dim; ++d)
      if (g[d] < sub.first[d] || g[d] >= sub.first[d] + sub.grid.nodes[d]) return false;
    return true;
  };
  std::vector<std::vector<std::byte>> send(static_cast<std::size_t>(processes_.size()));
  for (const SlipEntry& entry : entries) {
    const IVec<Dim> g = global_grid_.node_ijk(entry.node);
    const auto* bytes = reinterpret_cast<const std::byte*>(&entry);
    for (int r = 0; r < processes_.size(); ++r)
      if (holds(subs[static_cast<std::size_t>(r)], g))
        send[static_cast<std::size_t>(r)].insert(send[static_cast<std::size_t>(r)].end(), bytes, bytes + sizeof(SlipEntry));
  }
  for (const std::vector<std::byte>& from : processes_.all_to_all(std::move(send)))
    for (std::size_t k = 0; k + sizeof(SlipEntry) <= from.size(); k += sizeof(SlipEntry)) {
      SlipEntry entry;
      std::memcpy(&entry, from.data() + k, sizeof(SlipEntry));
      const IVec<Dim> local = global_grid_.node_ijk(entry.node) - grid_first_;
      slip_history_.slip[static_cast<std::size_t>(grid_.node_index(local) * F + entry.field)] = entry.slip;
    }
}

// This process's sub-grid for its box of decomposition_, and everything sized by it.
template <int Dim>
void MpmSimulation<Dim>::adopt_sub_grid() {
  const SubGrid<Dim> sub = sub_grid_for_box(global_grid_, decomposition_.box(processes_.rank()), reach_);
  grid_ = sub.grid;
  grid_first_ = sub.first;
  halo_ = NodeHalo<Dim>::build(sub, processes_);
  const unsigned contact_data = nodes_.contact_data;
  nodes_.allocate(grid_.node_count(), nodes_.fields);
  // musl_momentum_ may hold the old grid's sums
  touched_nodes_ = contact_touched_nodes_ = NodeRange{0, grid_.node_count()};
  nodes_.contact_data = contact_data;
  stencil_.clear();  // the scatter partition and the sort are laid out on the grid: again
  size_particle_scratch();
  if (cracked()) crack_fields_.allocate(grid_, particles_.size(), layout_.fields);
  place_boundary_conditions();
  if (!slip_history_.slip.empty()) slip_history_.resize(nodes_.nodes, nodes_.fields);
  if (moments_.enabled()) moments_.allocate(nodes_.mass.size());  // scratch of each step: no state
}

// Across processes: each shared node's crack masks (which (crack, side) combinations reach it)
// ORed with the other holders', through a halo sum of one 0/1 entry per combination, so that
// every holder ranks the node's crack fields alike (CrackFields::assign).
template <int Dim>
void MpmSimulation<Dim>::complete_crack_masks(std::vector<std::uint64_t>& masks) {
  const int combinations = 2 * static_cast<int>(cracks_.size());
  std::vector<double> bits(masks.size() * static_cast<std::size_t>(combinations), 0.0);
  for (std::size_t n = 0; n < masks.size(); ++n)
    if (masks[n] != 0)
      for (int c = 0; c < combinations; ++c) bits[n * combinations + c] = static_cast<double>(masks[n] >> c & 1u);
  communicate([&] {
    const HaloColumn column{bits.data(), 1};
    halo_.sum(processes_, combinations, std::span<const HaloColumn>(&column, 1));
  });
  for (std::size_t n = 0; n < masks.size(); ++n) {
    std::uint64_t m = 0;
    for (int c = 0; c < combinations; ++c)
      if (bits[n * combinations + c] > 0.0) m |= std::uint64_t{1} << c;
    masks[n] = m;
  }
}

// Across processes: which particles this process keeps (those of its box of a recursive
// coordinate bisection of every particle, balanced by count), the part of the grid their stencils
// reach (the box grown by the stencil's support in cells; particles migrate every step, so they
// are inside their box whenever they scatter), and the nodes it shares.
template <int Dim>
void MpmSimulation<Dim>::decompose() {
  if (const std::string why = unsupported_across_processes(spec_); !why.empty()) throw std::invalid_argument(why);
  const Grid<Dim> global = grid_;
  // Every process holds every particle: each passes a share, so that the tree is built once.
  std::vector<Vec<Dim>> share;
  for (std::size_t p = static_cast<std::size_t>(processes_.rank()); p < particles_.size();
       p += static_cast<std::size_t>(processes_.size()))
    share.push_back(particles_.position[p]);
  decomposition_ = parallel::RcbPartition<Dim>::build(share, processes_.size(),
                                                      parallel::Box<Dim>{global.origin, global.upper()}, processes_);
  std::vector<char> elsewhere(particles_.size());
  for (std::size_t p = 0; p < particles_.size(); ++p)
    elsewhere[p] = decomposition_.owner(particles_.position[p]) != processes_.rank();
  parallel::erase_particles(particle_arrays(*this), elsewhere);
  recount_deformable_mass();
  global_grid_ = global;
  reach_ = static_cast<int>(std::ceil(stencil_support()));
  const SubGrid<Dim> sub = sub_grid_for_box(global, decomposition_.box(processes_.rank()), reach_);
  grid_ = sub.grid;
  grid_first_ = sub.first;
  halo_ = NodeHalo<Dim>::build(sub, processes_);
}

// The node arrays the passes since the last sum filled, completed on shared nodes: after
// particle-to-grid every array it scattered; after USF's force pass the forces; after MUSL's
// re-extrapolation the momenta.
template <int Dim>
void MpmSimulation<Dim>::sum_halo(HaloSum which) {
  if (!distributed_) return;
  std::vector<HaloColumn> columns;  // at most 9, once per pass
  if (which == HaloSum::Extrapolated) {
    columns = {halo_column(nodes_.mass), halo_column<Dim>(nodes_.momentum), halo_column<Dim>(nodes_.force)};
    const unsigned contact = nodes_.with_contact_data ? nodes_.contact_data : 0u;
    if (contact & kContactVolume) {
      columns.push_back(halo_column(nodes_.volume));
      columns.push_back(halo_column<Dim>(nodes_.volume_gradient));
    }
    if (contact & kContactMassGradient) columns.push_back(halo_column<Dim>(nodes_.mass_gradient));
    if (contact & kContactDisplacement) columns.push_back(halo_column<Dim>(nodes_.mass_displacement));
    if (contact & kContactPosition) columns.push_back(halo_column<Dim>(nodes_.mass_position));
  } else if (which == HaloSum::Force) {
    columns = {halo_column<Dim>(nodes_.force)};
  } else {
    columns = {halo_column<Dim>(nodes_.momentum)};
  }
  communicate([&] { halo_.sum(processes_, nodes_.fields, columns); });
}

// After the move: each particle goes to the process whose box holds it (kept ones first, in
// their order, then the arrivals by sender rank: a fixed process count repeats bit for bit).
template <int Dim>
void MpmSimulation<Dim>::migrate_particles() {
  std::vector<int> owner(particles_.size());
  for (std::size_t p = 0; p < particles_.size(); ++p) owner[p] = decomposition_.owner(particles_.position[p]);
  communicate([&] { parallel::migrate_particles(particle_arrays(*this), owner, processes_); });
  size_particle_scratch();
}

// The per-particle scratch of the passes (not state) for the current number of particles.
template <int Dim>
void MpmSimulation<Dim>::size_particle_scratch() {
  const std::size_t n = particles_.size();
  if (stencil_.size() == n && n > 0) return;
  partition_.allocate(grid_, n);
  sorter_.allocate(grid_, n);
  stencil_.resize(n);
}

template <int Dim>
void MpmSimulation<Dim>::step() {
  switch (spec_.mpm.shape_function) {
    case ShapeFunctionKind::Linear: step_with<LinearShape>(); break;
    case ShapeFunctionKind::Gimp: step_with<GimpShape>(); break;
    case ShapeFunctionKind::BSpline2: step_with<BSpline2Shape>(); break;
  }
}

// The time step, as in the algorithm box of DESIGN.md. USF updates stress before the forces,
// USL after the particle update, MUSL after re-extrapolating the updated particle momenta.
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::step_with() {
  const UpdateScheme scheme = spec_.mpm.update;
  if (distributed_ && steps_ > 0 && steps_ % kRebalanceInterval == 0) rebalance();
  if (steps_ % kSortInterval == 0) sort_particles_by_cell();
  contact_.clear();  // the nodes are cleared by extrapolate_to_grid(), once it knows their range
  if (cracked()) {
    crack_contact_.clear();
    if (distributed_)
      crack_fields_.template assign<Shape>(grid_, particles_.position, half_width_, cracks_,
                                           [this](std::vector<std::uint64_t>& masks) { complete_crack_masks(masks); });
    else
      crack_fields_.template assign<Shape>(grid_, particles_.position, half_width_, cracks_);
  }
  // A ramp loads the bodies quasi-statically (no dynamic overshoot of the contact forces).
  const double ramp = spec_.gravity_ramp > 0.0 ? std::min(1.0, (time_ + 0.5 * dt_) / spec_.gravity_ramp) : 1.0;
  gravity_ = ramp * from_vec3<Dim>(spec_.gravity);
  const bool forces_first = scheme != UpdateScheme::Usf;
  if (forces_first) extrapolate_to_grid<Shape, true>();
  else extrapolate_to_grid<Shape, false>();
  sum_halo(HaloSum::Extrapolated);
  invert_node_masses();
  if (moments_.enabled()) extrapolate_moments<Shape>();
  if (regression_neighbourhoods_) build_regression_neighbourhoods<Shape>();
  // The FLIP increment is measured from the extrapolated momenta, before contact and boundary
  // conditions, so that their changes reach the particle velocities (a field stuck to a rigid
  // floor stops instead of keeping a velocity that only its nodes forget).
  // With first_pass_to_particles: false (NairnMPM's semantics) the first contact pass's changes
  // are added to the base, so that they only shape the grid momenta of the update and the move
  // (the boundary conditions still reach the particles).
  const bool first_pass_reaches = spec_.mpm.contact.first_pass_to_particles;
  const long first_entry = first_active_entry(), last_entry = last_active_entry();
  // momentum_flip_base was copied from the momenta by invert_node_masses() (one pass fewer).
  external_impulse_ = impose_boundary_conditions();
  if (!first_pass_reaches)  // before the pass
    copy_entries(nodes_.momentum_start, nodes_.momentum, first_entry, last_entry);
  // Its impulses are recorded (contact force, the rigid bodies' share of external_impulse_) only
  // where they reach the particles: with NairnMPM's semantics they would break the momentum balance.
  apply_contact(ContactStage::AfterExtrapolation, first_pass_reaches, first_pass_reaches);
  if (!first_pass_reaches) {
#pragma omp parallel for schedule(static)
    for (long i = first_entry; i < last_entry; ++i)
      nodes_.momentum_flip_base[i] += nodes_.momentum[i] - nodes_.momentum_start[i];
  }
  if (!forces_first) {
    update_stress<Shape, false>();
    extrapolate_forces<Shape>();
    sum_halo(HaloSum::Force);
  }
  update_nodal_momenta();  // and momentum_start, the momenta before it
  external_impulse_ += impose_boundary_conditions();
  apply_contact(ContactStage::AfterMomentumUpdate);
  const bool fused_musl = scheme == UpdateScheme::Musl && !cracked();
  if (fused_musl) update_particles_and_reextrapolate<Shape>();
  else update_particles<Shape>();
  if (cracked() && distributed_) {
    const int rank = processes_.rank();
    move_crack_surfaces<Dim, Shape>(
        cracks_, crack_fields_, nodes_, grid_, layout_.fields, half_width_, dt_, node_mass_floor(),
        [this, rank](const Vec2& x) {
          if constexpr (Dim == 2) return decomposition_.owner(x) == rank;
          else return true;
        },
        [this](std::span<double> values) {
          communicate([&] { processes_.sum_in_place(values); });
        });
  } else if (cracked()) {
    move_crack_surfaces<Dim, Shape>(cracks_, crack_fields_, nodes_, grid_, layout_.fields, half_width_, dt_,
                                    node_mass_floor());
  }
  if (scheme == UpdateScheme::Musl) {
    if (!fused_musl) reextrapolate_momenta<Shape>();  // after the crack surfaces moved on the grid velocities
    sum_halo(HaloSum::Momentum);
    impose_boundary_conditions();
    apply_contact(ContactStage::AfterExtrapolation, false, true, false);
  }
  if (scheme != UpdateScheme::Usf) update_stress<Shape, true>();  // and move_particles()
  else move_particles();
  frictional_work_ += contact_.frictional_work + crack_contact_.frictional_work;
  // The impulses that reach the particles from outside the deformable material: gravity on it
  // (nodal forces sum to m g), the boundary conditions above, and the rigid fields' contact.
  external_impulse_ += deformable_mass_ * gravity_ * dt_;
  if (layout_.fields >= 2)
    for (int a = 0; a < layout_.fields; ++a)
      for (int b = 0; b < layout_.fields; ++b)
        if (!layout_.rigid_field[a] && layout_.rigid_field[b]) external_impulse_ += contact_.impulse(a, b);
  if (distributed_) migrate_particles();
  touched_nodes_ = active_nodes_;  // the step completed: its arrays are zero outside its range
  time_ += dt_;
  ++steps_;
}

template <int Dim>
NodeRange MpmSimulation<Dim>::reached_nodes() const {
  const NodeRange every{0, grid_.node_count()};
  if (cracked() || distributed_ || partition_.axis() != Dim - 1) return every;
  int first = 0, last = 0;
  if (!partition_.reached_node_rows(grid_.nodes[Dim - 1], first, last)) return NodeRange{};
  const long row = grid_.node_count() / grid_.nodes[Dim - 1];  // nodes per row of the last axis
  return NodeRange{first * row, (last + 1) * row};
}

// Particles to grid: mass, momentum, the contact quantities and (USL/MUSL) the forces from the
// stress of the last step: f_I = -sum V_p sigma_p grad S_I + sum S_I m_p g. In parallel over the
// slabs of scatter_partition.hpp: no two threads write one node, and every nodal sum is taken in
// one order whatever the number of threads.
template <int Dim>
template <class Shape, bool WithForces>
void MpmSimulation<Dim>::extrapolate_to_grid() {
  partition_.bin(grid_, particles_.position);
  active_nodes_ = reached_nodes();
  touched_nodes_ = touched_nodes_.hull(active_nodes_);
  nodes_.clear(touched_nodes_, contact_touched_nodes_);
  contact_touched_nodes_ = NodeRange{};  // every contact array is zero now
  const auto scatter = [&](auto contact_data) {
    constexpr unsigned kContactData = decltype(contact_data)::value;
    const long F = nodes_.fields;  // entries per node: crack fields x material fields
    const Grid<Dim>& grid = grid_;
    const double half_width = half_width_;
    const Vec<Dim> gravity = gravity_;
    const bool cracks = cracked();
    const ScatterTargets<Dim> targets = ScatterTargets<Dim>::of(nodes_);
    const Particles<Dim>& q = particles_;
    const bool still_restored = rigid_image_.recorded;
    StencilFactors<Dim>* const factors = stencil_.data();
    const bool affine = effective_transfer(spec_.mpm) == TransferScheme::Apic;
    partition_.for_each_particle([&](long p) {
      if (rigid_[p] == kRigidInterior || (still_restored && still_field_[field_[p]])) return;
      ScatterStencil<Dim, Shape> s;
      ScatterStencil<Dim, Shape>::factors(grid, q.position[p], half_width, factors[p]);
      s.expand(grid, factors[p]);
      const double m = q.mass[p];
      if (affine && !rigid_[p]) add_affine_momentum<Shape>(p, s, factors[p], targets.momentum);
      const ParticleTerms<Dim> terms{m,
                                     q.volume[p],
                                     m * q.velocity[p],
                                     m * gravity,
                                     q.volume[p] * q.stress[p].template topLeftCorner<Dim, Dim>(),
                                     m * q.position[p],
                                     m * (q.position[p] - q.reference_position[p])};
      // One kernel per case, so that the node loop has no branch.
      // With cracks every contact array is filled (contact_data_needed()).
      const int* offsets = cracks ? crack_fields_.offsets(p) : nullptr;
      if constexpr (kContactData == 0 || kContactData == kContactAll) {
        if (offsets) {
          if (WithForces && !rigid_[p])
            scatter_particle_across_cracks<WithForces, kContactData>(s, field_[p], F, offsets, targets, terms);
          else
            scatter_particle_across_cracks<false, kContactData>(s, field_[p], F, offsets, targets, terms);
          return;
        }
      }
      if (WithForces && !rigid_[p]) {
        scatter_particle<WithForces, kContactData>(s, field_[p], F, targets, terms);
      } else {
        scatter_particle<false, kContactData>(s, field_[p], F, targets, terms);
      }
    });
  };
  // Without cracks, contact reads the contact arrays only at nodes where two fields or more hold
  // mass (multimaterial_contact.cpp). So the masses, momenta and forces go first; then the contact
  // arrays for the particles whose stencil reaches such a node, in the same particle order, so
  // that every sum contact reads is the one-pass sum bit for bit (a block on a floor: its bottom
  // layers, not all of it). A still field before its record gives every node (rigid_node_image.hpp).
  // Across processes a node's fields may come from different processes: the partial masses do not
  // say which nodes are shared, so every particle scatters its contact arrays in the one pass.
  const bool two_passes = nodes_.with_contact_data && !cracked() && !moments_.enabled() && !distributed_;
  contact_nodes_listed_ = two_passes;
  const auto contact_pass = [&](auto contact_data) {
    constexpr unsigned kContactData = decltype(contact_data)::value;
    const long F = nodes_.fields;
    const Grid<Dim>& grid = grid_;
    const ScatterTargets<Dim> targets = ScatterTargets<Dim>::of(nodes_);
    const Particles<Dim>& q = particles_;
    const bool still_restored = rigid_image_.recorded;
    const StencilFactors<Dim>* const factors = stencil_.data();
    const char* const shared = shared_node_.data();
    partition_.for_each_particle([&](long p) {
      if (rigid_[p] == kRigidInterior || (still_restored && still_field_[field_[p]])) return;
      ScatterStencil<Dim, Shape> s;
      s.expand(grid, factors[p]);
      if (!still_field_[field_[p]]) {
        char reaches = 0;
        for (int k = 0; k < s.size; ++k) reaches |= shared[s.node[k]];
        if (!reaches) return;
      }
      const double m = q.mass[p];
      const ParticleTerms<Dim> terms{m, q.volume[p], Vec<Dim>::Zero(), Vec<Dim>::Zero(), Mat<Dim>::Zero(),
                                     m * q.position[p], m * (q.position[p] - q.reference_position[p])};
      scatter_particle<false, kContactData, false>(s, field_[p], F, targets, terms);
    });
  };
  // One instance per set of contact arrays that contact_data_needed() returns.
  const unsigned sets = nodes_.with_contact_data ? nodes_.contact_data : 0u;
  const auto dispatch = [&](const auto& pass, unsigned set) {
    switch (set) {
      case 0: pass(std::integral_constant<unsigned, 0>{}); break;
      case kContactVolume: pass(std::integral_constant<unsigned, kContactVolume>{}); break;
      case kContactVolume | kContactDisplacement:
        pass(std::integral_constant<unsigned, kContactVolume | kContactDisplacement>{});
        break;
      case kContactVolume | kContactPosition:
        pass(std::integral_constant<unsigned, kContactVolume | kContactPosition>{});
        break;
      default: pass(std::integral_constant<unsigned, kContactAll>{}); break;
    }
  };
  if (!two_passes) {
    contact_touched_nodes_ = active_nodes_;
    dispatch(scatter, sets);
    return;  // one field, or cracks (their contact keeps every array of every node)
  }
  scatter(std::integral_constant<unsigned, 0>{});
  if (rigid_image_.recorded) {
    contact_touched_nodes_ = rigid_image_.nodes(nodes_.fields);
    rigid_image_.restore(nodes_);
  }
  {
    const long F = nodes_.fields, first = active_nodes_.begin, last = active_nodes_.end;
    const double* mass = nodes_.mass.data();
    char* shared = shared_node_.data();
#pragma omp parallel for schedule(static)
    for (long n = first; n < last; ++n) {
      int present = 0;
      for (long f = 0; f < F; ++f) present += mass[n * F + f] > 0.0;
      shared[n] = present >= 2;
    }
    contact_nodes_.clear();
    for (long n = first; n < last; ++n)
      if (shared[n]) contact_nodes_.push_back(n);
  }
  contact_touched_nodes_ = contact_touched_nodes_.hull(contact_pass_reach<Shape>());
  dispatch(contact_pass, sets);
  if (still_image_unrecorded()) rigid_image_.record(nodes_, still_field_);
}

// The nodes the contact pass of extrapolate_to_grid() writes: the stencils of the particles whose
// stencil holds a shared node (layers_around() of the first and the last). Before a still rigid
// field's image is recorded, its particles scatter at every node they reach: the active nodes.
template <int Dim>
template <class Shape>
NodeRange MpmSimulation<Dim>::contact_pass_reach() const {
  if (still_image_unrecorded()) return active_nodes_;
  if (contact_nodes_.empty()) return NodeRange{};
  return layers_around(contact_nodes_.front(), contact_nodes_.back(), grid_.node_count() / grid_.nodes[Dim - 1],
                       grid_.nodes[Dim - 1], Shape::support - 1, active_nodes_);
}

// APIC's affine part of particle p's momentum, sum_I S_Ip m_p C_p (x_I - x_p) (affine_transfer.hpp),
// added to the node entries of its field (and crack fields) by a particle-to-grid pass.
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::add_affine_momentum(long p, const ScatterStencil<Dim, Shape>& s,
                                             const StencilFactors<Dim>& factors, Vec<Dim>* momentum) const {
  AffineStencil<Dim, Shape> a;
  a.compute(grid_, particles_.position[p], factors);
  const Mat<Dim> mC = particles_.mass[p] * affine_velocity_[p];
  const long F = nodes_.fields;
  const long f = field_[p];
  const int* offsets = crack_offsets(p);
  for (int k = 0; k < s.size; ++k)
    momentum[s.node[k] * F + f + (offsets ? offsets[k] : 0)] += s.weight[k] * (mC * a.node_offset(k));
}

// USF: the forces from the stress just updated, f_I = -sum V_p sigma_p grad S_I + sum S_I m_p g,
// in parallel as extrapolate_to_grid.
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::extrapolate_forces() {
  // The particles are binned as extrapolate_to_grid() left them (same positions, same order).
  const int F = nodes_.fields;
  const Grid<Dim>& grid = grid_;
  const StencilFactors<Dim>* const factors = stencil_.data();
  const Vec<Dim> gravity = gravity_;
  partition_.for_each_particle([&](long p) {
    if (rigid_[p]) return;
    ScatterStencil<Dim, Shape> s;
    s.expand(grid, factors[p]);
    const Vec<Dim> mg = particles_.mass[p] * gravity;
    const Mat<Dim> sigma_V = particles_.volume[p] * particles_.stress[p].template topLeftCorner<Dim, Dim>();
    const long f = field_[p];
    if (const int* offsets = crack_offsets(p)) {
      for (int k = 0; k < s.size; ++k)
        nodes_.force[s.node[k] * F + f + offsets[k]] += s.weight[k] * mg - sigma_V * s.gradient[k];
      return;
    }
    for (int k = 0; k < s.size; ++k) nodes_.force[s.node[k] * F + f] += s.weight[k] * mg - sigma_V * s.gradient[k];
  });
}

// After the particle-to-grid pass (and its halo sum), when the node masses are final for the
// step: 1 / m per node entry for the passes that read velocities, and the contact passes' dust
// threshold (the heaviest entry), in one pass over the entries.
template <int Dim>
void MpmSimulation<Dim>::invert_node_masses() {
  if (inverse_mass_.size() != nodes_.mass.size()) inverse_mass_.resize(nodes_.mass.size());
  const long first = first_active_entry(), last = last_active_entry();
  const double tiny = node_mass_floor();
  const double* mass = nodes_.mass.data();
  double* inverse = inverse_mass_.data();
  const Vec<Dim>* momentum = nodes_.momentum.data();
  Vec<Dim>* flip_base = nodes_.momentum_flip_base.data();
  double heaviest = 0.0;  // the other entries hold no mass
#pragma omp parallel for schedule(static) reduction(max : heaviest)
  for (long i = first; i < last; ++i) {
    const double m = mass[i];
    inverse[i] = m <= tiny ? 0.0 : 1.0 / m;  // a NaN mass gives NaN, which the health check finds
    heaviest = std::max(heaviest, m);
    flip_base[i] = momentum[i];
  }
  if (layout_.fields >= 2 || cracked()) {
    if (distributed_) communicate([&] { heaviest = processes_.max(heaviest); });
    node_dust_ = node_dust_of(heaviest);
  }
}

// momentum_start <- p_I (the velocities at the start of the move, update_particles()), then
// p_I += f_I dt on deformable fields; rigid fields keep their imposed momentum. One pass over the
// entries (it was a copy, then one pass per field).
template <int Dim>
void MpmSimulation<Dim>::update_nodal_momenta() {
  const int F = nodes_.fields;
  const long first = active_nodes_.begin, last = active_nodes_.end;
  const double dt = dt_;
  const char* deformable = deformable_entry_.data();
  Vec<Dim>* momentum = nodes_.momentum.data();
  Vec<Dim>* start = nodes_.momentum_start.data();
  const Vec<Dim>* force = nodes_.force.data();
#pragma omp parallel for schedule(static)
  for (long node = first; node < last; ++node)
    for (int f = 0; f < F; ++f) {
      const long i = node * F + f;
      start[i] = momentum[i];
      if (deformable[f]) momentum[i] += dt * force[i];
    }
}

template <int Dim>
Vec<Dim> MpmSimulation<Dim>::impose_boundary_conditions() {
  return boundary_.impose(nodes_, rigid_entry_, active_nodes_.begin, active_nodes_.end);
}

template <int Dim>
void MpmSimulation<Dim>::apply_contact(ContactStage stage, bool record, bool count_work, bool at_surface) {
  const double work_before = contact_.frictional_work, crack_work_before = crack_contact_.frictional_work;
  if (layout_.fields >= 2) {
    const bool regression = regression_neighbourhoods_;  // built this step
    // Material contact inside each crack field: node n's crack field c is, to the multimaterial
    // pass, a node of its own (index n C + c) with the layout's F material fields, the same flat
    // entries n (C F) + c F + f. Logistic-regression normals need the particles around a real node:
    // with cracks they fall back to their gradient start (docs/mpm-cracks.md).
    const int crack_fields = nodes_.fields / layout_.fields;
    nodes_.fields = layout_.fields;
    nodes_.nodes *= crack_fields;
    apply_multimaterial_contact(nodes_, grid_, layout_, spec_.mpm.contact, dt_, stage, record ? &contact_ : nullptr,
                                regression ? &around_ : nullptr, &slip_history_,
                                at_surface && moments_.enabled() ? &moments_ : nullptr,
                                distributed_ ? &processes_ : nullptr, spec_.thickness, node_dust_,
                                contact_nodes_listed_ ? &contact_nodes_ : nullptr);
    nodes_.nodes /= crack_fields;
    nodes_.fields = layout_.fields * crack_fields;
  }
  if (cracked())
    apply_crack_contact(nodes_, grid_, layout_.fields, layout_.rigid_field, cracks_, crack_fields_, spec_.mpm.contact,
                        dt_, stage, record ? &crack_contact_ : nullptr, spec_.thickness,
                        distributed_ ? &processes_ : nullptr, node_dust_);
  if (!count_work) {
    contact_.frictional_work = work_before;
    crack_contact_.frictional_work = crack_work_before;
  }
}

// Grid to particles: v_p <- flip (v_p + sum S (v_I - v_I^extrapolated)) + (1 - flip) sum S v_I
// (FLIP/PIC blend as in Stomakhin et al. 2013); the grid velocity of the move is kept per particle.
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::update_particles() {
  const double flip = spec_.mpm.flip;
  const bool affine = effective_transfer(spec_.mpm) == TransferScheme::Apic;
  const long n = static_cast<long>(particles_.size());
  const StencilFactors<Dim>* const factors = stencil_.data();
#pragma omp parallel for schedule(static)
  for (long p = 0; p < n; ++p) {
    if (rigid_[p]) {
      // A parked particle's grid velocity is +0 from the start (or its checkpoint) on.
      if (!parked_field_[field_[p]]) grid_velocity_[p] = particles_.velocity[p];
      continue;
    }
    ScatterStencil<Dim, Shape> s;
    s.expand(grid_, factors[p]);
    update_particle<Shape>(p, s, flip, affine);
  }
}

template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::update_particle(long p, const ScatterStencil<Dim, Shape>& s, double flip, bool affine) {
  const int F = nodes_.fields;
  const int f = field_[p];
  const int* offsets = crack_offsets(p);
  Vec<Dim> v_grid = Vec<Dim>::Zero();
  Vec<Dim> v_start = Vec<Dim>::Zero();
  Vec<Dim> dv = Vec<Dim>::Zero();
  // APIC: C_p = B_p D_p^-1 from the updated grid velocities (affine_transfer.hpp).
  AffineStencil<Dim, Shape> a;
  if (affine) a.compute(grid_, particles_.position[p], stencil_[p]);
  Mat<Dim> B = Mat<Dim>::Zero();
  for (int k = 0; k < s.size; ++k) {
    const long i = s.node[k] * F + f + (offsets ? offsets[k] : 0);
    const double inverse = inverse_mass_[i];
    if (inverse == 0.0) continue;  // below node_mass_floor()
    const double weight = s.weight[k] * inverse;
    const Vec<Dim> v = weight * nodes_.momentum[i];
    v_grid += v;
    v_start += weight * nodes_.momentum_start[i];
    dv += weight * (nodes_.momentum[i] - nodes_.momentum_flip_base[i]);
    if (affine) B += v * a.node_offset(k).transpose();
  }
  if (affine) affine_velocity_[p] = B * a.inverse_spread.asDiagonal();
  // Midpoint move: x += dt (v^start + v^new)/2, exact for uniform acceleration (a free fall is
  // 0.5 g t^2 to round-off) where x += dt v^new would be first order. Also with APIC, whose
  // transfers conserve angular momentum exactly only with x += dt v^new (Jiang et al. 2015,
  // eq. 11): the midpoint's cross term dt/2 v^start x v^new drifts a spinning body's angular
  // momentum by O(omega^2 dt) per unit time (a free disk at 26.7 rad/s, 5 cells per radius:
  // 0.35% in 0.1 s against 0.02%, FLIP's transfers 2.8%; tests/mpm/affine_transfer_test.cpp),
  // a first-order error kept for the exact free fall (docs/mpm-contact.md, "Affine transfers").
  grid_velocity_[p] = 0.5 * (v_start + v_grid);
  particles_.velocity[p] = flip * (particles_.velocity[p] + dv) + (1.0 - flip) * v_grid;
}

// MUSL without cracks: each particle's grid-to-particle update, then its new momentum to the
// grid, in one pass over the scatter's slabs (one stencil expansion and one read of the particle
// instead of two passes). The sums are the re-extrapolation's, in its order (the slabs'), bit for
// bit; the particle updates do not depend on the order. The sums go to musl_momentum_ while the
// pass still reads the updated momenta, and take their place after it.
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::update_particles_and_reextrapolate() {
  if (musl_momentum_.size() != nodes_.momentum.size()) musl_momentum_.resize(nodes_.momentum.size());
  Vec<Dim>* const target = musl_momentum_.data();
  // The array swapped out at the last step holds its sums over the touched nodes, no further.
  const long first = touched_nodes_.begin * nodes_.fields, last = touched_nodes_.end * nodes_.fields;
#pragma omp parallel for schedule(static)
  for (long i = first; i < last; ++i) target[i].setZero();
  const double flip = spec_.mpm.flip;
  const bool affine = effective_transfer(spec_.mpm) == TransferScheme::Apic;
  const Grid<Dim>& grid = grid_;
  const StencilFactors<Dim>* const factors = stencil_.data();
  partition_.for_each_particle([&](long p) {
    if (rigid_[p]) {
      if (!parked_field_[field_[p]]) grid_velocity_[p] = particles_.velocity[p];
      // Standing rigid fields carry no momentum; interior rigid particles reach no shared node.
      if (rigid_[p] == kRigidInterior || still_field_[field_[p]]) return;
    }
    ScatterStencil<Dim, Shape> s;
    s.expand(grid, factors[p]);
    if (!rigid_[p]) update_particle<Shape>(p, s, flip, affine);
    add_particle_momentum<Shape>(p, s, affine, target);
  });
  nodes_.momentum.swap(musl_momentum_);
}

// MUSL (Sulsky et al. 1995): the updated particle momenta back to the grid, with the stencil of
// the start of the step, so that the velocity gradient comes from the new velocities. In parallel
// as extrapolate_to_grid. With cracks only (their surfaces move on the grid velocities between the
// update and this pass); otherwise update_particles_and_reextrapolate() does both in one pass.
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::reextrapolate_momenta() {
  const long first = touched_nodes_.begin * nodes_.fields, last = touched_nodes_.end * nodes_.fields;
#pragma omp parallel for schedule(static)
  for (long i = first; i < last; ++i) nodes_.momentum[i].setZero();
  // The particles are binned as extrapolate_to_grid() left them: the positions have not changed.
  const Grid<Dim>& grid = grid_;
  const StencilFactors<Dim>* const factors = stencil_.data();
  const bool affine = effective_transfer(spec_.mpm) == TransferScheme::Apic;
  partition_.for_each_particle([&](long p) {
    // Standing rigid fields carry no momentum; interior rigid particles reach no shared node.
    if (rigid_[p] == kRigidInterior || still_field_[field_[p]]) return;
    ScatterStencil<Dim, Shape> s;
    s.expand(grid, factors[p]);
    add_particle_momentum<Shape>(p, s, affine, nodes_.momentum.data());
  });
}

template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::add_particle_momentum(long p, const ScatterStencil<Dim, Shape>& s, bool affine,
                                               Vec<Dim>* momentum) const {
  if (affine && !rigid_[p]) add_affine_momentum<Shape>(p, s, stencil_[p], momentum);
  const Vec<Dim> mv = particles_.mass[p] * particles_.velocity[p];
  const long F = nodes_.fields, f = field_[p];
  if (const int* offsets = crack_offsets(p)) {
    for (int k = 0; k < s.size; ++k) momentum[s.node[k] * F + f + offsets[k]] += s.weight[k] * mv;
    return;
  }
  for (int k = 0; k < s.size; ++k) momentum[s.node[k] * F + f] += s.weight[k] * mv;
}

// Slip at the surface: the second and velocity moments of every deformable node field about its
// particles' centroid (contact_moments.hpp), after the particle-to-grid pass and before the
// boundary conditions (the centring needs the momenta as extrapolated). In parallel as
// extrapolate_to_grid (the partition is the one it binned).
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::extrapolate_moments() {
  moments_.clear();
  const int F = nodes_.fields;
  const Grid<Dim>& grid = grid_;
  const double half_width = half_width_;
  partition_.for_each_particle([&](long p) {
    if (rigid_[p]) return;  // a rigid field's velocity is imposed: no gradient
    ScatterStencil<Dim, Shape> s;
    s.compute(grid, particles_.position[p], half_width);
    const long f = field_[p];
    for (int k = 0; k < s.size; ++k)
      moments_.add(s.node[k] * F + f, s.weight[k], particles_.mass[p], particles_.velocity[p],
                   Vec<Dim>(particles_.position[p] - grid.node_position(s.node[k])));
  });
  // About the node the moments are sums over particles, like the mass: completed on shared nodes
  // before the centring, which reads the completed mass, momentum and mass-weighted position.
  if (distributed_) {
    const HaloColumn columns[] = {halo_column<Dim>(moments_.second), halo_column<Dim>(moments_.velocity)};
    communicate([&] { halo_.sum(processes_, nodes_.fields, std::span<const HaloColumn>(columns, 2)); });
  }
  const long entries = static_cast<long>(nodes_.mass.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < entries; ++i) {
    const double m = nodes_.mass[i];
    if (!(m > 0.0) || rigid_entry_[i % F]) continue;
    moments_.center(i, m, nodes_.momentum[i], Vec<Dim>(nodes_.mass_position[i] / m - grid_.node_position(i / F)));
  }
}

// The particles around every contact node for the logistic-regression normals (node_particles.hpp),
// after the halo sum. Across processes a node near a box's edge also has particles of the
// neighbouring processes in its support: they come as ghosts, every particle within the stencil's
// reach plus two cells of this process's box (GhostExchange, ascending rank), so that the fit at a
// shared node sees the particles a single process would (in another order: the fit agrees to
// round-off, tests/mpi/mpm_distributed_mpi_test.cpp).
template <int Dim>
template <class Shape>
void MpmSimulation<Dim>::build_regression_neighbourhoods() {
  const double dust = node_dust_;
  if (distributed_) {
    communicate([&] {
      // A node of the sub-grid lies up to reach + 1 cells beyond the box on each axis (the box's
      // cells widened by reach), and a particle touches it from up to the stencil's support
      // further on each axis; a distance to the box is Euclidean, so a node off a corner of the box
      // needs sqrt(Dim) times that. (reach + 2 cells, used until stop 22, missed particles near a
      // box's corner: the sphere on 3 processes left the one-process run at step 87.)
      const double width =
          std::sqrt(static_cast<double>(Dim)) * (reach_ + 1 + stencil_support()) * global_grid_.cell.maxCoeff();
      const auto ghosts = parallel::GhostExchange<Dim>::build(particles_.position, decomposition_, width, processes_);
      ghosts.gather(std::tuple{NamedArray{"position", particles_.position}, NamedArray{"field", field_}},
                    std::tuple{NamedArray{"position", ghost_position_}, NamedArray{"field", ghost_field_}}, processes_);
    });
  }
  around_.template build<Shape>(grid_, nodes_, particles_, field_, half_width_, dust, ghost_position_, ghost_field_,
                                layout_.rigid_field, active_nodes_.begin, active_nodes_.end);
}

// x_p <- x_p + dt v_move, after the stress update so that every gradient of the step is taken
// at the positions the grid was built from.
template <int Dim>
void MpmSimulation<Dim>::move_particles() {
  const long n = static_cast<long>(particles_.size());
#pragma omp parallel for schedule(static)
  for (long p = 0; p < n; ++p) particles_.position[p] += dt_ * grid_velocity_[p];
}

// Every per-particle array of the solver, reordered together by grid cell (particle_sort.hpp).
template <int Dim>
void MpmSimulation<Dim>::sort_particles_by_cell() {
  if (!sorter_.sort_by_cell(grid_, particles_.position)) return;
  apply_to_arrays(particle_arrays(*this), [this](auto&... arrays) { sorter_.permute(arrays...); });
}

// Velocity gradient from the particle's own field, F <- (I + L dt) F, stress from F.
// The material model is chosen once per step (constitutive.hpp): the deck's one deformable model,
// or a branch per particle when it has several.
template <int Dim>
template <class Shape, bool Move>
void MpmSimulation<Dim>::update_stress() {
  if (!stress_model_)
    update_stress_with<Shape, Move>(MixedStressModels{material_model_.data()});
  else if (*stress_model_ == MaterialModel::NeoHookean)
    update_stress_with<Shape, Move>(StressModel<MaterialModel::NeoHookean>{});
  else
    update_stress_with<Shape, Move>(StressModel<MaterialModel::LinearElastic>{});
}

template <int Dim>
template <class Shape, bool Move, class Stress>
void MpmSimulation<Dim>::update_stress_with(const Stress& stress) {
  const int F = nodes_.fields;
  const long n = static_cast<long>(particles_.size());
  const bool plane = Dim == 2;
  const StencilFactors<Dim>* const factors = stencil_.data();
  const double dt = dt_;
  Vec<Dim>* const position = particles_.position.data();
  const Vec<Dim>* const v_move = grid_velocity_.data();
#pragma omp parallel for schedule(static)
  for (long p = 0; p < n; ++p) {
    // The stencil is the cached one: moving p here changes nothing this pass reads.
    if (rigid_[p]) {
      if (Move && !parked_field_[field_[p]]) position[p] += dt * v_move[p];
      continue;
    }
    if constexpr (Move) position[p] += dt * v_move[p];
    ScatterStencil<Dim, Shape> s;
    s.expand(grid_, factors[p]);
    const int f = field_[p];
    const int* offsets = crack_offsets(p);
    Mat<Dim> L = Mat<Dim>::Zero();
    for (int k = 0; k < s.size; ++k) {
      const long i = s.node[k] * F + f + (offsets ? offsets[k] : 0);
      const double inverse = inverse_mass_[i];
      if (inverse == 0.0) continue;  // below node_mass_floor()
      L += (inverse * nodes_.momentum[i]) * s.gradient[k].transpose();
    }
    Mat3& Fp = deformation_gradient_[p];
    if constexpr (Dim == 2) {
      // Plane strain: the increments, and so F, are block diagonal (in-plane 2x2 and F_zz), so
      // the in-plane product is the 3x3 product's bit for bit (its third terms are exact zeros).
      const Mat<2> increment = Mat<2>::Identity() + dt * L;
      const Mat<2> in_plane = increment * Fp.template topLeftCorner<2, 2>();
      Fp.template topLeftCorner<2, 2>() = in_plane;
    } else {
      Mat3 increment = Mat3::Identity();
      increment += dt * L;
      Fp = increment * Fp;
    }
    const int mat = particles_.material[p];
    const double J = Fp.determinant();
    particles_.volume[p] = J * particles_.reference_volume[p];
    strain_energy_density_[p] = stress.update(mat, Fp, elastic_[mat], plane, particles_.stress[p]);
  }
}

// transfer: apic, over the non-rigid particles: f(m_p, C_p, diagonal of D_p), D_p at the
// particles' current positions (affine_transfer.hpp), summed.
template <int Dim>
template <class T, class PerParticle>
T MpmSimulation<Dim>::sum_affine(T zero, PerParticle per_particle) const {
  const auto sum = [&](auto shape) {
    using Shape = decltype(shape);
    T total = zero;
    for (std::size_t p = 0; p < particles_.size(); ++p) {
      if (rigid_[p]) continue;
      StencilFactors<Dim> f;
      ScatterStencil<Dim, Shape>::factors(grid_, particles_.position[p], half_width_, f);
      AffineStencil<Dim, Shape> a;
      a.compute(grid_, particles_.position[p], f);
      total += per_particle(particles_.mass[p], affine_velocity_[p], a.spread());
    }
    return total;
  };
  switch (spec_.mpm.shape_function) {
    case ShapeFunctionKind::Linear: return sum(LinearShape{});
    case ShapeFunctionKind::Gimp: return sum(GimpShape{});
    case ShapeFunctionKind::BSpline2: return sum(BSpline2Shape{});
  }
  return zero;
}

// The kinetic energy of the affine velocities, sum (m / 2) tr(C D C^T): the grid's kinetic energy
// of an affine field (a rigid rotation's included) beyond sum m v^2 / 2 (Jiang et al. 2015, sec. 5).
template <int Dim>
double MpmSimulation<Dim>::affine_kinetic_energy() const {
  return sum_affine(0.0, [](double m, const Mat<Dim>& C, const Vec<Dim>& D) {
    return mpm::affine_kinetic_energy<Dim>(m, C, D);
  });
}

template <int Dim>
Vec3 MpmSimulation<Dim>::particle_spin() const {
  if (effective_transfer(spec_.mpm) != TransferScheme::Apic) return Vec3::Zero();
  return sum_affine(Vec3(Vec3::Zero()), [](double m, const Mat<Dim>& C, const Vec<Dim>& D) -> Vec3 {
    return affine_angular_momentum<Dim>(m, C, D);
  });
}

template <int Dim>
EnergyBreakdown MpmSimulation<Dim>::energy() const {
  EnergyBreakdown e;
  for (std::size_t p = 0; p < particles_.size(); ++p) {
    if (rigid_[p]) continue;
    const double m = particles_.mass[p];
    e.kinetic += 0.5 * m * particles_.velocity[p].squaredNorm();
    e.strain += strain_energy_density_[p] * particles_.reference_volume[p];
    e.potential -= m * gravity_.dot(particles_.position[p] - particles_.reference_position[p]);
  }
  if (effective_transfer(spec_.mpm) == TransferScheme::Apic) e.kinetic += affine_kinetic_energy();
  e.frictional = frictional_work_;
  e.strain += contact_.stored_energy;  // the penalty law's springs: the work done on them
  if (distributed_) {
    double parts[] = {e.kinetic, e.strain, e.potential, e.frictional};
    processes_.sum_in_place(parts);
    e = EnergyBreakdown{parts[0], parts[1], parts[2], parts[3]};
  }
  return e;
}

template <int Dim>
Vec3 MpmSimulation<Dim>::contact_force(int material_a, int material_b) const {
  const int a = layout_.field_of_material[material_a];
  const int b = layout_.field_of_material[material_b];
  if (a == b) return Vec3::Zero();
  return to_vec3<Dim>(Vec<Dim>(sum_over_processes(contact_.impulse(a, b)) / dt_));
}

template <int Dim>
Vec3 MpmSimulation<Dim>::crack_force(int crack) const {
  if (crack < 0 || crack >= static_cast<int>(cracks_.size())) return Vec3::Zero();
  return to_vec3<Dim>(Vec<Dim>(sum_over_processes(crack_contact_.impulse[crack]) / dt_));
}

// Each crack as three polylines: its plane, the surface above and the surface below (cells 3c,
// 3c + 1, 3c + 2 of the mesh, cell data "crack" = c and "surface" = 0, 1, 2; docs/mpm-cracks.md).
template <int Dim>
std::vector<SurfaceMesh> MpmSimulation<Dim>::surfaces() const {
  if (!cracked()) return {};
  SurfaceMesh mesh;
  mesh.name = "cracks";
  mesh.cell_data = {{"crack", {}}, {"surface", {}}};
  for (std::size_t c = 0; c < cracks_.size(); ++c) {
    const Crack& crack = cracks_[c];
    int surface = 0;
    for (const std::vector<Vec2>* line : {&crack.plane, &crack.above, &crack.below}) {
      mesh.cell_data[0].second.push_back(static_cast<int>(c));
      mesh.cell_data[1].second.push_back(surface++);
      std::vector<int> cell;
      for (const Vec2& x : *line) {
        cell.push_back(static_cast<int>(mesh.points.size()));
        mesh.points.push_back(Vec3(x[0], x[1], 0.0));
      }
      mesh.cells.push_back(std::move(cell));
    }
  }
  return {mesh};
}

template <int Dim>
void MpmSimulation<Dim>::check_health() const {
  for (std::size_t c = 0; c < cracks_.size(); ++c)
    for (const std::vector<Vec2>* line : {&cracks_[c].above, &cracks_[c].below})
      for (const Vec2& x : *line) {
        bool inside = x.allFinite();
        for (int d = 0; d < 2 && inside; ++d) inside = x[d] >= domain_lo_[d] && x[d] <= domain_hi_[d];
        if (!inside)
          throw SimulationError(steps_, time_,
                                fmt::format("a surface of crack {} left the grid at ({:.6g}, {:.6g}) (enlarge "
                                            "mpm.grid, or keep the crack inside the bodies)",
                                            c, x[0], x[1]));
      }
  // One cell of padding holds the stencil; past the deck's grid a particle is lost.
  // What is wrong with particle p: 0 nothing, 1 a non-finite position or velocity, 2 a non-finite
  // stress, 3 outside the deck's grid.
  const auto problem = [&](long p) {
    const Vec<Dim>& x = particles_.position[p];
    if (!x.allFinite() || !particles_.velocity[p].allFinite()) return 1;
    // A non-finite stress (an inverted element, J <= 0) reaches the velocities only a step later;
    // catch it in the step that made it. The strain energy density is computed from the same F
    // as the stress and is one number to test instead of nine.
    if (!std::isfinite(strain_energy_density_[p])) return 2;
    for (int d = 0; d < Dim; ++d)
      if (x[d] < domain_lo_[d] || x[d] > domain_hi_[d]) return 3;
    return 0;
  };
  // In parallel; the particle named is the first in index order whatever the thread count.
  const long n = static_cast<long>(particles_.size());
  long first = n;
#pragma omp parallel for schedule(static) reduction(min : first)
  for (long p = 0; p < n; ++p)
    if (problem(p) != 0) first = std::min(first, p);
  if (first == n && !distributed_) return;
  std::string message;  // what is wrong here, empty when nothing is
  if (first != n) {
    const long p = first;
    const Vec<Dim>& x = particles_.position[p];
    const std::string& body = spec_.bodies[particles_.body[p]].name;
    switch (problem(p)) {
      case 1:
        message = fmt::format("particle {} of body '{}' has a non-finite position or velocity (time step too "
                              "large for the material, or a contact blow-up)",
                              p, body);
        break;
      case 2:
        message = fmt::format("particle {} of body '{}' has a non-finite stress (the material inverted, J = det "
                              "F <= 0: time step too large for the material, or a contact blow-up)",
                              p, body);
        break;
      default:
        message = fmt::format("particle {} of body '{}' left the grid at ({:.6g}{}) (enlarge mpm.grid, or check "
                              "velocities and boundary conditions)",
                              p, body, x[0], Dim > 1 ? fmt::format(", {:.6g}", x[1]) : std::string());
    }
  }
  if (distributed_) {
    // Every process learns what the lowest failing one found, so that all stop with its message
    // instead of waiting for each other (particle numbers are that process's own). The messages
    // travel only in the step that fails; every other step costs one count.
    if (processes_.sum(static_cast<long long>(!message.empty())) == 0) return;
    const auto* bytes = reinterpret_cast<const std::byte*>(message.data());
    const std::vector<std::byte> mine(bytes, bytes + message.size());
    const auto received = processes_.all_to_all(std::vector<std::vector<std::byte>>(
        static_cast<std::size_t>(processes_.size()), mine));
    for (std::size_t r = 0; r < received.size(); ++r)
      if (!received[r].empty())
        throw SimulationError(steps_, time_,
                              fmt::format("process {}: {}", r,
                                          std::string(reinterpret_cast<const char*>(received[r].data()),
                                                      received[r].size())));
    return;
  }
  throw SimulationError(steps_, time_, message);
}

// Checkpoints: every per-particle array in its current (sorted) order, so that the next sort
// (steps_ % kSortInterval) and every nodal sum see the particles in the same order as the run that
// was saved; the step count, time, dt, the gravity of the last step (energy()), the frictional work
// and the contact impulses of the last step (contact_force()), and the slip history of static
// friction (per node: it outlives the step). The other nodal arrays are cleared and rebuilt every
// step, the scatter partition and sort buffers every time they are used: not state.
template <int Dim>
void MpmSimulation<Dim>::save_state(StateWriter& out) const {
  for_each_array(particle_arrays(*this), [&out](std::string_view name, const auto& values) {
    out.write_array(fmt::format("mpm.{}", name), values);
  });
  if (distributed_) out.write_array("mpm.decomposition", decomposition_.to_numbers());  // the boxes of now
  out.write_array("mpm.contact_impulse", contact_.pair_impulse);
  out.write_array("mpm.contact_slip", slip_history_.slip);
  out.write_value("mpm.contact_frictional_work", contact_.frictional_work);
  // The work done on the penalty springs (part of energy.strain), summed since the start.
  if (spec_.mpm.contact.normal_law == ContactNormalLaw::Penalty)
    out.write_value("mpm.contact_stored_energy", contact_.stored_energy);
  out.write_value("mpm.gravity", gravity_);
  out.write_value("mpm.dt", dt_);
  out.write_value("mpm.time", time_);
  out.write_value("mpm.steps", steps_);
  out.write_value("mpm.frictional_work", frictional_work_);
  // Crack entries only with cracks, so that checkpoints of decks without them stay as they were.
  for (std::size_t c = 0; c < cracks_.size(); ++c) {
    out.write_array(fmt::format("mpm.crack{}.plane", c), cracks_[c].plane);
    out.write_array(fmt::format("mpm.crack{}.above", c), cracks_[c].above);
    out.write_array(fmt::format("mpm.crack{}.below", c), cracks_[c].below);
  }
  if (cracked()) {
    out.write_array("mpm.crack_impulse", crack_contact_.impulse);
    out.write_value("mpm.crack_frictional_work", crack_contact_.frictional_work);
  }
}

template <int Dim>
void MpmSimulation<Dim>::restore_state(const StateReader& in) {
  rigid_image_ = RigidNodeImage<Dim>{};  // recorded again by the next particle-to-grid pass
  // Sizes are the deck's: a checkpoint of another deck fails here instead of running on. Across
  // processes each holds the particles its box held when it was written (the driver checks the
  // run's total).
  const bool distributed = distributed_;
  for_each_array(particle_arrays(*this), [&in, distributed](std::string_view name, auto& values) {
    if (distributed) in.read_array(fmt::format("mpm.{}", name), values);
    else in.read_array_of_size(fmt::format("mpm.{}", name), values);
  });
  if (distributed_) size_particle_scratch();
  if (distributed_) {  // the boxes the run had, and so its sub-grid, before the slip history
    std::vector<double> numbers;
    in.read_array("mpm.decomposition", numbers);
    decomposition_ = parallel::RcbPartition<Dim>::from_numbers(numbers);
    adopt_sub_grid();
  }
  in.read_array_of_size("mpm.contact_impulse", contact_.pair_impulse);
  in.read_array_of_size("mpm.contact_slip", slip_history_.slip);
  slip_history_.anywhere = true;  // a contact pass over candidates forgets the slip it leaves out
  in.read_value("mpm.contact_frictional_work", contact_.frictional_work);
  if (spec_.mpm.contact.normal_law == ContactNormalLaw::Penalty)
    in.read_value("mpm.contact_stored_energy", contact_.stored_energy);
  in.read_value("mpm.frictional_work", frictional_work_);
  read_run_scalars_and_cracks(in);
  if (cracked()) {
    in.read_array_of_size("mpm.crack_impulse", crack_contact_.impulse);
    in.read_value("mpm.crack_frictional_work", crack_contact_.frictional_work);
  }
  check_restored_particles();
}

// What every process's checkpoint holds alike: the step, time, time step, last gravity and the
// cracks (every process holds and moves all of them).
template <int Dim>
void MpmSimulation<Dim>::read_run_scalars_and_cracks(const StateReader& in) {
  in.read_value("mpm.gravity", gravity_);
  in.read_value("mpm.dt", dt_);
  in.read_value("mpm.time", time_);
  in.read_value("mpm.steps", steps_);
  for (std::size_t c = 0; c < cracks_.size(); ++c) {
    in.read_array_of_size(fmt::format("mpm.crack{}.plane", c), cracks_[c].plane);
    in.read_array_of_size(fmt::format("mpm.crack{}.above", c), cracks_[c].above);
    in.read_array_of_size(fmt::format("mpm.crack{}.below", c), cracks_[c].below);
    cracks_[c].update_box();
  }
}

template <int Dim>
void MpmSimulation<Dim>::check_restored_particles() const {
  const Particles<Dim>& q = particles_;
  for (std::size_t p = 0; p < q.size(); ++p)
    if (q.body[p] < 0 || q.body[p] >= static_cast<int>(spec_.bodies.size()) || q.material[p] < 0 ||
        q.material[p] >= static_cast<int>(spec_.materials.size()) || field_[p] < 0 ||
        field_[p] >= layout_.fields)
      throw std::runtime_error(fmt::format(
          "checkpoint particle {} names body {}, material {}, field {}: not of this deck", p,
          q.body[p], q.material[p], field_[p]));
}

// From checkpoints written by another number of processes N (collective): this process was given
// the pieces rank, rank + M, ... (CheckpointFolder::pieces_of; maybe none; all on one process).
// Each piece holds its process's particles with their whole state, its boxes and the slip history on
// its sub-grid, and its share of the run's sums (frictional work, the last step's contact
// impulses), which the new processes' shares add up to again. The particles are distributed afresh
// over M boxes (a recursive bisection of their positions, as a rebalance), the slip history goes
// to every process whose new sub-grid holds its node. The scalars are the run's, alike in every
// piece. The particles' order differs from the uninterrupted run's, so the continuation agrees
// with it to round-off (tests/cli/mpi_launch.sh).
template <int Dim>
void MpmSimulation<Dim>::restore_pieces(std::span<const StateReader* const> pieces, const StateReader& first) {
  if (!distributed_) {
    // One process takes every piece; the pieces' sub-grids are cut from the deck's grid, which is
    // this process's whole grid, with the reach the run that wrote them used.
    global_grid_ = grid_;
    reach_ = static_cast<int>(std::ceil(stencil_support()));
  }
  rigid_image_ = RigidNodeImage<Dim>{};
  const double deck_particles = processes_.sum(static_cast<double>(particles_.size()));
  read_run_scalars_and_cracks(first);  // every process holds and moves every crack
  // This process's share of the sums: those of its pieces.
  for (Vec<Dim>& impulse : contact_.pair_impulse) impulse.setZero();
  for (Vec<Dim>& impulse : crack_contact_.impulse) impulse.setZero();
  contact_.frictional_work = contact_.stored_energy = frictional_work_ = crack_contact_.frictional_work = 0.0;
  for_each_array(particle_arrays(*this), [](std::string_view, auto& values) { values.clear(); });
  std::vector<SlipEntry> slip;
  const int stride = processes_.size();
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const StateReader& piece = *pieces[k];
    for_each_array(particle_arrays(*this), [&piece](std::string_view name, auto& values) {
      std::remove_reference_t<decltype(values)> more;
      piece.read_array(fmt::format("mpm.{}", name), more);
      values.insert(values.end(), more.begin(), more.end());
    });
    add_piece_sums(piece);
    // The piece's slip history lies on its own process's sub-grid: that of box `written rank`.
    std::vector<double> numbers, piece_slip;
    piece.read_array("mpm.decomposition", numbers);
    piece.read_array("mpm.contact_slip", piece_slip);
    const int written_rank = processes_.rank() + static_cast<int>(k) * stride;
    const auto boxes = parallel::RcbPartition<Dim>::from_numbers(numbers);
    const std::vector<SlipEntry> entries =
        slip_entries(piece_slip, sub_grid_for_box(global_grid_, boxes.box(written_rank), reach_));
    slip.insert(slip.end(), entries.begin(), entries.end());
  }
  const double restored = processes_.sum(static_cast<double>(particles_.size()));
  if (restored != deck_particles)
    throw std::runtime_error(fmt::format("checkpoint pieces hold {} particles, the deck {}", restored, deck_particles));
  check_restored_particles();
  if (distributed_) {  // the boxes afresh over the restored particles, each to its box's process
    decomposition_ = parallel::RcbPartition<Dim>::build(
        particles_.position, processes_.size(), parallel::Box<Dim>{global_grid_.origin, global_grid_.upper()}, processes_);
    migrate_particles();
    adopt_sub_grid();
  } else {
    size_particle_scratch();
  }
  recount_deformable_mass();
  if (!slip_history_.slip.empty()) place_slip_entries(slip);
}

// A checkpoint piece's share of the run's sums added to this process's.
template <int Dim>
void MpmSimulation<Dim>::add_piece_sums(const StateReader& piece) {
  std::vector<Vec<Dim>> pair_impulse(contact_.pair_impulse.size());
  piece.read_array_of_size("mpm.contact_impulse", pair_impulse);
  for (std::size_t i = 0; i < pair_impulse.size(); ++i) contact_.pair_impulse[i] += pair_impulse[i];
  double value = 0.0;
  piece.read_value("mpm.contact_frictional_work", value);
  contact_.frictional_work += value;
  if (spec_.mpm.contact.normal_law == ContactNormalLaw::Penalty) {
    piece.read_value("mpm.contact_stored_energy", value);
    contact_.stored_energy += value;
  }
  piece.read_value("mpm.frictional_work", value);
  frictional_work_ += value;
  if (cracked()) {
    std::vector<Vec<Dim>> crack_impulse(crack_contact_.impulse.size());
    piece.read_array_of_size("mpm.crack_impulse", crack_impulse);
    for (std::size_t i = 0; i < crack_impulse.size(); ++i) crack_contact_.impulse[i] += crack_impulse[i];
    piece.read_value("mpm.crack_frictional_work", value);
    crack_contact_.frictional_work += value;
  }
}

// The mass of this process's deformable particles (gravity's share of external_impulse_).
template <int Dim>
void MpmSimulation<Dim>::recount_deformable_mass() {
  deformable_mass_ = 0.0;
  for (std::size_t p = 0; p < particles_.size(); ++p)
    if (!rigid_[p]) deformable_mass_ += particles_.mass[p];
}

// The CFL condition of explicit MPM (cfl = 1 in stable_time_step): a dilatational wave or a
// particle must not cross more than one cell in a step.
template <int Dim>
double MpmSimulation<Dim>::time_step_limit() const {
  // As stable_time_step(spec_, velocity, 1.0), with one square root instead of one per particle:
  // the guard runs every step.
  double wave = 0.0;
  for (const MaterialSpec& m : spec_.materials) wave = std::max(wave, dilatational_wave_speed(m));
  double v2 = 0.0;
  const long n = static_cast<long>(particles_.size());
#pragma omp parallel for schedule(static) reduction(max : v2)
  for (long p = 0; p < n; ++p) v2 = std::max(v2, particles_.velocity[p].squaredNorm());
  if (distributed_) v2 = processes_.max(v2);
  return grid_.cell.minCoeff() / std::max(wave + std::sqrt(v2), 1e-300);
}

}  // namespace

std::string unsupported_across_processes(const SimulationSpec&) {
  // Every MPM option runs across processes (slip: surface since stop 24: its node moments are
  // summed over the shared nodes like the mass). Kept as the one place a future option that
  // cannot would say so.
  return "";
}

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec) {
  return std::make_unique<MpmSimulation<Dim>>(spec, parallel::Communicator::single());
}

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec, const parallel::Communicator& processes) {
  return std::make_unique<MpmSimulation<Dim>>(spec, processes);
}

template std::unique_ptr<Simulation<2>> make_simulation<2>(const SimulationSpec&);
template std::unique_ptr<Simulation<3>> make_simulation<3>(const SimulationSpec&);
template std::unique_ptr<Simulation<2>> make_simulation<2>(const SimulationSpec&, const parallel::Communicator&);
template std::unique_ptr<Simulation<3>> make_simulation<3>(const SimulationSpec&, const parallel::Communicator&);
template double stable_time_step<2>(const SimulationSpec&, const std::vector<Vec<2>>&, double);
template double stable_time_step<3>(const SimulationSpec&, const std::vector<Vec<3>>&, double);

}  // namespace tribo::mpm
