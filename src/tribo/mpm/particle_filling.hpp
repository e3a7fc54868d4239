#pragma once
// Fills each body of a deck with material points: particles_per_cell per direction in every grid
// cell, at the centres of the sub-cells whose centre lies inside the body's shape. A point-cloud
// body (Shape::Kind::Points) gets one particle per point instead, of the file's volume (times the
// thickness in 2D) or, when the file gives none, of a sub-cell's volume.
#include "tribo/core/particles.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/grid.hpp"

namespace tribo::mpm {

// Appends the particles of every body; velocity = v0 + omega x (x - centroid of the body).
// Throws DeckError when a body gets no particle (smaller than a sub-cell).
template <int Dim>
void fill_bodies(const SimulationSpec& spec, const Grid<Dim>& grid, Particles<Dim>& particles);

}  // namespace tribo::mpm
