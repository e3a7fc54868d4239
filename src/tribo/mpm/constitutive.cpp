#include "tribo/mpm/constitutive.hpp"

#include <cmath>

namespace tribo::mpm {

Mat3 polar_rotation(const Mat3& F, bool plane) {
  if (plane) {
    // R = [[cos, -sin], [sin, cos]] maximising tr(R^T F): tan(theta) = (F10 - F01) / (F00 + F11).
    const double theta = std::atan2(F(1, 0) - F(0, 1), F(0, 0) + F(1, 1));
    Mat3 R = Mat3::Identity();
    R(0, 0) = R(1, 1) = std::cos(theta);
    R(1, 0) = std::sin(theta);
    R(0, 1) = -R(1, 0);
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
  stress = R * local * R.transpose();
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
