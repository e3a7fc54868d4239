// Coulomb friction with static/kinetic coefficients and adhesion (the seed's laws of friction:
// friction proportional to the normal load, static above kinetic, binomial law f = mu N + A).
// References are the law's own definitions, evaluated by hand; tolerances are round-off.
#include "tribo/contact/coulomb_friction.hpp"

#include <gtest/gtest.h>

namespace tribo::contact {
namespace {

constexpr double kRoundOff = 1e-14;  // a few operations on O(1) numbers

TEST(CoulombFriction, SticksWhileTheTrialLoadIsWithinTheStaticLimit) {
  const CoulombFriction law = CoulombFriction::from_coefficients(0.3, 0.5, 0.0);
  // N = 10: static limit 5, kinetic limit 3.
  const TangentialResponse below = law.resolve(10.0, 4.9, 0.0);
  EXPECT_TRUE(below.sticking);
  EXPECT_NEAR(below.magnitude, 4.9, kRoundOff);
  const TangentialResponse at = law.resolve(10.0, 5.0, 0.0);
  EXPECT_TRUE(at.sticking);  // "stick if <= mu_s N"
}

TEST(CoulombFriction, SlidesAtTheKineticLimitPastTheStaticLimit) {
  const CoulombFriction law = CoulombFriction::from_coefficients(0.3, 0.5, 0.0);
  const TangentialResponse above = law.resolve(10.0, 5.1, 0.0);
  EXPECT_FALSE(above.sticking);
  EXPECT_NEAR(above.magnitude, 3.0, kRoundOff);  // mu_k N, independent of the trial load
  EXPECT_NEAR(law.resolve(10.0, 50.0, 0.0).magnitude, 3.0, kRoundOff);
}

TEST(CoulombFriction, WithoutAStaticCoefficientTheThresholdIsTheKineticLimit) {
  const CoulombFriction law = CoulombFriction::from_coefficients(0.3, std::nullopt, 0.0);
  EXPECT_DOUBLE_EQ(law.static_coefficient, 0.3);
  EXPECT_TRUE(law.resolve(10.0, 2.99, 0.0).sticking);
  const TangentialResponse slide = law.resolve(10.0, 3.01, 0.0);
  EXPECT_FALSE(slide.sticking);
  EXPECT_NEAR(slide.magnitude, 3.0, kRoundOff);
}

TEST(CoulombFriction, FrictionIsProportionalToTheNormalLoad) {
  const CoulombFriction law = CoulombFriction::from_coefficients(0.4, std::nullopt, 0.0);
  EXPECT_NEAR(law.kinetic_limit(1.0, 0.0), 0.4, kRoundOff);
  EXPECT_NEAR(law.kinetic_limit(7.0, 0.0), 2.8, kRoundOff);
  EXPECT_NEAR(law.kinetic_limit(7.0, 123.0), 2.8, kRoundOff);  // area does not matter without adhesion
}

TEST(CoulombFriction, AdhesionAddsTheBinomialTermAToBothLimits) {
  // f = mu N + A Ac: mu = 0.2, N = 5, A = 100 Pa, Ac = 0.01 m^2 -> 1 + 1 = 2 N.
  const CoulombFriction law = CoulombFriction::from_coefficients(0.2, 0.3, 100.0);
  EXPECT_NEAR(law.kinetic_limit(5.0, 0.01), 2.0, kRoundOff);
  EXPECT_NEAR(law.static_limit(5.0, 0.01), 2.5, kRoundOff);
  EXPECT_TRUE(law.resolve(5.0, 2.4, 0.01).sticking);
  EXPECT_NEAR(law.resolve(5.0, 2.6, 0.01).magnitude, 2.0, kRoundOff);
}

TEST(CoulombFriction, TensionTransmitsOnlyTheAdhesion) {
  const CoulombFriction law = CoulombFriction::from_coefficients(0.5, std::nullopt, 10.0);
  EXPECT_NEAR(law.kinetic_limit(-4.0, 0.1), 1.0, kRoundOff);
  EXPECT_NEAR(law.kinetic_limit(-4.0, 0.0), 0.0, kRoundOff);
}

TEST(CoulombFriction, AStaticCoefficientBelowTheKineticOneIsRaisedToIt) {
  // Otherwise a trial load between mu_s N and mu_k N would slide with more than the stick load.
  const CoulombFriction law = CoulombFriction::from_coefficients(0.5, 0.2, 0.0);
  EXPECT_DOUBLE_EQ(law.static_coefficient, 0.5);
  const TangentialResponse r = law.resolve(10.0, 4.0, 0.0);
  EXPECT_TRUE(r.sticking);
  EXPECT_NEAR(r.magnitude, 4.0, kRoundOff);
}

TEST(CoulombFriction, SlidingNeverTransmitsMoreThanTheTrialLoad) {
  // Reference: with mu_s >= mu_k the slide load mu_k N is below the trial load whenever it slides.
  const CoulombFriction law = CoulombFriction::from_coefficients(0.3, 0.45, 2.0);
  for (double trial = 0.0; trial < 20.0; trial += 0.37) {
    const TangentialResponse r = law.resolve(10.0, trial, 0.5);
    EXPECT_LE(r.magnitude, trial + kRoundOff) << trial;
  }
}

TEST(CoulombFriction, SlipWeakeningIsLinearFromStaticToKineticOverTheDistance) {
  // mu(s) = mu_s - (mu_s - mu_k) min(s / D_c, 1) (Ida 1972; Palmer and Rice 1973), both limits.
  const CoulombFriction law = CoulombFriction::from_coefficients(0.2, 0.7, 0.0);
  const double dc = 1e-4;
  EXPECT_NEAR(law.after_slip(0.0, dc).static_coefficient, 0.7, kRoundOff);
  EXPECT_NEAR(law.after_slip(0.25e-4, dc).static_coefficient, 0.575, kRoundOff);
  EXPECT_NEAR(law.after_slip(0.25e-4, dc).kinetic, 0.575, kRoundOff);
  EXPECT_NEAR(law.after_slip(1e-4, dc).static_coefficient, 0.2, kRoundOff);
  EXPECT_NEAR(law.after_slip(1.0, dc).kinetic, 0.2, kRoundOff);
  // D_c = 0 is the sharp law; equal coefficients have nothing to weaken.
  EXPECT_DOUBLE_EQ(law.after_slip(0.0, 0.0).static_coefficient, 0.7);
  EXPECT_DOUBLE_EQ(law.after_slip(0.0, 0.0).kinetic, 0.2);
  const CoulombFriction flat = CoulombFriction::from_coefficients(0.3, 0.3, 0.0);
  EXPECT_DOUBLE_EQ(flat.after_slip(0.5e-4, dc).kinetic, 0.3);
}

TEST(CoulombFriction, FromSpecReadsTheDeckPair) {
  ContactLawSpec spec;
  spec.law = ContactLaw::Coulomb;
  spec.friction = 0.25;
  spec.static_friction = 0.35;
  spec.adhesion = 3.0;
  const CoulombFriction law = CoulombFriction::from_spec(spec);
  EXPECT_DOUBLE_EQ(law.kinetic, 0.25);
  EXPECT_DOUBLE_EQ(law.static_coefficient, 0.35);
  EXPECT_DOUBLE_EQ(law.adhesion, 3.0);
  EXPECT_FALSE(law.frictionless());
  EXPECT_TRUE(CoulombFriction::from_coefficients(0.0, std::nullopt, 0.0).frictionless());
}

TEST(RegularizedFriction, RampsLinearlyBelowTheRegularizationVelocityAndSaturatesAbove) {
  // F = mu N min(|v| / v_reg, 1): mu = 0.3, N = 10 -> 3 N at full slip.
  const CoulombFriction law = CoulombFriction::from_coefficients(0.3, std::nullopt, 0.0);
  EXPECT_NEAR(law.regularized_force(10.0, 0.0, 0.0, 1e-3), 0.0, kRoundOff);
  EXPECT_NEAR(law.regularized_force(10.0, 0.0, 0.25e-3, 1e-3), 0.75, kRoundOff);
  EXPECT_NEAR(law.regularized_force(10.0, 0.0, -0.5e-3, 1e-3), 1.5, kRoundOff);
  EXPECT_NEAR(law.regularized_force(10.0, 0.0, 2.0, 1e-3), 3.0, kRoundOff);  // speed-independent (seed)
}

TEST(RegularizedFriction, ZeroRegularizationIsTheSharpCoulombLaw) {
  const CoulombFriction law = CoulombFriction::from_coefficients(0.3, std::nullopt, 0.0);
  EXPECT_NEAR(law.regularized_force(10.0, 0.0, 1e-9, 0.0), 3.0, kRoundOff);
  EXPECT_NEAR(law.regularized_force(10.0, 0.0, 0.0, 0.0), 0.0, kRoundOff);
}

}  // namespace
}  // namespace tribo::contact
