// Impulse-form contact laws for two bodies (Bardenhagen et al. 2001; Nairn, Bardenhagen and Smith
// 2018). References: hand-computed two-mass states and the kinetic energy of the pair computed
// from the final momenta, independently of the law's closed form.
#include "tribo/contact/contact_impulse.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tribo::contact {
namespace {

constexpr double kRoundOff = 1e-14;

// Two bodies: m_a = 2 moving (1, 0.5), m_b = 1 moving (-1, 0); n = +x (a on the left).
// Stick impulse s = m_red (v_b - v_a) = (2/3)(-2, -0.5) = (-4/3, -1/3).
struct TwoBodies {
  double ma = 2.0, mb = 1.0;
  Vec2 pa{2.0, 1.0}, pb{-1.0, 0.0};
  Vec2 n{1.0, 0.0};
  double mred() const { return ma * mb / (ma + mb); }
  Vec2 stick() const { return (ma / (ma + mb)) * (pa + pb) - pa; }
  double kinetic_energy_after(const Vec2& dp) const {
    return (pa + dp).squaredNorm() / (2 * ma) + (pb - dp).squaredNorm() / (2 * mb);
  }
};

TEST(SplitImpulse, ResolvesTheStickImpulseIntoNormalAndTangentialParts) {
  const TwoBodies s;
  const ImpulseSplit<2> split = split_impulse<2>(s.stick(), s.n);
  EXPECT_NEAR(split.normal, -4.0 / 3.0, kRoundOff);
  EXPECT_NEAR(split.tangential, 1.0 / 3.0, kRoundOff);
  EXPECT_NEAR(split.tangent.x(), 0.0, kRoundOff);
  EXPECT_NEAR(split.tangent.y(), -1.0, kRoundOff);
}

TEST(SplitImpulse, HasNoTangentWhenTheImpulseIsNormal) {
  const ImpulseSplit<3> split = split_impulse<3>(Vec3(0, 0, -2), Vec3(0, 0, 1));
  EXPECT_EQ(split.tangential, 0.0);
  EXPECT_EQ(split.tangent, Vec3::Zero());
}

TEST(FrictionlessImpulse, StopsOnlyTheNormalApproach) {
  const TwoBodies s;
  const ImpulseOutcome<2> out = frictionless_impulse<2>(split_impulse<2>(s.stick(), s.n), s.n);
  EXPECT_NEAR(out.impulse.x(), -4.0 / 3.0, kRoundOff);
  EXPECT_NEAR(out.impulse.y(), 0.0, kRoundOff);
  EXPECT_EQ(out.frictional_work, 0.0);
  // Both normal velocities become the centre-of-mass one, 1/3 m/s.
  EXPECT_NEAR((s.pa + out.impulse).x() / s.ma, 1.0 / 3.0, kRoundOff);
  EXPECT_NEAR((s.pb - out.impulse).x() / s.mb, 1.0 / 3.0, kRoundOff);
}

TEST(StickImpulse, GivesBothBodiesTheCentreOfMassVelocity) {
  const TwoBodies s;
  const ImpulseOutcome<2> out = stick_impulse<2>(split_impulse<2>(s.stick(), s.n), s.n, s.mred());
  const Vec2 v_cm = (s.pa + s.pb) / (s.ma + s.mb);  // (1/3, 1/3)
  EXPECT_NEAR(((s.pa + out.impulse) / s.ma - v_cm).norm(), 0.0, kRoundOff);
  EXPECT_NEAR(((s.pb - out.impulse) / s.mb - v_cm).norm(), 0.0, kRoundOff);
  // W = s_t^2 / (2 m_red) = (1/9) / (4/3) = 1/12.
  EXPECT_NEAR(out.frictional_work, 1.0 / 12.0, kRoundOff);
}

TEST(CoulombImpulse, SlidesWithMuTimesTheNormalImpulse) {
  // mu = 0.2: N dt = 4/3, limit 4/15 < s_t = 1/3 -> slide, dp = (-4/3, -4/15).
  const TwoBodies s;
  const CoulombFriction law = CoulombFriction::from_coefficients(0.2, std::nullopt, 0.0);
  const ImpulseOutcome<2> out = coulomb_impulse<2>(split_impulse<2>(s.stick(), s.n), s.n, law, 0.0, s.mred());
  EXPECT_FALSE(out.sticking);
  EXPECT_NEAR(out.impulse.x(), -4.0 / 3.0, kRoundOff);
  EXPECT_NEAR(out.impulse.y(), -4.0 / 15.0, kRoundOff);
  // Hand: W = S (2 s_t - S) / (2 m_red) = (4/15)(6/15)(3/4) = 0.08 J.
  EXPECT_NEAR(out.frictional_work, 0.08, kRoundOff);
}

TEST(CoulombImpulse, SticksBetweenTheKineticAndTheStaticLimit) {
  // mu_k = 0.2 (4/15 < 1/3) but mu_s = 0.3 (0.4 >= 1/3): static friction holds.
  const TwoBodies s;
  const CoulombFriction law = CoulombFriction::from_coefficients(0.2, 0.3, 0.0);
  const ImpulseOutcome<2> out = coulomb_impulse<2>(split_impulse<2>(s.stick(), s.n), s.n, law, 0.0, s.mred());
  EXPECT_TRUE(out.sticking);
  EXPECT_NEAR((out.impulse - s.stick()).norm(), 0.0, kRoundOff);
}

TEST(CoulombImpulse, AdhesionRaisesTheTangentialLimitByAAcDt) {
  // A Ac dt = 0.05 N s: limit 4/15 + 0.05 = 0.31667 < 1/3 -> slides at it.
  const TwoBodies s;
  const CoulombFriction law = CoulombFriction::from_coefficients(0.2, std::nullopt, 5.0);
  const ImpulseOutcome<2> out =
      coulomb_impulse<2>(split_impulse<2>(s.stick(), s.n), s.n, law, /*Ac dt=*/0.01, s.mred());
  EXPECT_FALSE(out.sticking);
  EXPECT_NEAR(out.impulse.y(), -(4.0 / 15.0 + 0.05), kRoundOff);
}

TEST(FrictionalWork, EqualsTheKineticEnergyLostBeyondTheFrictionlessOutcome) {
  // Reference: the kinetic energy of the two bodies from their final momenta (energy conservation
  // of the node's impulse exchange); tolerance: round-off of O(1) energies.
  const TwoBodies s;
  const ImpulseSplit<2> split = split_impulse<2>(s.stick(), s.n);
  const double frictionless = s.kinetic_energy_after(frictionless_impulse<2>(split, s.n).impulse);
  for (double mu : {0.05, 0.1, 0.2, 0.24, 0.3, 1.0}) {
    const CoulombFriction law = CoulombFriction::from_coefficients(mu, std::nullopt, 0.0);
    const ImpulseOutcome<2> out = coulomb_impulse<2>(split, s.n, law, 0.0, s.mred());
    EXPECT_NEAR(out.frictional_work, frictionless - s.kinetic_energy_after(out.impulse), 1e-14) << mu;
  }
}

TEST(FrictionalWork, ClosedFormMatchesTheDifferenceOfSquares) {
  for (double st : {0.1, 1.0, 3.0})
    for (double S : {0.0, 0.05, 0.09})
      EXPECT_NEAR(tangential_dissipation(st, S, 0.7), (st * st - (st - S) * (st - S)) / 1.4, 1e-14);
  EXPECT_EQ(tangential_dissipation(1.0, 0.5, 0.0), 0.0);
}

}  // namespace
}  // namespace tribo::contact
