#pragma once
// The smoothed contact surface of PD bodies (issue 12; docs/pd-friction.md, "Smoothed contact"):
// each point p sees the volume fraction of the other bodies' matter around it,
//   phi_p = sum_j (V_j / V_cell) w(|y_j - y_p| / R),
// with w the Wendland C2 kernel and R = radius x h, and stores the energy
//   E_p = (k_p h^2 / 2 G0^2) <phi_p - phi0>_+^2,
// k_p = stiffness c V_p^2 / delta (the point's normal contact spring, N/m, from its material).
// phi0 and G0 are calibrated once, on two flat lattices of spacing h one spacing apart (below).
namespace tribo::pd {

// Wendland C2 kernel (Wendland 1995, Adv. Comput. Math. 4:389), w(q) = (1 - q)^4 (1 + 4 q) for
// q < 1, else 0: C2, compact, positive definite in up to 3 dimensions.
inline double wendland(double q) {
  if (q >= 1.0) return 0.0;
  const double a = 1.0 - q;
  return a * a * a * a * (1.0 + 4.0 * q);
}
// dw/dq = -20 q (1 - q)^3 (<= 0).
inline double wendland_slope(double q) {
  if (q >= 1.0) return 0.0;
  const double a = 1.0 - q;
  return -20.0 * q * a * a * a;
}

// The calibration of the smoothed surface for a kernel support of `support` spacings: a point at
// height g (spacings) over a flat half lattice (square in 2D, cubic in 3D) at lateral offset s
// sees phi(g, s). phi0 = max_s phi(1, s): two flat lattices one spacing apart feel no force at
// any lateral offset (and rest there); G0 = -<d phi / d g>_s at g = 1 (per spacing), so that
// (phi - phi0) / G0 is the penetration in spacings. variation = max_s phi - min_s phi at g = 1,
// and washboard = max_s |d phi / d s| / G0 at g = 1: the largest tangential over normal force of
// the repulsion of a rigid lattice (the apparent friction of the surface's corrugation).
struct SurfaceCalibration {
  double phi0 = 0.0;
  double gradient = 0.0;  // G0
  double variation = 0.0;
  double washboard = 0.0;
};
template <int Dim>
SurfaceCalibration calibrate_smoothed_surface(double support);

}  // namespace tribo::pd
