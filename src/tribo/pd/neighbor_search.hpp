#pragma once
// Bond families from a cell-list neighbour search: O(N) in the number of points.
#include <vector>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"

namespace tribo::pd {

// The partial volume of a neighbour cell is partial_volume_fraction (bond_family.hpp). The two
// rules differ in where the family ends (Seleson 2014, CMAME 282:184, compares them):
// - Hhb (Hu, Ha & Bobaru 2012, CMAME 217:247): at delta + h/2, where the fraction reaches 0.
// - Pdlammps (Parks et al. 2008, Comput. Phys. Commun. 179:777; LAMMPS' PERI): at delta,
//   where it is 1/2.
// With delta = 3.015 h the lattice sums of the bulk differ from the continuum integrals, and the
// bulk Young's modulus along a lattice axis (after the surface correction's scaling) is
//   3D PMB: Hhb +0.7%, Pdlammps -3.8%;  3D LPS: Hhb +1.5%, Pdlammps -10.8%
//   2D PMB: Hhb +1.2%, Pdlammps -0.2%;  2D LPS: Hhb +2.5%, Pdlammps -1.6%
// (the cubic lattice's anisotropy; docs/pd.md), and the 2D bars' surface layers are also
// stiffer with Hhb. Hence the default: Pdlammps in 2D, Hhb in 3D.
enum class PartialVolumeRule { Hhb, Pdlammps };

// The deck's choice resolved for a dimension.
template <int Dim>
PartialVolumeRule partial_volume_rule(PdSpec::PartialVolume choice) {
  if (choice == PdSpec::PartialVolume::Hhb) return PartialVolumeRule::Hhb;
  if (choice == PdSpec::PartialVolume::Pdlammps) return PartialVolumeRule::Pdlammps;
  return Dim == 3 ? PartialVolumeRule::Hhb : PartialVolumeRule::Pdlammps;
}
// The largest distance a neighbour may have under the rule.
double family_radius(PartialVolumeRule rule, double horizon, double spacing);

// A set of points to connect: `bonded[i]` false leaves point i without bonds (rigid points);
// only points of the same `group` (body) are bonded to each other.
template <int Dim>
struct NeighborSearchInput {
  const std::vector<Vec<Dim>>* reference_position = nullptr;
  const std::vector<double>* volume = nullptr;  // m^3 per point
  const std::vector<int>* group = nullptr;      // body index per point
  const std::vector<char>* bonded = nullptr;    // may be null: all bonded
  double horizon = 0.0;                         // m
  double spacing = 0.0;                         // m, lattice spacing (partial volumes)
  PartialVolumeRule rule = PartialVolumeRule::Hhb;
};

// Every pair within family_radius (Pdlammps: up to a relative 1e-10, so that a horizon of a
// whole number of spacings keeps the lattice points at exactly that distance; Hhb: strictly
// closer than delta + h/2, where the fraction is 0), sorted by neighbour index within each
// family. Cells of side delta, so a point's neighbours lie in the 3^Dim cells around.
template <int Dim>
BondFamilies build_bond_families(const NeighborSearchInput<Dim>& input);

}  // namespace tribo::pd
