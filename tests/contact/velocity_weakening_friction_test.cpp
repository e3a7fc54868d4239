// Velocity-weakening friction mu(v) = mu_k + (mu_s - mu_k) exp(-|v| / v_c) (issue 15; seed 002):
// the coefficient against the formula evaluated by hand, the stick/slide decision, and the impulse
// form on a pair of bodies (momentum, the slip speed the coefficient is taken at). Tolerances are
// round-off of a few operations on O(1) numbers unless said otherwise.
#include "tribo/contact/velocity_weakening_friction.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "tribo/contact/contact_impulse.hpp"

namespace tribo::contact {
namespace {

constexpr double kRoundOff = 1e-14;

// mu_k = 0.2, mu_s = 0.4, v_c = 0.2 m/s, no adhesion (the validation decks' law).
VelocityWeakeningFriction law(double adhesion = 0.0) {
  return {CoulombFriction::from_coefficients(0.2, 0.4, adhesion), 0.2};
}

TEST(VelocityWeakeningFriction, CoefficientIsStaticAtRestKineticFastAndFallsByEAtVc) {
  const VelocityWeakeningFriction f = law();
  EXPECT_NEAR(f.coefficient(0.0), 0.4, kRoundOff);                       // mu_s at v = 0
  EXPECT_NEAR(f.coefficient(0.2), 0.2 + 0.2 / std::exp(1.0), kRoundOff);  // v = v_c: mu_k + d / e
  EXPECT_NEAR(f.coefficient(-0.2), f.coefficient(0.2), kRoundOff);       // |v|: either direction
  // v -> infinity: mu_k (at 40 v_c the excess is d e^-40 = 8.5e-19).
  EXPECT_NEAR(f.coefficient(8.0), 0.2, kRoundOff);
  EXPECT_EQ(f.coefficient(1.0e6), 0.2);
  // Monotone: kinetic friction falls with the slip speed (Coulomb's second law does not hold).
  EXPECT_GT(f.coefficient(0.1), f.coefficient(0.3));
}

TEST(VelocityWeakeningFriction, EqualCoefficientsAreCoulombAtAnySpeed) {
  const VelocityWeakeningFriction f{CoulombFriction::from_coefficients(0.3, std::nullopt, 0.0), 0.2};
  for (double v : {0.0, 0.05, 0.2, 3.0}) EXPECT_EQ(f.coefficient(v), 0.3);
}

TEST(VelocityWeakeningFriction, SticksWithinMuSNAndSlidesAtMuOfTheSlipSpeed) {
  const VelocityWeakeningFriction f = law(100.0);  // A = 100 Pa
  const double N = 10.0, area = 0.01;                // adhesion load A Ac = 1
  // Static limit mu_s N + A Ac = 5, whatever the slip speed.
  const TangentialResponse held = f.resolve(N, 4.9, area, 0.5);
  EXPECT_TRUE(held.sticking);
  EXPECT_NEAR(held.magnitude, 4.9, kRoundOff);
  // Past it: mu(v) N + A Ac with the given slip speed.
  const TangentialResponse slide = f.resolve(N, 50.0, area, 0.2);
  EXPECT_FALSE(slide.sticking);
  EXPECT_NEAR(slide.magnitude, (0.2 + 0.2 / std::exp(1.0)) * N + 1.0, kRoundOff);
  // Tension: no friction, only adhesion.
  EXPECT_NEAR(f.resolve(-N, 50.0, area, 0.2).magnitude, 1.0, kRoundOff);
}

// The impulse form on two deformable bodies meeting at one point: a (on top) moves at (1, -0.1)
// m/s, b (below) rests, the normal (0, -1) points out of a toward b, so a approaches b. The stick
// impulse is s = m_red (v_b - v_a).
TEST(VelocityWeakeningFriction, ImpulseConservesMomentumAndSlowsTheSlipByMuOfTheTrialSpeed) {
  const double ma = 2.0, mb = 3.0, mred = ma * mb / (ma + mb);
  const Vec2 va(1.0, -0.1), vb(0.0, 0.0), n(0.0, -1.0);
  const Vec2 stick = mred * (vb - va);
  const ImpulseSplit<2> split = split_impulse<2>(stick, n);
  const VelocityWeakeningFriction f = law();
  const ImpulseOutcome<2> out = friction_impulse<2>(split, n, f, 0.0, mred);
  ASSERT_FALSE(out.sticking);  // s_t = 1.2 N s > mu_s N dt = 0.4 * 0.12 N s
  const Vec2 pa = ma * va + out.impulse, pb = mb * vb - out.impulse;
  // Momentum: the pair's total is unchanged (to round-off of O(1) momenta).
  EXPECT_NEAR((pa + pb - (ma * va + mb * vb)).norm(), 0.0, kRoundOff);
  // The normal approach is stopped: no relative normal velocity after the impulse.
  const Vec2 relative = pb / mb - pa / ma;
  EXPECT_NEAR(relative.dot(n), 0.0, kRoundOff);
  // The tangential slip falls by S / m_red, S = mu(v) N dt with v the trial relative tangential
  // speed |v_b - v_a|_t = 1 m/s (not the speed after the impulse) and N dt = -s.n = 0.12 N s.
  const double normal_impulse = mred * 0.1;
  const double mu = 0.2 + 0.2 * std::exp(-1.0 / 0.2);
  EXPECT_NEAR(out.tangential, mu * normal_impulse, kRoundOff);
  EXPECT_NEAR(std::abs(relative.x()), 1.0 - mu * normal_impulse / mred, kRoundOff);
  // It keeps its direction (friction never reverses the slip), and the work it books is the
  // kinetic energy of the relative motion it removes beyond the frictionless outcome.
  EXPECT_LT(relative.x(), 0.0);
  const double slip_before = 1.0, slip_after = std::abs(relative.x());
  EXPECT_NEAR(out.frictional_work, 0.5 * mred * (slip_before * slip_before - slip_after * slip_after), 1e-13);
}

// Coulomb through the same impulse template is the old Coulomb impulse (the refactor keeps it).
TEST(VelocityWeakeningFriction, CoulombImpulseIsTheGenericFrictionImpulseOfCoulomb) {
  const CoulombFriction c = CoulombFriction::from_coefficients(0.2, 0.4, 0.0);
  const Vec2 n(0.0, -1.0);
  const ImpulseSplit<2> split = split_impulse<2>(Vec2(-1.2, 0.12), n);
  const ImpulseOutcome<2> generic = friction_impulse<2>(split, n, c, 0.0, 1.2);
  const ImpulseOutcome<2> coulomb = coulomb_impulse<2>(split, n, c, 0.0, 1.2);
  EXPECT_EQ(generic.impulse, coulomb.impulse);
  EXPECT_NEAR(coulomb.tangential, 0.2 * 0.12, kRoundOff);  // mu_k N dt: no speed dependence
}

}  // namespace
}  // namespace tribo::contact
