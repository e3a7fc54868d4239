#pragma once
// Slip at the contact surface instead of at the node (issue 13; docs/mpm-contact.md, "Slip at the
// surface"). A node's velocity field is its particles: the node velocity p/m is their velocity at
// their mass centroid xbar, about a third of a cell inside the body at a surface node. A body that
// rolls moves at xbar by omega d, d the depth of xbar below the surface, so a no-slip condition
// imposed on the node velocity is imposed inside the body: the disk of the rolling validation stops
// slipping early and rolls O(h) slow.
//
// Per node field, from its particles (r_p = x_p - xbar, weights S m_p):
//   second moment    M = sum S m_p r_p r_p^T                 (kg m^2)
//   velocity moment  D = sum S m_p v_p r_p^T                 (kg m^2/s)
// The weighted least-squares velocity gradient of the field is L = D M^-1 (the fit v_p ~ v + L r_p),
// exact for a rigid motion, and the field's velocity at the surface point x_s = xbar + d n is
// v + L n d (below).
#include <vector>

#include "tribo/core/types.hpp"

namespace tribo::mpm {

template <int Dim>
struct NodeMoments {
  std::vector<Mat<Dim>> second;    // M about xbar (about the node while accumulating)
  std::vector<Mat<Dim>> velocity;  // D about xbar (about the node while accumulating)

  bool enabled() const { return !second.empty(); }
  void allocate(std::size_t entries) {
    second.assign(entries, Mat<Dim>::Zero());
    velocity.assign(entries, Mat<Dim>::Zero());
  }
  void clear() {
    const long n = static_cast<long>(second.size());
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      second[i].setZero();
      velocity[i].setZero();
    }
  }
  // One particle's terms with weight w = S, r = x_p - x_node (about the node, so that large
  // coordinates do not cancel).
  void add(long i, double w, double m, const Vec<Dim>& v, const Vec<Dim>& r) {
    const Vec<Dim> wmr = (w * m) * r;
    second[i] += wmr * r.transpose();
    velocity[i] += v * wmr.transpose();
  }
  // About the node -> about xbar: c = xbar - x_node, M -= m c c^T, D -= p c^T (p = sum S m v, the
  // momentum as extrapolated).
  void center(long i, double m, const Vec<Dim>& momentum, const Vec<Dim>& c) {
    second[i] -= (m * c) * c.transpose();
    velocity[i] -= momentum * c.transpose();
  }
};

// v(x_s) - v_node for a field with moments M, D, at the depth d = (x_s - xbar) . n along the unit
// normal n: L n d with the field's weighted least-squares velocity gradient L = D M^+ (the fit
// v_p ~ v + L r_p; exact for an affine velocity field, a rigid rotation included). M^+ keeps the
// directions in which the particles spread, eigenvalues above min_sigma (kg m^2): a node whose
// particles lie in one row along n resolves no gradient along n, and the offset is zero there.
template <int Dim>
Vec<Dim> surface_velocity_offset(const Mat<Dim>& second, const Mat<Dim>& velocity, const Vec<Dim>& n, double d,
                                 double min_sigma) {
  if (!(n.dot(second * n) > min_sigma)) return Vec<Dim>::Zero();
  Eigen::SelfAdjointEigenSolver<Mat<Dim>> eigen;
  eigen.computeDirect(second);
  const Vec<Dim> along = eigen.eigenvectors().transpose() * n;  // n in M's eigenbasis
  Vec<Dim> y = Vec<Dim>::Zero();                                // M^+ n
  for (int k = 0; k < Dim; ++k)
    if (eigen.eigenvalues()[k] > min_sigma) y += (along[k] / eigen.eigenvalues()[k]) * eigen.eigenvectors().col(k);
  return (velocity * y) * d;
}

}  // namespace tribo::mpm
