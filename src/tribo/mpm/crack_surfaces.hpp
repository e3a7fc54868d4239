#pragma once
// Motion of the crack surfaces (NairnMPM's CRAMP; Nairn 2003, CMES 4:649; PHYSICS.md "MPM cracks"):
// each surface moves with the grid velocity of its own side's material, interpolated at the
// surface particle from the crack field that material uses at each node, and the crack plane
// with the mean of the two surfaces. The velocity is the particles' midpoint velocity of the step,
// (v_start + v_end) / 2 of each node field, so that a surface on a body moves as the body's
// particles do.
#include <cmath>
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
template <int Dim, class Shape>
void move_crack_surfaces(std::vector<Crack>& cracks, const CrackFields<Dim>& fields, const NodeFields<Dim>& nodes,
                         const Grid<Dim>& grid, int material_fields, double half_width, double dt, double tiny) {
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
      // The midpoint velocity of each surface particle, from the state at the start of the move.
      std::vector<Vec2> velocity(2 * count, Vec2::Zero());
      for (int i = 0; i < count; ++i) {
        const Vec2 normal = crack_particle_normal(crack, i);
        for (int surface = 0; surface < 2; ++surface) {
          const CrackSide side = surface == 0 ? CrackSide::Above : CrackSide::Below;
          const Vec2& x = surface == 0 ? crack.above[i] : crack.below[i];
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
          velocity[2 * i + surface] = mass > 0.0 ? Vec2(momentum / mass) : Vec2(Vec2::Constant(NAN));
        }
        // A surface with no material around it (beyond a body's edge) moves with the other one.
        Vec2& above = velocity[2 * i];
        Vec2& below = velocity[2 * i + 1];
        if (!above.allFinite()) above = below.allFinite() ? below : Vec2(Vec2::Zero());
        if (!below.allFinite()) below = above;
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

}  // namespace tribo::mpm
