// The pairwise friction laws of the seed (friction_models.hpp) and the force form of the shared
// Coulomb law (contact/regularized_friction.hpp), one pair at a time.
#include "tribo/pd/friction_models.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tribo::pd {
namespace {

FrictionLaw law(double mu, double mu_s, double v_reg, double adhesion = 0.0) {
  FrictionLaw l;
  l.coulomb = contact::CoulombFriction::from_coefficients(mu, mu_s, adhesion);
  l.regularization_velocity = v_reg;
  return l;
}
constexpr double huge_stick_rate = 1e30;  // the stick force never caps

TEST(StepFrictionForce, RampsToTheStaticLimitThenSettlesAtTheKineticOne) {
  // Seed eq. 6 with static above kinetic: (mu_s N)|v|/v_reg up to v_reg, mu_k N from 2 v_reg.
  const auto c = contact::CoulombFriction::from_coefficients(0.3, 0.5, 0.0);
  const double N = 10.0, v = 1e-3;
  EXPECT_DOUBLE_EQ(contact::regularized_friction_force(c, N, 0, 0.5 * v, v), 0.5 * 0.5 * N);
  EXPECT_DOUBLE_EQ(contact::regularized_friction_force(c, N, 0, v, v), 0.5 * N);
  EXPECT_DOUBLE_EQ(contact::regularized_friction_force(c, N, 0, 1.5 * v, v), 0.4 * N);
  EXPECT_DOUBLE_EQ(contact::regularized_friction_force(c, N, 0, 7 * v, v), 0.3 * N);
  EXPECT_DOUBLE_EQ(contact::regularized_friction_force(c, N, 0, 0.0, v), 0.0);
  // With mu_s = mu_k it is the shared law's own regularized_force (seed eq. 6).
  const auto k = contact::CoulombFriction::from_coefficients(0.3, std::nullopt, 0.0);
  for (double s : {0.2e-3, 0.9e-3, 1.5e-3, 3e-3})
    EXPECT_DOUBLE_EQ(contact::regularized_friction_force(k, N, 0, s, v),
                     k.regularized_force(N, 0, s, v));
}

TEST(StepFrictionForce, NeverExceedsTheForceThatStopsTheSlipWithinTheStep) {
  const auto c = contact::CoulombFriction::from_coefficients(0.3, 0.5, 0.0);
  EXPECT_DOUBLE_EQ(contact::step_friction_force(c, 10, 0, 1.0, 1e-3, 0.7), 0.7);
  EXPECT_DOUBLE_EQ(contact::step_friction_force(c, 10, 0, 1.0, 1e-3, 70.0), 3.0);
  // v_reg = 0: Coulomb's stick/slip decision - stick while within mu_s N, else slide at mu_k N.
  EXPECT_DOUBLE_EQ(contact::step_friction_force(c, 10, 0, 1.0, 0.0, 4.9), 4.9);
  EXPECT_DOUBLE_EQ(contact::step_friction_force(c, 10, 0, 1.0, 0.0, 5.1), 3.0);
  // The binomial law mu N + A Ac: adhesion A = 100 Pa over 0.01 m^2 adds 1 N.
  const auto a = contact::CoulombFriction::from_coefficients(0.3, std::nullopt, 100.0);
  EXPECT_DOUBLE_EQ(contact::step_friction_force(a, 10, 0.01, 1.0, 1e-3, 1e9), 4.0);
}

TEST(BondFriction, ActsAlongTheBondAgainstTheChangeOfItsLength) {
  // Seed eq. 5: f = -mu sgn(r_dot) f_nor; the pair opening (r_dot > 0) pulls p towards i.
  const Vec2 M(0.6, 0.8);
  const PairFriction<2> opening = bond_friction<2>(law(0.3, 0.3, 1e-3), 10.0, 0.0, huge_stick_rate,
                                                   M, Vec2(0.0, 1.0), Vec2(0.0, 1.0));
  EXPECT_NEAR((opening.force_on_first - 3.0 * M).norm(), 0.0, 1e-14);
  EXPECT_NEAR(opening.dissipation, 3.0 * 0.8, 1e-14);  // F |r_dot|
  const PairFriction<2> closing = bond_friction<2>(law(0.3, 0.3, 1e-3), 10.0, 0.0, huge_stick_rate,
                                                   M, Vec2(0.0, -1.0), Vec2(0.0, -1.0));
  EXPECT_NEAR((closing.force_on_first + 3.0 * M).norm(), 0.0, 1e-14);
  // A tangential slip that keeps |Y| fixed (v perpendicular to M) gives no BFCM friction.
  const PairFriction<2> sliding = bond_friction<2>(law(0.3, 0.3, 1e-3), 10.0, 0.0, huge_stick_rate,
                                                   M, Vec2(0.8, -0.6), Vec2(0.8, -0.6));
  EXPECT_NEAR(sliding.force_on_first.norm(), 0.0, 1e-14);
}

TEST(NaiveFriction, OpposesTheRelativeVelocityPerpendicularToTheBond) {
  // Seed eq. 7: f on p along v_tau, |f| = mu N; the component of v along the bond is ignored.
  const Vec3 M(0, 0, 1);
  const PairFriction<3> f = naive_friction<3>(law(0.3, 0.3, 1e-3), 10.0, 0.0, huge_stick_rate, M,
                                              Vec3(0.3, 0.4, -2.0), Vec3(0.3, 0.4, -2.0));
  EXPECT_NEAR((f.force_on_first - Vec3(1.8, 2.4, 0.0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR(f.dissipation, 3.0 * 0.5, 1e-14);
  EXPECT_NEAR(f.force_on_first.dot(M), 0.0, 1e-14);
}

TEST(NaiveFriction, ARigidRotationOfThePairMakesFrictionWhereBondFrictionMakesNone) {
  // v_i - v_p = omega x Y for a rigid rotation: perpendicular to the bond. The seed: NFCM is not
  // objective, BFCM is.
  const Vec2 Y(0.001, 0.0005), M = Y.normalized();
  const double omega = 10.0;
  const Vec2 v = omega * Vec2(-Y.y(), Y.x());
  const FrictionLaw l = law(0.3, 0.3, 1e-3);
  EXPECT_GT(naive_friction<2>(l, 10.0, 0.0, huge_stick_rate, M, v, v).dissipation, 0.0);
  EXPECT_NEAR(bond_friction<2>(l, 10.0, 0.0, huge_stick_rate, M, v, v).dissipation, 0.0, 1e-15);
}

TEST(NaiveFriction, HoldsAPairWhoseTrialSlipItCanStopWithinTheStaticLimit) {
  // At rest (v = 0) but pulled by other forces (trial slip 1e-4 m/s): with a sharp law the pair
  // sticks - the force is the stick force, not mu N - while mu_s N allows it.
  const FrictionLaw sharp = law(0.3, 0.5, 0.0);
  const Vec2 M(0, 1), trial(1e-4, 0);
  const PairFriction<2> held = naive_friction<2>(sharp, 10.0, 0.0, 2e4, M, Vec2::Zero(), trial);
  EXPECT_NEAR(held.force_on_first.x(), 2.0, 1e-12);  // 2e4 kg/s x 1e-4 m/s < mu_s N = 5 N
  EXPECT_EQ(held.dissipation, 0.0);                  // no slip, no work
  const PairFriction<2> slides = naive_friction<2>(sharp, 10.0, 0.0, 6e4, M, trial, trial);
  EXPECT_NEAR(slides.force_on_first.x(), 3.0, 1e-12);  // 6 N > mu_s N: slides at mu_k N
}

}  // namespace
}  // namespace tribo::pd
