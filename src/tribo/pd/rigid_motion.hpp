#pragma once
// Rigid PD bodies: points without bonds that follow the body's initial rigid motion exactly,
// x(t) = c0 + v t + R(omega t) (X - c0), v(t) = v + omega x (x - c(t)), with v and omega the
// body's initial velocity and angular velocity (constant: nothing acts on a rigid body).
#include "tribo/core/types.hpp"

namespace tribo::pd {

template <int Dim>
struct RigidMotion {
  Vec<Dim> centroid = Vec<Dim>::Zero();  // c0, m
  Vec<Dim> velocity = Vec<Dim>::Zero();  // m/s
  Vec3 angular_velocity = Vec3::Zero();  // rad/s (2D: z only)

  // Rotation R(omega t): about z by omega_z t in 2D; Rodrigues' formula about omega in 3D.
  Mat<Dim> rotation(double t) const;
  Vec<Dim> position(const Vec<Dim>& reference, double t) const;
  // The same x(t) from R(omega t) taken once for all the body's points (`rotation`): a sine and a
  // cosine per point and step were 6% of a PD run with a rigid floor (issue 17). Bit for bit the
  // value of position().
  Vec<Dim> position(const Vec<Dim>& reference, double t, const Mat<Dim>& rotation_at_t) const {
    return centroid + velocity * t + rotation_at_t * (reference - centroid);
  }
  Vec<Dim> point_velocity(const Vec<Dim>& position, double t) const;
};

}  // namespace tribo::pd
