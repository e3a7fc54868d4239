// APIC transfers (mpm/affine_transfer.hpp; Jiang et al. 2015): the grid-to-particle affine velocity
// recovers any affine grid field exactly, and the affine part's angular momentum and kinetic energy.
// A free spinning disk's conservation: tests/validation/mpm/spinning_disk_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tribo/mpm/affine_transfer.hpp"

namespace tribo::mpm {
namespace {

// Grid velocities v_I = v0 + A x_I: C_p = B_p D_p^-1 must be A, whatever the particle's place in
// its cell, and sum S v_I must be v0 + A x_p (linear reproduction). Round-off only: 1e-12.
template <int Dim, class Shape>
void recovers_affine_field(double half_width) {
  Grid<Dim> grid(Vec<Dim>::Zero(), Vec<Dim>::Constant(1.0), Vec<Dim>::Constant(0.1));
  Mat<Dim> A = Mat<Dim>::Zero();
  Vec<Dim> v0 = Vec<Dim>::Zero();
  for (int a = 0; a < Dim; ++a) {
    v0[a] = 0.3 - 0.2 * a;
    for (int b = 0; b < Dim; ++b) A(a, b) = 1.0 + 2.0 * a - 0.7 * b + 0.1 * a * b;
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> place(0.35, 0.65);
  for (int trial = 0; trial < 50; ++trial) {
    Vec<Dim> x;
    for (int a = 0; a < Dim; ++a) x[a] = place(rng);
    StencilFactors<Dim> f;
    ScatterStencil<Dim, Shape>::factors(grid, x, half_width, f);
    ScatterStencil<Dim, Shape> s;
    s.expand(grid, f);
    AffineStencil<Dim, Shape> a;
    a.compute(grid, x, f);
    Mat<Dim> B = Mat<Dim>::Zero();
    Vec<Dim> v = Vec<Dim>::Zero();
    for (int k = 0; k < s.size; ++k) {
      const Vec<Dim> xI = grid.node_position(s.node[k]);
      EXPECT_LT((a.node_offset(k) - (xI - x)).norm(), 1e-14);
      const Vec<Dim> vI = v0 + A * xI;
      B += s.weight[k] * vI * a.node_offset(k).transpose();
      v += s.weight[k] * vI;
    }
    const Mat<Dim> C = B * a.inverse_spread.asDiagonal();
    EXPECT_LT((C - A).norm(), 1e-12 * A.norm()) << "at " << x.transpose();
    EXPECT_LT((v - (v0 + A * x)).norm(), 1e-12);
  }
}

TEST(AffineTransfer, RecoversAnAffineGridFieldWithEveryShape) {
  recovers_affine_field<2, LinearShape>(0.25);
  recovers_affine_field<2, GimpShape>(0.25);
  recovers_affine_field<2, BSpline2Shape>(0.25);
  recovers_affine_field<3, GimpShape>(0.25);
  recovers_affine_field<3, BSpline2Shape>(0.125);
}

TEST(AffineTransfer, AngularMomentumOfARotationIsTheSpreadTimesTheRate) {
  // C = omega [[0, -1], [1, 0]]: each particle spins at omega with moment of inertia m (Dxx + Dyy).
  const double omega = 3.0, m = 2.0;
  Mat<2> C;
  C << 0.0, -omega, omega, 0.0;
  const Vec<2> D(0.01, 0.02);
  EXPECT_NEAR(affine_angular_momentum<2>(m, C, D).z(), m * omega * 0.03, 1e-15);
  EXPECT_NEAR(affine_kinetic_energy<2>(m, C, D), 0.5 * m * omega * omega * 0.03, 1e-15);
  // 3D, rotation about x: the spread across the axis (y, z) counts.
  Mat<3> C3 = Mat<3>::Zero();
  C3(1, 2) = -omega, C3(2, 1) = omega;
  const Vec3 L = affine_angular_momentum<3>(m, C3, Vec3(0.5, 0.01, 0.02));
  EXPECT_NEAR(L.x(), m * omega * 0.03, 1e-15);
  EXPECT_EQ(L.y(), 0.0);
  EXPECT_EQ(L.z(), 0.0);
}

}  // namespace
}  // namespace tribo::mpm
