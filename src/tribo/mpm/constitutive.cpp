#include "tribo/mpm/constitutive.hpp"

#include <cmath>

namespace tribo::mpm {

namespace {

// det^(1/3) for the iteration's scaling. Any positive zeta leaves the fixed point (the polar
// factor) where it is and only speeds the first iterations up, so near det = 1, where every
// iterate of a small-strain F lies, the tangent (det + 2) / 3 and one Newton step on x^3 = det
// do (relative error about 1.5e-6 for |det - 1| = 0.1, 2e-3 near the switch at 0.5, 1e-17 once
// det is within 1e-8 of 1);
// std::cbrt (with its frexp/scalbn calls, ~8% of a 3D step) only far from it.
double scaling_cube_root(double det) {
  if (!(std::abs(det - 1.0) < 0.5)) return std::cbrt(det);
  const double x = (det + 2.0) / 3.0;
  return (2.0 * x + det / (x * x)) / 3.0;
}

}  // namespace

Mat3 polar_rotation(const Mat3& F, bool plane) {
  if (plane) {
    // R = [[c, -s], [s, c]] maximising tr(R^T F): (c, s) ~ (F00 + F11, F10 - F01), no trigonometry.
    const double a = F(0, 0) + F(1, 1), b = F(1, 0) - F(0, 1);
    const double r = std::hypot(a, b);
    Mat3 R = Mat3::Identity();
    if (r > 0.0) {
      R(0, 0) = R(1, 1) = a / r;
      R(1, 0) = b / r;
      R(0, 1) = -R(1, 0);
    }
    return R;
  }
  // Scaled Newton iteration R <- (zeta R + R^-T / zeta) / 2 (Higham 1986, Computing the polar
  // decomposition, SIAM J. Sci. Stat. Comput. 7:1160), quadratically convergent from R = F; the
  // SVD only where F is singular or reflected.
  const double det0 = F.determinant();
  if (det0 > 0.0) {
    Mat3 R = F;
    double det = det0;
    for (int k = 0; k < 20; ++k) {
      Mat3 cof;  // cofactor matrix: R^-T = cof / det
      cof(0, 0) = R(1, 1) * R(2, 2) - R(1, 2) * R(2, 1);
      cof(0, 1) = R(1, 2) * R(2, 0) - R(1, 0) * R(2, 2);
      cof(0, 2) = R(1, 0) * R(2, 1) - R(1, 1) * R(2, 0);
      cof(1, 0) = R(0, 2) * R(2, 1) - R(0, 1) * R(2, 2);
      cof(1, 1) = R(0, 0) * R(2, 2) - R(0, 2) * R(2, 0);
      cof(1, 2) = R(0, 1) * R(2, 0) - R(0, 0) * R(2, 1);
      cof(2, 0) = R(0, 1) * R(1, 2) - R(0, 2) * R(1, 1);
      cof(2, 1) = R(0, 2) * R(1, 0) - R(0, 0) * R(1, 2);
      cof(2, 2) = R(0, 0) * R(1, 1) - R(0, 1) * R(1, 0);
      const double zeta = 1.0 / scaling_cube_root(det);  // det scaling (Higham's cheap choice)
      const Mat3 next = 0.5 * (zeta * R + cof / (zeta * det));
      const double change = (next - R).cwiseAbs().maxCoeff();
      R = next;
      // The iteration converges quadratically near Q: |R_k+1 - Q| <= |R_k^-1| |R_k - Q|^2 / 2
      // (Higham, Functions of Matrices, 2008, Thm 8.12), |R_k^-1| ~ 1 here and |R_k - Q| ~ change.
      // A change below 1e-9 leaves the new iterate within ~1e-18 of Q, below round-off: the
      // confirming iteration a 1e-15 criterion took (a quarter of the cost) gains nothing.
      if (change < 1e-9) return R;
      det = R.determinant();
    }
    return R;
  }
  Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU();
  const Mat3 V = svd.matrixV();
  if ((U * V.transpose()).determinant() < 0.0) U.col(2) *= -1.0;
  return U * V.transpose();
}

namespace {

// The plane-strain case of corotational_linear_elastic written out on the in-plane 2x2 block and
// the zz entry (F = [[F00 F01 0] [F10 F11 0] [0 0 F22]]): the same formulas as the 3x3 path
// below, without its products of zeros. It is about a fifth of a 2D MPM step, so the 3x3
// Eigen products and std::hypot (which guards an overflow that F ~ 1 cannot reach) cost (issue 17).
double corotational_plane_strain(const Mat3& F, const ElasticConstants& c, Mat3& stress) {
  const double a = F(0, 0) + F(1, 1), b = F(1, 0) - F(0, 1);
  const double r = std::sqrt(a * a + b * b);
  const double cs = r > 0.0 ? a / r : 1.0, sn = r > 0.0 ? b / r : 0.0;  // R = [[cs -sn] [sn cs]]
  // U = sym(R^T F), eps = U - I.
  const double s00 = cs * F(0, 0) + sn * F(1, 0), s01 = cs * F(0, 1) + sn * F(1, 1);
  const double s10 = cs * F(1, 0) - sn * F(0, 0), s11 = cs * F(1, 1) - sn * F(0, 1);
  const double u00 = s00, u11 = s11, u01 = 0.5 * (s01 + s10), u22 = F(2, 2);
  const double e00 = u00 - 1.0, e11 = u11 - 1.0, e22 = u22 - 1.0;
  const double volumetric = c.lambda * (e00 + e11 + e22);
  const double t00 = volumetric + 2.0 * c.mu * e00, t11 = volumetric + 2.0 * c.mu * e11;
  const double t22 = volumetric + 2.0 * c.mu * e22, t01 = 2.0 * c.mu * u01;
  // Y = sym(T U), then sigma = R Y R^T / J.
  const double y00 = t00 * u00 + t01 * u01, y11 = t01 * u01 + t11 * u11;
  const double y01 = 0.5 * ((t00 * u01 + t01 * u11) + (t01 * u00 + t11 * u01));
  const double ry00 = cs * y00 - sn * y01, ry01 = cs * y01 - sn * y11;
  const double ry10 = sn * y00 + cs * y01, ry11 = sn * y01 + cs * y11;
  const double inverse_j = 1.0 / ((F(0, 0) * F(1, 1) - F(0, 1) * F(1, 0)) * F(2, 2));
  stress.setZero();
  stress(0, 0) = (ry00 * cs - ry01 * sn) * inverse_j;
  stress(1, 1) = (ry10 * sn + ry11 * cs) * inverse_j;
  stress(0, 1) = stress(1, 0) = (ry00 * sn + ry01 * cs) * inverse_j;
  stress(2, 2) = t22 * u22 * inverse_j;
  return 0.5 * (t00 * e00 + t11 * e11 + t22 * e22 + 2.0 * t01 * u01);
}

}  // namespace

double corotational_linear_elastic(const Mat3& F, const ElasticConstants& c, bool plane, Mat3& stress) {
  if (plane) return corotational_plane_strain(F, c, stress);
  const Mat3 R = polar_rotation(F, plane);
  const Mat3 stretch = R.transpose() * F;
  const Mat3 eps = 0.5 * (stretch + stretch.transpose()) - Mat3::Identity();
  const Mat3 local = c.lambda * eps.trace() * Mat3::Identity() + 2.0 * c.mu * eps;
  // The energy psi(U) = T : eps / 2 has the Biot stress T = d psi / dU; the Cauchy stress conjugate
  // to it is sigma = (1/J) (d psi / dF) F^T = R T U R^T / J (T is a polynomial in U, so T U is
  // symmetric). R T R^T alone differs by O(strain) in a multiaxial state, so the stress power
  // J sigma : L was not the rate of the reported psi (issue 13: the oblique disks' -1.9% transient).
  const Mat3 U = 0.5 * (stretch + stretch.transpose());
  const Mat3 TU = local * U;
  stress = R * (0.5 * (TU + TU.transpose())) * R.transpose() / F.determinant();
  return 0.5 * (local.array() * eps.array()).sum();
}

double neo_hookean(const Mat3& F, const ElasticConstants& c, Mat3& stress) {
  const double J = F.determinant();
  const double lnJ = std::log(J);
  const Mat3 B = F * F.transpose();
  stress = (c.mu / J) * (B - Mat3::Identity()) + (c.lambda * lnJ / J) * Mat3::Identity();
  return 0.5 * c.mu * (B.trace() - 3.0) - c.mu * lnJ + 0.5 * c.lambda * lnJ * lnJ;
}

double dilatational_wave_speed(const MaterialSpec& m) {
  if (m.rigid() || m.density <= 0.0) return 0.0;
  return std::sqrt((m.lame_lambda() + 2.0 * m.shear_modulus()) / m.density);
}

}  // namespace tribo::mpm
