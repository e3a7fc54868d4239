#pragma once
// A square elastic block between two rigid frictionless platens, with or without a crack through
// it, shared by the crack validation tests of this folder (docs/mpm-cracks.md).
#include <cmath>
#include <cstdio>
#include <vector>

#include "mpm_problems.hpp"

namespace tribo::testing {

constexpr double kCrackCell = 1.0e-3;  // m
constexpr double kBlockLo = 0.010, kBlockHi = 0.030;  // m, the block is [lo, hi]^2
constexpr double kBlockE = 1.0e7, kBlockNu = 0.3, kBlockRho = 1000.0;

struct CrackedBlock {
  bool with_crack = true;
  std::vector<Vec3> crack;                     // polyline
  std::vector<Vec3> second_crack;              // a second crack (same law) when not empty
  ContactLawSpec crack_law{ContactLaw::Frictionless};
  ContactPositionMethod position = ContactPositionMethod::Displacement;
  double platen_speed = -0.005;                // m/s, the top platen (negative: compression)
  bool pull_by_boundary_conditions = false;    // tension: grid velocities on the top and bottom faces
  bool platens = true;                         // else no platens (a load by gravity)
  Vec3 gravity = Vec3::Zero();                 // m/s^2
  double gravity_ramp = 0.0;                   // s
  double hold_below = -1.0;                    // m: nodes with y below this are held still (if > 0)
  ShapeFunctionKind shape = ShapeFunctionKind::Linear;
};

// Materials: 0 block, 1 bottom platen, 2 top platen (rigid); bodies in the same order.
inline SimulationSpec cracked_block_spec(const CrackedBlock& o) {
  SimulationSpec spec;
  spec.dimension = 2;
  spec.time.cfl = 0.4;
  spec.materials.push_back(elastic_material("block", kBlockRho, kBlockE, kBlockNu));
  const double h = kCrackCell;
  spec.bodies.push_back(body("block", 0, box_shape(2, Vec3(kBlockLo, kBlockLo, 0), Vec3(kBlockHi, kBlockHi, 0))));
  if (o.pull_by_boundary_conditions) {
    BoundaryConditionSpec bottom, top;
    bottom.region = box_shape(2, Vec3(0, kBlockLo - 0.1 * h, 0), Vec3(1, kBlockLo + 0.1 * h, 0));
    bottom.velocity = {std::nullopt, 0.0, std::nullopt};
    top.region = box_shape(2, Vec3(0, kBlockHi - 0.1 * h, 0), Vec3(1, kBlockHi + 0.1 * h, 0));
    top.velocity = {std::nullopt, o.platen_speed, std::nullopt};
    spec.boundary_conditions = {bottom, top};
  } else if (o.platens) {
    for (const char* name : {"bottom", "top"}) {
      MaterialSpec platen = elastic_material(name, kBlockRho, kBlockE, kBlockNu);
      platen.model = MaterialModel::Rigid;
      spec.materials.push_back(platen);
    }
    // Wide platens: a wedge sliding on an inclined crack stays under them.
    spec.bodies.push_back(body("bottom", 1, box_shape(2, Vec3(0.002, kBlockLo - 2 * h, 0), Vec3(0.038, kBlockLo, 0))));
    spec.bodies.push_back(body("top", 2, box_shape(2, Vec3(0.002, kBlockHi, 0), Vec3(0.038, kBlockHi + 2 * h, 0)),
                               Vec3(0, o.platen_speed, 0)));
    for (int platen : {1, 2}) {
      ContactPairSpec pair;
      pair.materials = {"block", spec.materials[platen].name};
      pair.material_indices = {0, platen};
      pair.law = ContactLawSpec{ContactLaw::Frictionless};
      spec.mpm.contact.pairs.push_back(pair);
    }
  }
  if (o.hold_below > 0.0) {
    BoundaryConditionSpec hold;
    hold.region = box_shape(2, Vec3(0, 0, 0), Vec3(1, o.hold_below, 0));
    hold.velocity = {0.0, 0.0, std::nullopt};
    spec.boundary_conditions.push_back(hold);
  }
  spec.gravity = o.gravity;
  spec.gravity_ramp = o.gravity_ramp;
  spec.mpm.grid_min = Vec3(0, 0, 0);
  spec.mpm.grid_max = Vec3(0.040, 0.040, 0);
  spec.mpm.cell = Vec3::Constant(h);
  spec.mpm.particles_per_cell = 2;
  spec.mpm.shape_function = o.shape;
  spec.mpm.contact.position_method = o.position;
  if (o.with_crack) {
    CrackSpec crack;
    crack.points = o.crack;
    crack.law = o.crack_law;
    spec.mpm.cracks.push_back(crack);
    if (!o.second_crack.empty()) {
      crack.points = o.second_crack;
      spec.mpm.cracks.push_back(crack);
    }
  }
  return spec;
}

// Mean of one stress component over the block's particles whose reference position satisfies
// `where`.
template <class Where>
double mean_block_stress(const Simulation<2>& sim, int row, int column, Where where) {
  const Particles<2>& p = sim.particles();
  double sum = 0.0, volume = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.body[i] == 0 && where(p.reference_position[i])) {
      sum += p.stress[i](row, column) * p.volume[i];
      volume += p.volume[i];
    }
  return sum / volume;
}

// The crack's surfaces from Simulation::surfaces(): cells 0, 1, 2 are the plane, above, below.
struct CrackSurfaces {
  std::vector<Vec2> plane, above, below;
};

inline CrackSurfaces crack_surfaces(const Simulation<2>& sim) {
  CrackSurfaces out;
  const std::vector<SurfaceMesh> meshes = sim.surfaces();
  if (meshes.empty()) return out;
  const SurfaceMesh& m = meshes.front();
  std::vector<Vec2>* lines[3] = {&out.plane, &out.above, &out.below};
  for (int c = 0; c < 3 && c < static_cast<int>(m.cells.size()); ++c)
    for (int k : m.cells[c]) lines[c]->push_back(m.points[k].head<2>());
  return out;
}

}  // namespace tribo::testing
