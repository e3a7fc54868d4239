#pragma once
// Velocity boundary conditions on grid nodes: every node inside a deck region gets the prescribed
// components of velocity in every deformable field (p = m v), after extrapolation and after the
// momentum update, as NairnMPM imposes its grid velocity BCs.
#include <array>
#include <vector>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/node_fields.hpp"

namespace tribo::mpm {

template <int Dim>
struct GridBoundaryConditions {
  struct Constraint {
    long node;
    int component;
    double velocity;  // m/s
    // Across processes: whether this process adds the constraint's impulse to its share of the
    // momentum balance (a shared node's impulse is counted by one of its holders).
    bool counted = true;
  };
  std::vector<Constraint> constraints;

  // Across processes `grid` is this process's part of `global` from its node `first` on: a node's
  // position is taken on the global grid, so that a node on a region's edge (a floor's end at
  // x = 1 on a grid from -0.005) is in or out on every process as on one; the sub-grid's own
  // origin + i h rounds differently.
  static GridBoundaryConditions from(const SimulationSpec& spec, const Grid<Dim>& grid,
                                     const Grid<Dim>* global = nullptr, const IVec<Dim>& first = IVec<Dim>::Zero()) {
    GridBoundaryConditions bc;
    const auto position = [&](long n) {
      if (global == nullptr) return grid.node_position(n);
      return global->node_position(global->node_index(IVec<Dim>(grid.node_ijk(n) + first)));
    };
    for (const BoundaryConditionSpec& b : spec.boundary_conditions)
      for (long n = 0; n < grid.node_count(); ++n) {
        if (!b.region.contains(to_vec3<Dim>(position(n)))) continue;
        for (int d = 0; d < Dim; ++d)
          if (b.velocity[d]) bc.constraints.push_back({n, d, *b.velocity[d]});
      }
    return bc;
  }

  // Returns the impulse the constraints gave the deformable fields (the change of their nodal
  // momentum, N s), for the summary's momentum balance.
  // Only the nodes in [first_node, last_node) are visited (MpmSimulation's active nodes, which the
  // step's particles reach): the others hold no mass and no momentum, so m v is the zero they
  // hold. A floor's region under a body otherwise costs a pass over all its nodes three times a
  // step (an eighth of the step of examples/validation/incline-elastic-floor.yaml).
  Vec<Dim> impose(NodeFields<Dim>& nodes, const std::vector<bool>& rigid_field, long first_node = 0,
                  long last_node = -1) const {
    const int F = nodes.fields;
    if (last_node < 0) last_node = nodes.nodes;
    Vec<Dim> impulse = Vec<Dim>::Zero();
    for (const Constraint& c : constraints) {
      if (c.node < first_node || c.node >= last_node) continue;
      for (int f = 0; f < F; ++f) {
        if (rigid_field[f]) continue;
        const long i = c.node * F + f;
        const double imposed = nodes.mass[i] * c.velocity;
        if (c.counted) impulse[c.component] += imposed - nodes.momentum[i][c.component];
        nodes.momentum[i][c.component] = imposed;
      }
    }
    return impulse;
  }
};

}  // namespace tribo::mpm
