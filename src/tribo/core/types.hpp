#pragma once
// Short aliases for Eigen fixed-size types; dimension is a template parameter throughout Tribo.
#include <Eigen/Dense>
#include <cstdint>

namespace tribo {

template <int Dim>
using Vec = Eigen::Matrix<double, Dim, 1>;
template <int Dim>
using Mat = Eigen::Matrix<double, Dim, Dim>;
template <int Dim>
using IVec = Eigen::Matrix<int, Dim, 1>;

using Vec2 = Vec<2>;
using Vec3 = Vec<3>;
using Mat2 = Mat<2>;
using Mat3 = Mat<3>;

// Embeds a Dim-vector in 3D (z = 0 in 2D); used for output and for dimension-free specs.
template <int Dim>
inline Vec3 to_vec3(const Vec<Dim>& v) {
  Vec3 out = Vec3::Zero();
  out.template head<Dim>() = v;
  return out;
}

template <int Dim>
inline Vec<Dim> from_vec3(const Vec3& v) {
  return v.template head<Dim>();
}

// Angular momentum of a point mass about the origin: the z component in 2D, a vector in 3D,
// always returned as a 3-vector so that histories have one shape.
template <int Dim>
inline Vec3 cross_moment(const Vec<Dim>& x, const Vec<Dim>& p) {
  return to_vec3<Dim>(x).cross(to_vec3<Dim>(p));
}

}  // namespace tribo
