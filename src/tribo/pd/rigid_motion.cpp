#include "tribo/pd/rigid_motion.hpp"

#include <cmath>

namespace tribo::pd {

template <int Dim>
Mat<Dim> RigidMotion<Dim>::rotation(double t) const {
  if constexpr (Dim == 2) {
    const double a = angular_velocity.z() * t;
    Mat2 r;
    r << std::cos(a), -std::sin(a), std::sin(a), std::cos(a);
    return r;
  } else {
    const double rate = angular_velocity.norm();
    if (rate == 0.0) return Mat3::Identity();
    return Eigen::AngleAxisd(rate * t, angular_velocity / rate).toRotationMatrix();
  }
}

template <int Dim>
Vec<Dim> RigidMotion<Dim>::position(const Vec<Dim>& reference, double t) const {
  return centroid + velocity * t + rotation(t) * (reference - centroid);
}

template <int Dim>
Vec<Dim> RigidMotion<Dim>::point_velocity(const Vec<Dim>& position, double t) const {
  const Vec3 r = to_vec3<Dim>(Vec<Dim>(position - (centroid + velocity * t)));
  Vec3 w = angular_velocity;
  if constexpr (Dim == 2) w = Vec3(0.0, 0.0, angular_velocity.z());
  return velocity + from_vec3<Dim>(Vec3(w.cross(r)));
}

template struct RigidMotion<2>;
template struct RigidMotion<3>;

}  // namespace tribo::pd
