#include "tribo/mpm/constitutive.hpp"

#include <cmath>

namespace tribo::mpm {

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
      const double zeta = 1.0 / std::cbrt(det);  // det scaling (Higham's cheap choice)
      const Mat3 next = 0.5 * (zeta * R + cof / (zeta * det));
      const double change = (next - R).cwiseAbs().maxCoeff();
      R = next;
      if (change < 1e-15) return R;
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

double corotational_linear_elastic(const Mat3& F, const ElasticConstants& c, bool plane, Mat3& stress) {
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
