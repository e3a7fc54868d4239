#pragma once
// Bond-based prototype microelastic brittle (PMB) material (Silling & Askari 2005): each bond is
// a central spring, pairwise force density f = c lambda s (y_j - y_i) / |y_j - y_i|, stretch
// s = (|y_j - y_i| - |xi|) / |xi|, broken for good once s exceeds the critical stretch.
// The per-bond constant is folded into one weight w = c lambda beta V_j / |xi| (0 = broken),
// so the force on point i is V_i sum_j w (|Y| - |xi|) Y / |Y|.
#include <span>

#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {

// w = c lambda_ij beta V_j / |xi|, lambda_ij the bond's surface correction (surface_correction.hpp;
// all 1 when `bond_factor` is empty).
void pmb_bond_weights(PointRange range, double micromodulus, const BondFamilies& bonds,
                      std::span<const double> bond_factor, std::span<double> weight);

// Adds the bond forces (N) of the points in `range` to `force`, owner-computes. A bond stretched
// beyond stretch_limit = 1 + s_c is broken first (its weight set to 0 and its beta V_j added to
// broken_volume[i]); the two copies of a bond see the same |Y| and so break together.
template <int Dim>
void add_pmb_forces(PointRange range, double stretch_limit, std::span<const Vec<Dim>> position,
                    std::span<const double> volume, const BondFamilies& bonds,
                    std::span<double> weight, std::span<double> broken_volume,
                    std::span<Vec<Dim>> force);

// Strain energy of each point (J): W_i V_i = sum_j (1/2)(1/2) c lambda s^2 |xi| beta V_j V_i,
// half of each bond's energy to each end.
template <int Dim>
void pmb_point_energy(PointRange range, std::span<const Vec<Dim>> position,
                      std::span<const double> volume, const BondFamilies& bonds,
                      std::span<const double> weight, std::span<double> energy);

// PD stress estimate sigma_i = (1/2) sum_j f_ij (x) xi_ij beta V_j, symmetrised (Pa); the
// bond-pair virial of Lehoucq & Silling 2008 (J. Mech. Phys. Solids 56:1566) at one point.
template <int Dim>
void pmb_stress(PointRange range, std::span<const Vec<Dim>> position,
                std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                std::span<const double> weight, std::span<Mat3> stress);

}  // namespace tribo::pd
