#pragma once
// Motion of the crack surfaces (NairnMPM's CRAMP; Nairn 2003, CMES 4:649; PHYSICS.md "MPM cracks"):
// each surface moves with the grid velocity of its own side's material, interpolated at the
// surface particle from the crack field that material uses at each node, and the crack plane
// with the mean of the two surfaces. The velocity is the particles' midpoint velocity of the step,
// (v_start + v_end) / 2 of each node field, so that a surface on a body moves as the body's
// particles do.
#include <cmath>
#include <span>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/mpm/crack_fields.hpp"
#include "tribo/mpm/crack_geometry.hpp"
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/node_fields.hpp"
#include "tribo/mpm/scatter_stencil.hpp"

namespace tribo::mpm {

// Moves every crack's surfaces by dt and sets the plane to their mean. Node arrays as
// apply_crack_contact (flat index n * (4 F) + c F + f); `tiny` is the mass below which a node
// field is empty (the solver's G2P threshold).
//
// Across processes every process holds every crack and the nodes of its own box only: a surface
// particle's velocity is interpolated by the one process whose box holds it (`owns(x)`), the others
// give zeros, and `sum(values)` adds the velocities and the "has material" flags over the
// processes (one non-zero term each: exact), so that every process moves every surface alike.
template <int Dim, class Shape, class Owns, class Sum>
void move_crack_surfaces(std::vector<Crack>& cracks, const CrackFields<Dim>& fields, const NodeFields<Dim>& nodes,
                         const Grid<Dim>& grid, int material_fields, double half_width, double dt, double tiny,
                         Owns&& owns, Sum&& sum) {
  if constexpr (Dim != 2) {
    return;
  } else {
    const int F = material_fields;
    const long stride = static_cast<long>(kCrackFields) * F;
    // A surface point's crossing test starts this far off the plane on its own side, so that
    // each surface of a closed crack (both on the plane) is on its side of it.
    const double nudge = 1e-6 * grid.cell.minCoeff();
    for (int c = 0; c < static_cast<int>(cracks.size()); ++c) {
      Crack& crack = cracks[c];
      const int count = static_cast<int>(crack.plane.size());
      // The midpoint velocity of each surface particle, from the state at the start of the move,
      // and whether material was found around it: (v_x, v_y, found) per surface particle.
      std::vector<double> found(6 * static_cast<std::size_t>(count), 0.0);
      for (int i = 0; i < count; ++i) {
        const Vec2 normal = crack_particle_normal(crack, i);
        for (int surface = 0; surface < 2; ++surface) {
          const CrackSide side = surface == 0 ? CrackSide::Above : CrackSide::Below;
          const Vec2& x = surface == 0 ? crack.above[i] : crack.below[i];
          if (!owns(x)) continue;
          // Sides are decided from the plane (as for particles): a surface that has passed through
          // the plane (faces overlapping) still takes its own side's material.
          const Vec2 from = crack.plane[i] + (surface == 0 ? nudge : -nudge) * normal;
          const int combination = crack_combination(c, side);
          ScatterStencil<Dim, Shape> s;
          s.compute(grid, x, half_width);
          Vec2 momentum = Vec2::Zero();
          double mass = 0.0;
          for (int k = 0; k < s.size; ++k) {
            if (!(s.weight[k] > 0.0)) continue;
            // The node is on this surface's side unless the line to it crosses the crack; then
            // this side's material is the crack field of (crack, side) at that node.
            CrackSide ignored;
            const bool crossed = crosses_crack(crack, from, grid.node_position(s.node[k]), ignored);
            const int field = crossed ? fields.field_of_combination(s.node[k], combination) : 0;
            if (field < 0) continue;
            const long base = s.node[k] * stride + field * F;
            double m = 0.0;
            Vec2 p = Vec2::Zero();
            for (int f = 0; f < F; ++f) {
              m += nodes.mass[base + f];
              p += 0.5 * (nodes.momentum_start[base + f] + nodes.momentum[base + f]);
            }
            if (!(m > tiny)) continue;
            momentum += s.weight[k] * p;
            mass += s.weight[k] * m;
          }
          // Mass-weighted: v = sum S p / sum S m. A surface particle sits on the crack, where the
          // nodes across it hold only the little of its side's material that reaches them, whose
          // velocity after the force update is poorly known (f / m of a small mass); weighting
          // each node by S alone, as a material point would, let such a node move a surface at
          // metres per second in a block pressed at centimetres per second (GIMP). Weighting by
          // S m gives each node the share of the side's material it holds, and the exact
          // velocity of a uniform motion.
          if (mass > 0.0) {
            const Vec2 v = momentum / mass;
            double* entry = found.data() + 3 * (2 * i + surface);
            entry[0] = v[0], entry[1] = v[1], entry[2] = 1.0;
          }
        }
      }
      sum(std::span<double>(found));
      std::vector<Vec2> velocity(2 * count, Vec2::Zero());
      for (int i = 0; i < count; ++i) {
        const double* above_entry = found.data() + 3 * (2 * i);
        const double* below_entry = above_entry + 3;
        const bool has_above = above_entry[2] > 0.0, has_below = below_entry[2] > 0.0;
        // A surface with no material around it (beyond a body's edge) moves with the other one.
        const Vec2 above(above_entry[0], above_entry[1]), below(below_entry[0], below_entry[1]);
        velocity[2 * i] = has_above ? above : has_below ? below : Vec2(Vec2::Zero());
        velocity[2 * i + 1] = has_below ? below : velocity[2 * i];
      }
      for (int i = 0; i < count; ++i) {
        crack.above[i] += dt * velocity[2 * i];
        crack.below[i] += dt * velocity[2 * i + 1];
        crack.plane[i] = 0.5 * (crack.above[i] + crack.below[i]);
      }
      crack.update_box();
    }
  }
}

// One process: it owns every surface particle and there is nothing to add.
template <int Dim, class Shape>
void move_crack_surfaces(std::vector<Crack>& cracks, const CrackFields<Dim>& fields, const NodeFields<Dim>& nodes,
                         const Grid<Dim>& grid, int material_fields, double half_width, double dt, double tiny) {
  move_crack_surfaces<Dim, Shape>(
      cracks, fields, nodes, grid, material_fields, half_width, dt, tiny, [](const Vec2&) { return true; },
      [](std::span<double>) {});
}

}  // namespace tribo::mpm
