#pragma once
// Rigid particles deep inside their body, which the solver need not scatter (issue 17: a rigid body
// should cost no more than its surface).
//
// A rigid particle only matters through the nodal values of its field (mass, momentum, volume and
// its gradient, position) at nodes where another field also has mass: only there is contact
// decided. Another body's particles stay outside the rigid surface (contact keeps them there, up to
// a fraction of a cell), so their field reaches at most one shape-function support s (in cells)
// inside it, and the rigid values at those nodes come from rigid particles at most another s
// further in. A rigid particle whose cell is surrounded, `reach` = ceil(2 s) + 1 cells in every
// direction, by cells holding particles of its own body and of no other body contributes only to
// nodes no other field can reach; leaving it out of the particle-to-grid pass changes no contact,
// no deformable particle and no history value, bit for bit. A rigid body moves rigidly, so a
// particle deep inside stays deep inside, and the set is found once, from the starting positions.
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/mpm/grid.hpp"

namespace tribo::mpm {

// Per-particle roles in the solver's `rigid_` array.
enum ParticleRole : char { kDeformable = 0, kRigidSurface = 1, kRigidInterior = 2 };

// Cells around a particle that must belong to its body for it to be interior: ceil(2 s) + 1 for a
// shape function whose support reaches s cells from a particle.
int rigid_interior_reach(double support_cells);

// For each particle: kDeformable where !rigid[p], else kRigidInterior or kRigidSurface as above.
// Cells are the grid's; a cell outside the grid counts as holding no body.
template <int Dim>
std::vector<char> classify_rigid_particles(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& position,
                                           const std::vector<int>& body, const std::vector<char>& rigid,
                                           int reach);

}  // namespace tribo::mpm
