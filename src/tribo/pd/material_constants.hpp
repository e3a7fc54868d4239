#pragma once
// Peridynamic material constants from the deck's engineering constants (E, nu) and the horizon.
// 2D is a plane of thickness t under plane stress: the in-plane moduli are those of a thin sheet,
// so that a 2D bar pulled along its axis has Young's modulus E. Bond-based PMB fixes nu: 1/4 in
// 3D, 1/3 in 2D plane stress.
#include "tribo/core/material.hpp"

namespace tribo::pd {

// PMB micromodulus c: the pairwise force density per unit stretch, N/m^6.
// 3D: c = 18 K / (pi delta^4) (Silling & Askari 2005, Comput. Struct. 83:1526, the PMB material).
// 2D: c = 9 E / (pi t delta^3), plane stress with nu = 1/3 (Ha & Bobaru 2010, Int. J. Fract.
//     162:229; Bobaru et al. 2009, IJNME 77:852). Both follow from equating the PMB strain
//     energy density under an isotropic stretch s, W = (1/4) c s^2 int_H |xi| dV, to the classical
//     one: 9/2 K s^2 in 3D, E s^2 / (1 - nu) = 3/2 E s^2 in plane stress.
template <int Dim>
double pmb_micromodulus(const MaterialSpec& material, double horizon, double thickness);

// int_H |xi| dV over a full horizon: pi delta^4 in 3D, (2 pi / 3) t delta^3 in 2D. The PMB
// energy of an isotropic stretch is proportional to it; the surface correction compares each
// point's discrete sum against it.
template <int Dim>
double full_horizon_length_integral(double horizon, double thickness);

// LPS (Silling et al. 2007, J. Elast. 88:151; 2D: Le, Silling & Bobaru 2014, IJNME 98:547)
// with influence function omega = 1. Force scalar state of point i on bond xi:
//   t = (Dim kappa theta / m) |xi| + (shear_factor / m) e^d,   e^d = e - theta |xi| / Dim,
// kappa the bulk modulus (3D: K; 2D plane stress: E / (2 (1 - nu))) and shear_factor 15 G in
// 3D, 8 G in 2D (the deviatoric energy (shear_factor / 2m) int e^d^2 dV matches G eps^d:eps^d).
template <int Dim>
double lps_bulk_modulus(const MaterialSpec& material);
template <int Dim>
double lps_shear_factor(const MaterialSpec& material);

// P-wave (constrained) modulus of the Dim-dimensional material: kappa + 2 G (1 - 1/Dim).
template <int Dim>
double p_wave_modulus(const MaterialSpec& material);

// The PMB micromodulus that has the same P-wave modulus: 3D 10 M / (pi delta^4), 2D
// 8 M / (pi t delta^3) (both reduce to pmb_micromodulus for PMB's Poisson ratio). Used by the
// stable time step of LPS, as Peridigm does with 18 K / (pi delta^4).
template <int Dim>
double equivalent_micromodulus(const MaterialSpec& material, double horizon, double thickness);

// The Poisson ratio PMB requires in Dim dimensions.
template <int Dim>
constexpr double pmb_poisson_ratio() {
  return Dim == 3 ? 0.25 : 1.0 / 3.0;
}

}  // namespace tribo::pd
