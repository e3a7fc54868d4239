#pragma once
// The deck as plain data: what io/ reads from YAML and what mpm/ and pd/ build a run from.
// Vectors are 3-vectors with z = 0 in 2D. Every field has the default of ../docs/deck.md.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "tribo/core/geometry.hpp"
#include "tribo/core/material.hpp"
#include "tribo/core/types.hpp"

namespace tribo {

enum class Method { Mpm, Pd };

struct TimeSpec {
  double end = 0.0;              // s, required
  std::optional<double> dt;      // s; exactly one of dt and cfl
  std::optional<double> cfl;     // fraction of the stable step
};

struct BodySpec {
  std::string name;
  std::string material;          // a MaterialSpec name
  int material_index = -1;       // resolved by the reader
  Shape geometry;
  Vec3 velocity = Vec3::Zero();          // m/s
  Vec3 angular_velocity = Vec3::Zero();  // rad/s about the centroid; 2D uses z
};

struct BoundaryConditionSpec {
  Shape region;
  std::array<std::optional<double>, 3> velocity;  // m/s per component; empty = free
};

// A contact law between two materials (MPM), on a crack, or between PD bodies.
// VelocityWeakening: mu(v) = mu_k + (mu_s - mu_k) exp(-|v| / v_c) (contact/velocity_weakening_friction.hpp).
enum class ContactLaw { Frictionless, Stick, Coulomb, ImperfectInterface, VelocityWeakening };

struct ContactLawSpec {
  ContactLaw law = ContactLaw::Coulomb;
  double friction = 0.0;                  // kinetic coefficient mu_k
  std::optional<double> static_friction{};  // mu_s >= mu_k; empty = same as kinetic
  // MPM: slip (m) over which mu_s falls to mu_k after a node starts to slide (linear
  // slip-weakening, docs/mpm-contact.md); empty = 0.01 of the smallest cell size, 0 = a sharp drop.
  std::optional<double> slip_weakening_distance{};
  double adhesion = 0.0;                  // Pa, the A of f = mu N + A (per contact area)
  double normal_stiffness = 0.0;          // Pa/m, imperfect interface D_n
  double tangential_stiffness = 0.0;      // Pa/m, imperfect interface D_t
  double weakening_velocity = 0.0;        // m/s, v_c of velocity-weakening (> 0 with that law)
};

struct ContactPairSpec {
  std::array<std::string, 2> materials;
  std::array<int, 2> material_indices{-1, -1};
  ContactLawSpec law;
};

enum class ContactNormalMethod {
  MaxVolumeGradient,
  MaxGradient,
  AverageVolumeGradient,
  MassGradient,
  Specified,
  LogisticRegression
};

enum class ContactPositionMethod { Displacement, Position };

// How two fields in contact at a node push each other apart (MpmContactSpec::normal_law).
// impulse: the seed's momentum exchange, which stops the approach of fields found touching by the
// approach and displacement/position checks (NairnMPM). penalty: a force on the overlap of the two
// fields' nodal volumes, acting whether they approach or separate, with the stiffness of a penalty
// method (Hallquist's LS-DYNA default: a tenth of the softer body's bulk modulus per cell;
// docs/mpm-contact.md, "Penalty normal law").
enum class ContactNormalLaw { Impulse, Penalty };

// Where the tangential slip of a Coulomb contact is measured (MpmContactSpec::slip).
enum class ContactSlipPoint { Node, Surface };

struct MpmContactSpec {
  ContactNormalMethod normals = ContactNormalMethod::LogisticRegression;
  Vec3 specified_normal = Vec3::UnitY();  // from normal_angles {polar, azimuth} in degrees
  double normal_polar = 90.0;              // degrees from +z; the deck's normal_angles.polar
  double normal_azimuth = 90.0;            // degrees from +x in the xy plane; normal_angles.azimuth
  double vmin = 0.0;                       // fraction of a full cell's volume
  bool displacement_check = true;
  ContactPositionMethod position_method = ContactPositionMethod::Position;
  double position_offset = 0.8;            // cutoff in cell sizes for the position method
  // Whether the changes of the contact pass after extrapolation reach the particle velocities (the
  // FLIP increment is measured from the momenta before it). false = NairnMPM's semantics: that pass
  // only shapes the grid momenta of the update, the particles feel the post-update pass alone.
  bool first_pass_to_particles = true;
  // Where a Coulomb pair's slip is measured: at the node (the velocity of the node's particles at
  // their centroid, NairnMPM) or at the surface point between the two fields' centroids, with each
  // field's velocity gradient from its particles (docs/mpm-contact.md, "Slip at the surface").
  ContactSlipPoint slip = ContactSlipPoint::Node;
  ContactNormalLaw normal_law = ContactNormalLaw::Impulse;
  double penalty_scale = 0.1;  // penalty stiffness per unit area = scale x softer bulk modulus / cell
  std::vector<ContactPairSpec> pairs;
};

struct CrackSpec {
  std::vector<Vec3> points;   // 2D polyline
  ContactLawSpec law{ContactLaw::Frictionless};
};

enum class ShapeFunctionKind { Linear, Gimp, BSpline2 };
enum class UpdateScheme { Usl, Usf, Musl };
// Particle-grid velocity transfer: flip = the FLIP/PIC blend of the particle velocities alone
// (the default until stop 16); apic = each particle also carries an affine velocity C_p into
// particle-to-grid (Jiang et al. 2015; mpm/affine_transfer.hpp), the `flip` fraction still
// blending the velocity update. apic is the default: a node's field velocity is then the field's
// at the node and a contact impulse acts with the node's lever (docs/mpm-contact.md, "Affine
// transfers"): the oblique disks' energy error 1.68% -> 0.77%, the rolling disk's speed -5.84% ->
// -4.58%, every other MPM validation still passing.
enum class TransferScheme { Flip, Apic };
// How a body's sub-cells (cell / particles_per_cell) become particles: clipped = one particle for
// every sub-cell the body overlaps, with the overlapped volume at its centroid (core/geometry.hpp,
// cell_overlap); centers = a whole sub-cell's particle at every sub-cell centre inside the body
// (the rule until stop 25). clipped is the default: a disk's surface is then carried by particles
// on it instead of a staircase whose lowest row is a flat; the rolling disk's speed error at 10
// cells per radius goes from -4.58% to -1.80% (docs/mpm-contact.md, "Clipped particle fill").
// Bodies whose faces lie on sub-cell boundaries get the same particles either way, bit for bit.
enum class ParticleFill { Clipped, Centers };

struct MpmSpec {
  Vec3 grid_min = Vec3::Zero();
  Vec3 grid_max = Vec3::Zero();
  Vec3 cell = Vec3::Zero();   // m per direction (a scalar in the deck fills all)
  int particles_per_cell = 2;  // per direction
  ParticleFill particle_fill = ParticleFill::Clipped;  // see ParticleFill
  // uGIMP by default (NairnMPM's default too): linear shapes with update: usl go unstable where a
  // body enters a cell slowly (a node of tiny lumped mass under a full-size stress gradient;
  // Sulsky et al. 1995 introduced MUSL against it): a block settling or sliding at 0.1 m/s blows
  // up at its first cell crossing (docs/deck.md, shape_function).
  ShapeFunctionKind shape_function = ShapeFunctionKind::Gimp;
  UpdateScheme update = UpdateScheme::Usl;
  double flip = 1.0;           // 1 = FLIP, 0 = PIC
  TransferScheme transfer = TransferScheme::Apic;  // see TransferScheme
  MpmContactSpec contact;
  std::vector<CrackSpec> cracks;
};

// The transfer a run uses: apic falls back to flip with linear shapes (D_p vanishes on a node: a
// particle crossing one gets an unbounded C_p; Jiang et al. 2015 use the velocity gradient there)
// and with cracks (their crack-field velocities move the crack surfaces; not validated with APIC
// yet). The deck reader rejects an explicit `transfer: apic` in those cases.
inline TransferScheme effective_transfer(const MpmSpec& mpm) {
  if (mpm.shape_function == ShapeFunctionKind::Linear || !mpm.cracks.empty()) return TransferScheme::Flip;
  return mpm.transfer;
}

enum class FrictionModel { None, Bfcm, Nfcm, Objective };

// smoothed: repulsion against a smoothed volume fraction of the other bodies' matter (the default;
// docs/pd-friction.md); pairwise: the seed's springs between point pairs (LAMMPS PERI, Peridigm).
enum class PdContactModel { Smoothed, Pairwise };
// Pairwise contact radius: fixed = radius x h for every pair; lammps = LAMMPS PERI's rule
// d_pi = min(0.9 |X_p - X_i|, 1.35 h) from the reference positions.
enum class PdContactRadiusRule { Fixed, Lammps };

struct PdContactSpec {
  PdContactModel model = PdContactModel::Smoothed;
  // In lattice spacings. smoothed: the kernel support R (default 2.0); pairwise: the contact
  // radius d (default 0.9). Empty = the model's default.
  std::optional<double> radius;
  // In units of the bond micromodulus c: smoothed, a point's normal spring k_p = stiffness c V^2 /
  // delta (default 1); pairwise, c_s = stiffness c (default 15). Empty = the model's default.
  std::optional<double> stiffness;
  PdContactRadiusRule radius_rule = PdContactRadiusRule::Fixed;  // pairwise only
  // radius_in_spacings() and stiffness_in_units() (core/option_descriptors.hpp) give the model's
  // default when these are empty.
  FrictionModel friction_model = FrictionModel::Objective;
  // The friction law of every pair: one of the laws marked pd in contact/contact_laws.hpp, with
  // its keys (coulomb by default). Its slip_weakening_distance is the slip (m) over which a point's
  // friction weakens from static to kinetic once it slides (as MPM's, contact/coulomb_friction.hpp
  // after_slip); it recovers the static value when the point sticks (slip speed below
  // regularization_velocity) or leaves contact. Empty = one spacing h; 0 = the regularised law's
  // drop with the slip speed alone.
  ContactLawSpec law{};
  double regularization_velocity = 1.0e-3;  // m/s; 0 = none
};

struct PdSpec {
  double spacing = 0.0;       // m, required with method pd
  double horizon = 3.015;     // in spacings
  PdContactSpec contact;
  // PD-only options (defaults keep the deck's meaning; docs/pd.md):
  // Surface-effect correction by the energy method (Madenci & Oterkus 2014, sec. 4.2; pd.md).
  bool surface_correction = true;
  // Partial volume of neighbour cells cut by the horizon (docs/pd.md): hhb = Hu, Ha & Bobaru
  // 2012 (neighbours to delta + h/2); pdlammps = LAMMPS' PERI rule (neighbours to delta only);
  // automatic = the one with the smaller lattice error: pdlammps in 2D, hhb in 3D.
  enum class PartialVolume { Automatic, Hhb, Pdlammps };
  PartialVolume partial_volume = PartialVolume::Automatic;
  // Mass-proportional damping coefficient (1/s) for dynamic relaxation; 0 = undamped.
  double damping = 0.0;
  // A pre-crack: a polyline in the x-y plane (z ignored; in 3D it cuts through all z). Bonds
  // whose reference segment crosses it start broken (Silling & Askari 2005).
  struct Precrack {
    std::vector<Vec3> points;
  };
  std::vector<Precrack> precracks;
};

enum class HistoryQuantity { Centroid, Velocity, ContactForce, Energy, Momentum, AngularMomentum, CrackForce };

struct HistorySpec {
  HistoryQuantity quantity = HistoryQuantity::Energy;
  std::string body;                      // centroid, velocity
  std::array<std::string, 2> materials;  // contact-force
  int crack = -1;                        // crack-force: index into mpm.cracks
};

struct OutputSpec {
  std::string directory = "out";
  double every = 0.0;                    // s; 0 = 100 frames over the run
  std::vector<std::string> fields{"velocity", "displacement", "stress", "material", "damage"};
  std::vector<HistorySpec> history;
  std::optional<double> checkpoint_every;  // s of simulated time; empty = none by simulated time
  std::optional<double> checkpoint_wall;   // s of wall-clock time; empty = kDefaultCheckpointWall
  static constexpr double kDefaultCheckpointWall = 600.0;  // 10 minutes (issue 17)
};

struct SimulationSpec {
  std::string source_file;    // the deck's path, for messages
  std::string title;
  Method method = Method::Mpm;
  int dimension = 2;
  double thickness = 1.0;     // m, 2D only
  TimeSpec time;
  Vec3 gravity = Vec3::Zero();
  double gravity_ramp = 0.0;  // s; gravity rises linearly from 0 over this time (0 = at once)
  std::vector<MaterialSpec> materials;
  std::vector<BodySpec> bodies;
  std::vector<BoundaryConditionSpec> boundary_conditions;
  MpmSpec mpm;
  PdSpec pd;
  OutputSpec output;

  int material_index(const std::string& name) const {
    for (std::size_t i = 0; i < materials.size(); ++i)
      if (materials[i].name == name) return static_cast<int>(i);
    return -1;
  }
  int body_index(const std::string& name) const {
    for (std::size_t i = 0; i < bodies.size(); ++i)
      if (bodies[i].name == name) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace tribo
