#pragma once
// Surface-effect correction of bond-based PD by the energy method (Madenci & Oterkus 2014,
// "Peridynamic Theory and Its Applications", sec. 4.2; compared in Le & Bobaru 2018, Comput.
// Mech. 61:499): a point near a free surface, or whose discrete family misses part of the
// horizon's volume, is softer than the bulk. Under an isotropic stretch s every PMB bond has the
// same stretch, so the point's strain energy is proportional to sum_j |xi| beta V_j; the factor
//   g_i = int_H |xi| dV / sum_j |xi| beta V_j
// restores the continuum value, and a bond takes lambda_ij = (g_i + g_j) / 2 (symmetric, so
// Newton's third law still holds). In the bulk g also removes the quadrature error of the
// lattice sum. The weights are partial volumes, so this is the volume correction too.
#include <span>

#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {

// Fills g_i for the points of `range`; full_integral = full_horizon_length_integral<Dim>.
void energy_surface_correction(PointRange range, const BondFamilies& bonds, double full_integral,
                               std::span<double> correction);

}  // namespace tribo::pd
