// The objective model's two halves (objective_friction.hpp): the nonlocal velocity field that
// reproduces any linear velocity field exactly (so a rigid motion gives no slip), and the spreading
// of a force applied at a point x of the body with the resultant F and the moment x x F.
#include "tribo/pd/objective_friction.hpp"

#include <gtest/gtest.h>

#include <random>

namespace tribo::pd {
namespace {

// A 5 x 5 x 3 patch of lattice points, point 0 bonded to every other (a family).
struct Patch {
  std::vector<Vec3> y, v;
  std::vector<double> mass, weight;
  BondFamilies bonds;
};

Patch patch(const Mat3& gradient, const Vec3& translation) {
  Patch p;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  p.y.push_back(Vec3::Zero());
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      for (int k = -1; k <= 1; ++k)
        if (i || j || k) p.y.push_back(Vec3(i + jitter(rng), j + jitter(rng), k + jitter(rng)));
  const int n = static_cast<int>(p.y.size());
  for (const Vec3& y : p.y) p.v.push_back(translation + gradient * y);
  p.mass.assign(n, 2.0);
  p.bonds.offset.assign(n + 1, n - 1);
  p.bonds.offset[0] = 0;
  // Unequal quadrature weights beta V_q: unequal volumes, all inside the horizon (beta = 1).
  p.bonds.horizon = 10.0;
  p.bonds.spacing = 1.0;
  p.bonds.point_volume.push_back(1.0);
  for (int q = 1; q < n; ++q) {
    p.bonds.neighbor.push_back(q);
    p.bonds.reference_length.push_back(p.y[q].norm());
    p.bonds.point_volume.push_back(0.5 + 0.01 * q);
  }
  p.weight.assign(n - 1, 1.0);
  return p;
}

// Point 0 of the patch as the model's only contact point, its fields computed with forces f and
// dt = 1 ms; returns its slot.
int fit_point_zero(ObjectiveFriction<3>& model, const Patch& p, const std::vector<Vec3>& f) {
  model.begin(static_cast<int>(p.y.size()));
  const int s = model.slot(0);
  model.compute_velocity_fields(p.y, p.v, f, p.mass, 1e-3, p.bonds, p.weight);
  return s;
}

TEST(ObjectiveFriction, ExtrapolatesALinearVelocityFieldExactly) {
  // v = c + L y: a rigid rotation (L skew) and a stretch; the nonlocal gradient recovers L
  // (its quadrature is exact for linear fields), so v at any x is c + L x to round-off.
  Mat3 L;
  L << 0.0, -3.0, 2.0, 3.0, 0.0, -1.0, -2.0, 1.0, 0.5;
  Patch p = patch(L, Vec3(1.0, -2.0, 0.5));
  ObjectiveFriction<3> model;
  const int s = fit_point_zero(model, p, std::vector<Vec3>(p.y.size(), Vec3::Zero()));
  ASSERT_TRUE(model.has_field(s));
  const Vec3 x(0.3, 0.6, -0.45);
  const Vec3 expected = Vec3(1.0, -2.0, 0.5) + L * x;
  EXPECT_NEAR((model.velocity_at(s, x, p.y, p.v) - expected).norm(), 0.0, 1e-12);
  // With no other force the trial field (v + dt f / m) is the same field.
  EXPECT_NEAR((model.trial_velocity_at(s, x, p.y) - expected).norm(), 0.0, 1e-12);
}

TEST(ObjectiveFriction, TheTrialFieldAddsTheOtherForcesImpulse) {
  // A uniform force density f/m = a on every point: v~ = v + dt a everywhere, at any x.
  Patch p = patch(Mat3::Zero(), Vec3::Zero());
  const Vec3 a(0.0, -9.81, 2.0);
  std::vector<Vec3> f;
  for (double m : p.mass) f.push_back(m * a);
  ObjectiveFriction<3> model;
  const int s = fit_point_zero(model, p, f);
  EXPECT_NEAR((model.trial_velocity_at(s, Vec3(0.4, -0.2, 0.5), p.y) - 1e-3 * a).norm(), 0.0,
              1e-15);
}

TEST(ObjectiveFriction, SpreadsAForceWithItsResultantAndItsMomentAboutTheApplicationPoint) {
  Patch p = patch(Mat3::Zero(), Vec3::Zero());
  ObjectiveFriction<3> model;
  const int s = fit_point_zero(model, p, std::vector<Vec3>(p.y.size(), Vec3::Zero()));
  const Vec3 F1(0.2, -1.0, 0.3), x1(0.4, 0.1, -0.5), F2(-0.5, 0.1, 0.0), x2(-0.2, 0.45, 0.1);
  model.apply(s, F1, x1, p.y);
  model.apply(s, F2, x2, p.y);
  std::vector<Vec3> f(p.y.size(), Vec3::Zero());
  model.distribute(p.y, p.bonds, p.weight, f);
  Vec3 resultant = Vec3::Zero(), moment = Vec3::Zero();
  for (std::size_t q = 0; q < f.size(); ++q) {
    resultant += f[q];
    moment += p.y[q].cross(f[q]);
  }
  // Linear and angular momentum: exactly F1 + F2 and x1 x F1 + x2 x F2 (round-off).
  EXPECT_NEAR((resultant - (F1 + F2)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((moment - (x1.cross(F1) + x2.cross(F2))).norm(), 0.0, 1e-14);
  // The spread is the transpose of the extrapolation: f . v summed equals F . v(x) for any v.
  Mat3 L;
  L << 0.1, 0.7, -0.3, 0.2, -0.4, 0.9, 0.0, 0.3, 0.6;
  Patch moving = patch(L, Vec3(0.5, 0.0, -1.0));
  double power = 0.0;
  for (std::size_t q = 0; q < f.size(); ++q) power += f[q].dot(moving.v[q]);
  const Vec3 c(0.5, 0.0, -1.0);
  EXPECT_NEAR(power, F1.dot(c + L * x1) + F2.dot(c + L * x2), 1e-12);
  // Effective mass at x: positive, and the point's own mass when x is the point itself.
  EXPECT_GT(model.inverse_mass_at(s, x1, p.y, p.mass), 0.0);
  EXPECT_NEAR(model.inverse_mass_at(s, p.y[0], p.y, p.mass), 0.5, 1e-14);
}

TEST(ObjectiveFriction, TheEffectiveMassIsTheSumOfTheSquaredSpreadWeightsOverTheMasses) {
  // 1/m_eff(x) = sum_q phi_q^2 / m_q with the spread weights of the header, phi_q = w_q dy_q^T
  // K^-1 (x - y_p) and phi_p = 1 - sum phi_q, summed here bond by bond against the model's O(1)
  // form. Unequal masses and one broken bond, so that neither drops out. Tolerance: the two forms
  // differ by the order of summation only; 1e-12 relative is a few hundred ulps.
  Patch p = patch(Mat3::Zero(), Vec3::Zero());
  for (std::size_t q = 0; q < p.mass.size(); ++q) p.mass[q] = 1.0 + 0.05 * static_cast<double>(q);
  p.weight[7] = 0.0;
  ObjectiveFriction<3> model;
  const int s = fit_point_zero(model, p, std::vector<Vec3>(p.y.size(), Vec3::Zero()));
  ASSERT_TRUE(model.has_field(s));
  Mat3 K = Mat3::Zero();
  for (std::int64_t b = p.bonds.begin(0); b < p.bonds.end(0); ++b) {
    if (p.weight[b] == 0.0) continue;
    const Vec3 dy = p.y[p.bonds.neighbor[b]] - p.y[0];
    K += p.bonds.neighbor_volume(b) * dy * dy.transpose();
  }
  for (const Vec3& x : {Vec3(0.4, 0.1, -0.5), Vec3(-1.3, 0.7, 0.2), Vec3(0.05, -0.02, 0.9)}) {
    const Vec3 k = K.inverse() * (x - p.y[0]);
    double sum = 0.0, others = 0.0;
    for (std::int64_t b = p.bonds.begin(0); b < p.bonds.end(0); ++b) {
      if (p.weight[b] == 0.0) continue;
      const int q = p.bonds.neighbor[b];
      const double phi = p.bonds.neighbor_volume(b) * (p.y[q] - p.y[0]).dot(k);
      others += phi;
      sum += phi * phi / p.mass[q];
    }
    const double expected = sum + (1.0 - others) * (1.0 - others) / p.mass[0];
    EXPECT_NEAR(model.inverse_mass_at(s, x, p.y, p.mass), expected, 1e-12 * expected);
  }
}

TEST(ObjectiveFriction, APointWhoseIntactBondsSpanOnlyALineGetsNoVelocityField) {
  Patch p = patch(Mat3::Zero(), Vec3::Zero());
  // Break every bond but those along x through the origin (none of them is exactly on the axis
  // with the jitter, so keep the two nearest to it and a third nearly parallel).
  for (std::size_t b = 0; b < p.weight.size(); ++b) p.weight[b] = 0.0;
  p.y[1] = Vec3(-2, 0, 0);
  p.y[2] = Vec3(-1, 0, 0);
  p.weight[0] = p.weight[1] = 1.0;
  ObjectiveFriction<3> model;
  const int s = fit_point_zero(model, p, std::vector<Vec3>(p.y.size(), Vec3::Zero()));
  EXPECT_FALSE(model.has_field(s));
}

}  // namespace
}  // namespace tribo::pd
