#pragma once
// Bond families from a cell-list neighbour search: O(N) in the number of points.
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"

namespace tribo::pd {

// Partial volume of a neighbour cell of side `spacing` whose centre is at distance r from the
// family's centre, for a horizon delta: 1 inside delta - h/2, falling linearly to 1/2 at delta
// (the PDLAMMPS rule, Parks et al. 2008, "Implementing peridynamics within a molecular dynamics
// code", Comput. Phys. Commun. 179:777; Seleson 2014, CMAME 282:184, "PA" algorithms).
double partial_volume_fraction(double r, double horizon, double spacing);

// A set of points to connect: `bonded[i]` false leaves point i without bonds (rigid points);
// only points of the same `group` (body) are bonded to each other.
template <int Dim>
struct NeighborSearchInput {
  const std::vector<Vec<Dim>>* reference_position = nullptr;
  const std::vector<double>* volume = nullptr;   // m^3 per point
  const std::vector<int>* group = nullptr;       // body index per point
  const std::vector<char>* bonded = nullptr;     // may be null: all bonded
  double horizon = 0.0;                          // m
  double spacing = 0.0;                          // m, lattice spacing (partial volumes)
};

// Every pair closer than the horizon (up to a relative 1e-10, so that a horizon of a whole number
// of spacings keeps the lattice points at exactly that distance), sorted by neighbour index
// within each family. Cells of side delta, so a point's neighbours lie in the 3^Dim cells around.
template <int Dim>
BondFamilies build_bond_families(const NeighborSearchInput<Dim>& input);

}  // namespace tribo::pd
