#pragma once
// Ordinary state-based linear peridynamic solid (LPS; Silling et al. 2007, J. Elast. 88:151;
// 2D plane form from Le, Silling & Bobaru 2014, IJNME 98:547), influence function omega = 1.
// With e = |Y| - |xi| the extension and beta V_j the bond's quadrature weight (0 = broken):
//   weighted volume  m_i     = sum_j |xi|^2 beta V_j            (reference, all bonds)
//   dilatation       theta_i = (Dim / m_i) sum_j |xi| e beta V_j
//   force scalar     t_ij    = (Dim kappa theta_i / m_i) |xi| + alpha_i (e - theta_i |xi| / Dim)
//                            = A_i |xi| + alpha_i e,   alpha_i = shear_factor / m_i
//   force on i       F_i     = V_i sum_j (t_ij + t_ji) beta V_j Y / |Y|
//   energy density   W_i     = kappa theta_i^2 / 2 + (alpha_i / 2) sum_j (e^d)^2 beta V_j
// Two owner-computes passes: dilatation (which also breaks bonds), then forces.
#include <span>

#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {

// m_i over all bonds of the reference family; LPS keeps it fixed when bonds break (as LAMMPS).
void lps_weighted_volume(PointRange range, const BondFamilies& bonds,
                         std::span<const double> weight, std::span<double> weighted_volume);

// theta_i; bonds stretched beyond stretch_limit = 1 + s_c are broken first.
template <int Dim>
void lps_dilatation(PointRange range, double stretch_limit, std::span<const Vec<Dim>> position,
                    const BondFamilies& bonds, std::span<const double> weighted_volume,
                    std::span<double> weight, std::span<double> broken_volume,
                    std::span<double> dilatation);

// A_i and alpha_i of the force scalar t_ij = A_i |xi| + alpha_i e.
template <int Dim>
void lps_force_coefficients(PointRange range, double bulk_modulus, double shear_factor,
                            std::span<const double> weighted_volume,
                            std::span<const double> dilatation, std::span<double> coefficient,
                            std::span<double> alpha);

template <int Dim>
void add_lps_forces(PointRange range, std::span<const Vec<Dim>> position,
                    std::span<const double> volume, const BondFamilies& bonds,
                    std::span<const double> weight, std::span<const double> coefficient,
                    std::span<const double> alpha, std::span<Vec<Dim>> force);

// W_i V_i (J), from the current dilatation.
template <int Dim>
void lps_point_energy(PointRange range, double bulk_modulus, std::span<const Vec<Dim>> position,
                      std::span<const double> volume, const BondFamilies& bonds,
                      std::span<const double> weight, std::span<const double> dilatation,
                      std::span<const double> alpha, std::span<double> energy);

// sigma_i = (1/2) sum_j (t_ij + t_ji) beta V_j (Y/|Y|) (x) xi, symmetrised (Pa).
template <int Dim>
void lps_stress(PointRange range, std::span<const Vec<Dim>> position,
                std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                std::span<const double> weight, std::span<const double> coefficient,
                std::span<const double> alpha, std::span<Mat3> stress);

}  // namespace tribo::pd
