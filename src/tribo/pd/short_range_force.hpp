#pragma once
// The short-range repulsion between PD points in contact (seed document 002, eq. 2/3; Kamensky et
// al. 2019; LAMMPS PERI and EMU): for points p, i with Y = y_i - y_p, M = Y/|Y|, the force on p is
//   f_p = M min{0, (c_s/delta)(|Y| - d)} V_p V_i = -N M,   N = (c_s/delta)(d - |Y|) V_p V_i >= 0
// (a force density per unit volume of p and of i, hence the two volumes), d the contact radius and
// c_s = k c the deck's stiffness k times the bond micromodulus c. LAMMPS uses c_s = 15 * 18K/(pi
// delta^4) (the PMB c of 3D) and d = 0.9 |x_p - x_i| up to 1.35 (r_p + r_i); Peridigm ~0.8-0.9 h
// and ~15 c. The deck's defaults are d = 0.9 h and k = 15. The force is central, so it conserves
// linear and angular momentum, and derives from the energy (c_s/2delta)(d - |Y|)^2 V_p V_i.
#include "tribo/core/material.hpp"

namespace tribo::pd {

// The bond micromodulus c of a deformable PD material (N/m^6): PMB's own; LPS' PMB equivalent of
// the same P-wave modulus (material_constants.hpp); 0 for rigid.
template <int Dim>
double contact_micromodulus(const MaterialSpec& material, double horizon, double thickness);

// The micromodulus of a pair of bodies: the harmonic mean 2 c_a c_b / (c_a + c_b) of two
// deformable ones (the two halves of the contact layer in series; equal materials keep c), the
// deformable one's c against a rigid body (0 = rigid), 0 for two rigid bodies.
double pair_micromodulus(double c_a, double c_b);

// N (N, >= 0) for a pair at distance r, with k = c_s / delta (N/m^7) and volumes v_p, v_i (m^3).
inline double short_range_normal_force(double stiffness_over_horizon, double v_p, double v_i,
                                       double radius, double r) {
  return r < radius ? stiffness_over_horizon * (radius - r) * v_p * v_i : 0.0;
}

// Its potential energy (J): (k/2)(d - r)^2 V_p V_i inside the radius.
inline double short_range_energy(double stiffness_over_horizon, double v_p, double v_i,
                                 double radius, double r) {
  const double gap = radius - r;
  return r < radius ? 0.5 * stiffness_over_horizon * gap * gap * v_p * v_i : 0.0;
}

}  // namespace tribo::pd
