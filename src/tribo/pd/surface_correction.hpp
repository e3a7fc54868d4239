#pragma once
// Surface-effect correction by the energy method (Madenci & Oterkus 2014, "Peridynamic Theory
// and Its Applications", sec. 4.2; compared with other methods in Le & Bobaru 2018, Comput.
// Mech. 61:499). A point near a free surface, or whose discrete family misses part of the
// horizon, is softer (or stiffer) than the continuum. Each point gets one factor per axis d from
// a uniform loading along d: the uniaxial stress state eps = zeta (e_d e_d - nu (I - e_d e_d)),
// under which a bond of unit vector n has stretch s = zeta ((1 + nu) n_d^2 - nu), so that the
// bond-based energy is proportional to sum_j |xi|^p s^2 beta V_j and
//   g_d,i = int_H |xi|^p ((1 + nu) n_d^2 - nu)^2 dV / sum_j |xi|^p ((1 + nu) n_d^2 - nu)^2 beta V_j
// restores the continuum value (p = 1 for PMB). A bond takes the mean of its ends' factors,
// gbar_d = (g_d,i + g_d,j) / 2 (symmetric, so Newton's third law holds), interpolated on the
// ellipse/ellipsoid through them (Madenci & Oterkus 2014, sec. 4.2):
//   lambda_ij = (sum_d n_d^2 / gbar_d^2)^(-1/2).
// Two departures from the book, both measured on bars (docs/pd.md): the loading is uniaxial
// stress rather than uniaxial strain (nu = 0), which makes the bulk lattice's Young's modulus
// along each axis exact (with uniaxial strain only C11 is, and the cubic lattice's C12 error
// stays: -4% in E for 3D PMB with the Pdlammps rule) and halves the surface layers' excess
// stiffness; and it is applied to LPS too (p = 2, its energy sums e^2 beta V_j with e ~ |xi|),
// as a heuristic that roughly halves LPS' surface stiffening. Per axis rather than one
// isotropic factor, because a surface point's family keeps every bond parallel to the surface:
// one isotropic factor over-stiffened a 2D bar 12 points wide by 9%.
#include <span>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {

// int_H |xi|^p ((1 + nu) n_x^2 - nu)^2 dV over a full horizon: 4 pi a delta^(p+3) / (p+3) in
// 3D, 2 pi t a delta^(p+2) / (p+2) in 2D, with a the angular mean of ((1 + nu) n_x^2 - nu)^2.
template <int Dim>
double full_horizon_axial_integral(double horizon, double thickness, int power, double poisson);

// The per-axis factors g_d,i of the points of `range`, stored at correction[Dim * i + d]
// (1 for an axis along which the point has no bond component).
template <int Dim>
void axial_energy_factors(PointRange range, std::span<const Vec<Dim>> reference_position,
                          const BondFamilies& bonds, int power, double poisson,
                          double full_integral, std::span<double> correction);

// lambda_ij of every bond of `range` from the factors.
template <int Dim>
void bond_correction_factors(PointRange range, std::span<const Vec<Dim>> reference_position,
                             const BondFamilies& bonds, std::span<const double> correction,
                             std::span<double> bond_factor);

}  // namespace tribo::pd
