// Slip at the surface (issue 13): the node field's velocity at the surface point from its
// particles' moments, and the Coulomb law on that slip. References: affine velocity fields (the fit
// must reproduce them exactly), rigid rolling (no slip at the contact line), momentum balance.
#include "tribo/mpm/contact_moments.hpp"

#include <gtest/gtest.h>

#include <random>

#include "tribo/mpm/contact_pair.hpp"

namespace tribo::mpm {
namespace {

// Particles around a node at x_node with shape-function-like weights, moving with the affine field
// v(x) = v0 + A (x - x0): accumulate, centre, and return the offset to x_s = xbar + d n.
template <int Dim>
Vec<Dim> offset_of_affine_field(const Mat<Dim>& A, const Vec<Dim>& n, double d, std::mt19937& rng,
                                Vec<Dim>* xbar_out = nullptr) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), w(0.05, 1.0);
  NodeMoments<Dim> moments;
  moments.allocate(1);
  const Vec<Dim> x_node = Vec<Dim>::Constant(0.3), x0 = Vec<Dim>::Constant(0.1), v0 = Vec<Dim>::Constant(2.0);
  double mass = 0.0;
  Vec<Dim> momentum = Vec<Dim>::Zero(), mass_position = Vec<Dim>::Zero();
  for (int p = 0; p < 12; ++p) {
    Vec<Dim> x;
    for (int k = 0; k < Dim; ++k) x[k] = x_node[k] + 0.01 * u(rng);  // within a cell of 0.01
    const Vec<Dim> v = v0 + A * (x - x0);
    const double weight = w(rng), m = 1e-3;
    moments.add(0, weight, m, v, Vec<Dim>(x - x_node));
    mass += weight * m;
    momentum += weight * m * v;
    mass_position += weight * m * x;
  }
  const Vec<Dim> xbar = mass_position / mass;
  if (xbar_out) *xbar_out = xbar;
  moments.center(0, mass, momentum, Vec<Dim>(xbar - x_node));
  return surface_velocity_offset<Dim>(moments.second[0], moments.velocity[0], n, d, 1e-6 * mass * 1e-4);
}

TEST(SurfaceVelocity, AnAffineFieldIsReproducedExactlyIn2D) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::normal_distribution<double> g(0.0, 50.0);
    Mat2 A;
    A << g(rng), g(rng), g(rng), g(rng);
    const Vec2 n = Vec2(g(rng), g(rng)).normalized();
    const double d = 0.004;
    // v(xbar + d n) - v(xbar) = A n d for every affine field (round-off relative to |A| d).
    EXPECT_LT((offset_of_affine_field<2>(A, n, d, rng) - A * n * d).norm(), 1e-10 * A.norm() * d);
  }
}

TEST(SurfaceVelocity, AnAffineFieldIsReproducedExactlyIn3D) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    std::normal_distribution<double> g(0.0, 50.0);
    Mat3 A = Mat3::Zero();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A(i, j) = g(rng);
    const Vec3 n = Vec3(g(rng), g(rng), g(rng)).normalized();
    EXPECT_LT((offset_of_affine_field<3>(A, n, 0.004, rng) - A * n * 0.004).norm(), 1e-10 * A.norm() * 0.004);
  }
}

TEST(SurfaceVelocity, ARigidRotationGivesOmegaCrossTheLever) {
  // A disk spinning at omega (counter-clockwise) about any centre: A = omega [[0, -1], [1, 0]];
  // at the lever d along n = -y the surface point moves by omega z x (-d y) = (omega d, 0).
  std::mt19937 rng(3);
  const double omega = 26.7, d = 0.0019;
  Mat2 A;
  A << 0.0, -omega, omega, 0.0;
  const Vec2 offset = offset_of_affine_field<2>(A, Vec2(0.0, -1.0), d, rng);
  EXPECT_NEAR(offset.x(), omega * d, 1e-12);
  EXPECT_NEAR(offset.y(), 0.0, 1e-12);
}

TEST(SurfaceVelocity, ParticlesInOneRowAlongTheNormalGiveNoOffset) {
  // All particles at one height: no spread along n = y, no gradient to extrapolate with.
  NodeMoments<2> moments;
  moments.allocate(1);
  for (int p = 0; p < 4; ++p) moments.add(0, 0.5, 1e-3, Vec2(1.0 + p, 0.0), Vec2(-0.004 + 0.0025 * p, 0.002));
  moments.center(0, 2e-3, Vec2(5e-3, 0.0), Vec2(-0.00025, 0.002));
  EXPECT_EQ(surface_velocity_offset<2>(moments.second[0], moments.velocity[0], Vec2(0, 1), 0.002, 1e-12),
            Vec2::Zero());
}

ContactLawSpec coulomb(double mu) {
  ContactLawSpec l;
  l.law = ContactLaw::Coulomb;
  l.friction = mu;
  return l;
}

// A disk's field (a, 2 kg) on a rigid floor (b) at rest, n = -y (out of a toward b), pressing down
// at 0.1 m/s. At the node (its particles' centroid, a lever d above the contact line) it moves
// forward at 0.3 m/s.
struct RollingNode {
  ContactField<2> a, b;
  Vec2 n{0.0, -1.0};
  RollingNode() {
    a.mass = 2.0;
    a.momentum = 2.0 * Vec2(0.3, -0.1);
    a.volume = 0.5;
    a.displacement = Vec2(0.0, -1e-3);
    b.mass = 1.0;
    b.volume = 0.5;
    b.rigid = true;
  }
  PairContactResult<2> resolve(const Vec2* offset) const {
    MpmContactSpec detection;
    return resolve_contact_pair<2>(a, b, n, coulomb(0.2), detection, NodeContext<2>{Vec2(0.01, 0.01), 1e-4, 1e-5},
                                   ContactStage::AfterExtrapolation, std::nullopt, offset);
  }
};

TEST(SurfaceSlip, ABodyThatRollsAtTheSurfaceFeelsNoFriction) {
  // Rolling without slip: a's surface point moves by -0.3 m/s relative to its node (omega d), so
  // the surfaces move together; the node slip is 0.3 m/s, which node slip would brake at mu N.
  const RollingNode node;
  const Vec2 offset(0.3, 0.0);  // (b's offset) - (a's offset), b rigid: -(-0.3, 0)
  const PairContactResult<2> at_surface = node.resolve(&offset);
  ASSERT_TRUE(at_surface.in_contact);
  EXPECT_TRUE(at_surface.sticking);
  // Only the normal approach is stopped: dp = (0, 0.2) (m v_n = 2 * 0.1, up), no tangential part.
  EXPECT_NEAR(at_surface.momentum_change_a.x(), 0.0, 1e-15);
  EXPECT_NEAR(at_surface.momentum_change_a.y(), 0.2, 1e-15);
  EXPECT_EQ(at_surface.momentum_change_b, Vec2::Zero());  // rigid
  const PairContactResult<2> at_node = node.resolve(nullptr);
  EXPECT_FALSE(at_node.sticking);
  EXPECT_NEAR(at_node.momentum_change_a.x(), -0.2 * 0.2, 1e-15);  // -mu N dt, N dt = 0.2
}

TEST(SurfaceSlip, SlidesAlongTheSurfaceSlipAndBooksTheNodesEnergyLoss) {
  // Surface slip larger than the node's (a spins backward): the surfaces slide at 0.9 m/s, the
  // friction mu N dt = 0.04 brakes a along -x; the work is the node's kinetic energy loss
  // S (2 s.t - S) / (2 m_red) with s.t = 2 * 0.3 = 0.6 (not the surface slip).
  const RollingNode node;
  const Vec2 offset(-0.6, 0.0);
  const PairContactResult<2> r = node.resolve(&offset);
  ASSERT_TRUE(r.in_contact);
  EXPECT_FALSE(r.sticking);
  EXPECT_NEAR(r.momentum_change_a.x(), -0.04, 1e-15);
  const double loss = (0.6 * 0.6 - (0.6 - 0.04) * (0.6 - 0.04)) / (2.0 * 2.0);
  EXPECT_NEAR(r.frictional_work, loss, 1e-15);
}

TEST(SurfaceSlip, TwoDeformableFieldsExchangeEqualAndOppositeImpulses) {
  ContactField<2> a, b;
  a.mass = 2.0;
  a.momentum = Vec2(1.0, 0.3);
  a.volume = 0.5;
  b.mass = 1.5;
  b.momentum = Vec2(-1.2, 0.4);
  b.volume = 0.5;
  a.displacement = Vec2(1e-3, 0.0);
  MpmContactSpec detection;
  const Vec2 offset(0.0, 0.7);
  const PairContactResult<2> r =
      resolve_contact_pair<2>(a, b, Vec2(1, 0), coulomb(0.3), detection, NodeContext<2>{Vec2(0.01, 0.01), 1e-4, 1e-5},
                              ContactStage::AfterExtrapolation, std::nullopt, &offset);
  ASSERT_TRUE(r.in_contact);
  EXPECT_EQ(r.momentum_change_a + r.momentum_change_b, Vec2::Zero());  // bit for bit
}

}  // namespace
}  // namespace tribo::mpm
