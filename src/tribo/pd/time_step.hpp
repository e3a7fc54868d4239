#pragma once
// Stable time step of explicit PD (Silling & Askari 2005, Comput. Struct. 83:1526, stability of
// the central-difference scheme by a von Neumann analysis):
//   dt_i = sqrt(2 rho_i / sum_j C_ij beta V_j),   C_ij = c lambda_ij / |xi_ij|
// the micromodulus of the linearised bond force; the run takes min_i dt_i times a safety factor.
#include <span>

#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {

// min over the points of `range` of sqrt(2 rho / (sum_j C_ij beta V_j + extra_i)), where the bond
// weights are already C_ij beta V_j (the PMB weights); +infinity when no point has a bond.
// `extra` (N/m^4 per point, indexed by point; empty = none) adds springs that are not bonds: the
// contact repulsion k V_i of the pairs a point may be pressed into (pd_simulation.cpp).
double critical_time_step(PointRange range, double density, const BondFamilies& bonds,
                          std::span<const double> bond_stiffness,
                          std::span<const double> extra = {});

// The same with C_ij = c / |xi| for one micromodulus c (LPS through its equivalent PMB c).
double critical_time_step(PointRange range, double density, const BondFamilies& bonds,
                          double micromodulus, std::span<const double> extra = {});

}  // namespace tribo::pd
