// The penalty normal law (mpm.contact.normal_law: penalty; contact_detection.hpp,
// detect_penalty_contact): hand-computed node states, the backward-Euler spring's closed form, its
// stability for any node mass, momentum, and the stiffness a field pair gets from its materials.
#include <gtest/gtest.h>

#include <cmath>

#include "tribo/mpm/contact_pair.hpp"
#include "tribo/mpm/mpm_simulation.hpp"

namespace tribo::mpm {
namespace {

constexpr double kRoundOff = 1e-13;
// Unit cell, node volume 1, dt = 0.01 (as contact_pair_test.cpp).
const NodeContext<2> kCell{Vec2(1, 1), 1.0, 0.01};

ContactField<2> field(double mass, const Vec2& velocity, double volume) {
  ContactField<2> f;
  f.mass = mass;
  f.momentum = mass * velocity;
  f.volume = volume;
  return f;
}

ContactLawSpec law(ContactLaw kind, double mu = 0.0) {
  ContactLawSpec l;
  l.law = kind;
  l.friction = mu;
  return l;
}

PairContactResult<2> resolve(const ContactField<2>& a, const ContactField<2>& b, const ContactLawSpec& l,
                             ContactStage stage, double modulus) {
  return resolve_contact_pair<2>(a, b, Vec2(1, 0), l, MpmContactSpec{}, kCell, stage, std::nullopt, nullptr, modulus);
}

TEST(PenaltyContact, FlatFacesThatJustTouchFeelNothing) {
  // V_a + V_b = V_cell: two flat faces meeting in the node's support (any lattice offset, uGIMP):
  // g = 0, no push even though the fields approach at 0.4 m/s.
  const ContactField<2> a = field(1.0, Vec2(0.2, 0.0), 0.5), b = field(1.0, Vec2(-0.2, 0.0), 0.5);
  EXPECT_FALSE(resolve(a, b, law(ContactLaw::Frictionless), ContactStage::AfterMomentumUpdate, 100.0).in_contact);
}

TEST(PenaltyContact, OverlapPushesByTheBackwardEulerSpringInTheUpdateStageOnly) {
  // V_a = V_b = 0.55: g = -h (1.1 - 1) / 1 = -0.1 m. k = 100 / h = 100 Pa/m, contact area
  // sqrt(2 0.55 1.1) / h = 1.1, so k A = 110 N/m, dt k A = 1.1. m_red = 0.5, s.n = -0.2:
  // P = 1.1 (0.1 + 0.01 (0.4)) / (1 + 1.1 0.01 / 0.5) = 0.1144 / 1.022 = 0.111937...
  // g' = -0.1 + 0.01 (-0.2 + P) / 0.5; the work done on the spring, -P (s.n + P) / m_red.
  const ContactField<2> a = field(1.0, Vec2(0.2, 0.0), 0.55), b = field(1.0, Vec2(-0.2, 0.0), 0.55);
  const double push = 1.1 * 0.104 / 1.022;
  const double end = -0.1 + 0.01 * (-0.2 + push) / 0.5;
  EXPECT_FALSE(resolve(a, b, law(ContactLaw::Frictionless), ContactStage::AfterExtrapolation, 100.0).in_contact);
  const PairContactResult<2> r = resolve(a, b, law(ContactLaw::Frictionless), ContactStage::AfterMomentumUpdate, 100.0);
  ASSERT_TRUE(r.in_contact);
  EXPECT_NEAR((r.momentum_change_a - Vec2(-push, 0.0)).norm(), 0.0, kRoundOff);
  EXPECT_EQ(r.momentum_change_b, -r.momentum_change_a);
  EXPECT_NEAR(r.interface_energy, -push * (-0.2 + push) / 0.5, kRoundOff);
  // Backward Euler: the push equals the spring's force at the end of the step, P = dt k A (-g').
  EXPECT_NEAR(push, 1.1 * -end, kRoundOff);
}

TEST(PenaltyContact, OverlappingFieldsThatSeparateSlowlyAreStillPushedApart) {
  // The approach check of the impulse law would free them; the spring acts on the overlap alone
  // (what keeps a rolling body's load symmetric about its contact point; docs/mpm-contact.md).
  const ContactField<2> a = field(1.0, Vec2(-0.2, 0.0), 0.55), b = field(1.0, Vec2(0.2, 0.0), 0.55);
  const PairContactResult<2> r = resolve(a, b, law(ContactLaw::Frictionless), ContactStage::AfterMomentumUpdate, 100.0);
  ASSERT_TRUE(r.in_contact);
  EXPECT_LT(r.momentum_change_a.x(), 0.0);
  // ... unless they separate past touching within the step: v_n = 20 m/s, -g - dt v_n = 0.1 - 0.2 < 0.
  const ContactField<2> fast_a = field(1.0, Vec2(-10.0, 0.0), 0.55), fast_b = field(1.0, Vec2(10.0, 0.0), 0.55);
  EXPECT_FALSE(resolve(fast_a, fast_b, law(ContactLaw::Frictionless), ContactStage::AfterMomentumUpdate, 100.0).in_contact);
}

TEST(PenaltyContact, NeverPushesTheFieldsPastTouchingWhateverTheStiffnessAndMass) {
  // Backward Euler is stable for any k dt^2 / m_red: the separation at the end of the step stays
  // <= 0 (a light node of a stiff body is pushed at most to touching, never launched).
  for (double modulus : {1.0, 1e3, 1e6, 1e9, 1e12})
    for (double mass : {1e-9, 1e-3, 1.0}) {
      const ContactField<2> a = field(mass, Vec2(0.3, 0.0), 0.6), b = field(2.0 * mass, Vec2(-0.1, 0.0), 0.6);
      const PairContactResult<2> r = resolve(a, b, law(ContactLaw::Frictionless), ContactStage::AfterMomentumUpdate, modulus);
      ASSERT_TRUE(r.in_contact) << modulus << " " << mass;
      const double va = (a.momentum.x() + r.momentum_change_a.x()) / a.mass;
      const double vb = (b.momentum.x() + r.momentum_change_b.x()) / b.mass;
      EXPECT_LE(-0.2 + kCell.dt * (vb - va), 1e-12) << modulus << " " << mass;
    }
}

TEST(PenaltyContact, CoulombSlidesAtMuTimesThePushAndARigidPartnerTakesNothing) {
  // a slides along y at 1 m/s on a rigid b: m_red = m_a = 1, s = (-0.2, -1) (a takes b's velocity).
  // P = dt k A (-g - dt s.n / m) / (1 + dt k A / m) with V_a + V_b = 1.1, A = 1.1: as above with
  // m_red 1: 1.1 (0.1 + 0.002) / 1.011. Tangential stick change 1 > mu P: S = 0.3 P.
  ContactField<2> a = field(1.0, Vec2(0.2, 1.0), 0.55), b = field(1.0, Vec2(0.0, 0.0), 0.55);
  b.rigid = true;
  const double push = 1.1 * 0.102 / 1.011;
  const PairContactResult<2> r = resolve(a, b, law(ContactLaw::Coulomb, 0.3), ContactStage::AfterMomentumUpdate, 100.0);
  ASSERT_TRUE(r.in_contact);
  EXPECT_FALSE(r.sticking);
  EXPECT_NEAR((r.momentum_change_a - Vec2(-push, -0.3 * push)).norm(), 0.0, kRoundOff);
  EXPECT_EQ(r.momentum_change_b, Vec2::Zero());
  EXPECT_GT(r.frictional_work, 0.0);
}

TEST(PenaltyContact, ThePairStiffnessIsTheScaleTimesTheSofterBulkModulus) {
  SimulationSpec spec;
  spec.dimension = 2;
  MaterialSpec soft, hard, floor;
  soft.name = "soft";
  soft.youngs_modulus = 3e6;
  soft.poisson_ratio = 0.25;  // K = E / (3 (1 - 2 nu)) = 2e6
  hard = soft;
  hard.name = "hard";
  hard.youngs_modulus = 3e9;
  floor.name = "floor";
  floor.model = MaterialModel::Rigid;
  spec.materials = {soft, hard, floor};
  for (auto [m0, m1] : {std::pair{0, 1}, std::pair{0, 2}}) {
    ContactPairSpec pair;
    pair.material_indices = {m0, m1};
    spec.mpm.contact.pairs.push_back(pair);
  }
  spec.mpm.contact.normal_law = ContactNormalLaw::Penalty;
  spec.mpm.contact.penalty_scale = 0.1;
  const FieldLayout layout = FieldLayout::from(spec);
  const int s = layout.field_of_material[0], h = layout.field_of_material[1], r = layout.field_of_material[2];
  EXPECT_NEAR(layout.penalty_modulus(spec.mpm.contact, s, h), 0.1 * 2e6, 1e-6);
  EXPECT_NEAR(layout.penalty_modulus(spec.mpm.contact, h, r), 0.1 * 2e9, 1e-3);  // rigid: the other's
  spec.mpm.contact.normal_law = ContactNormalLaw::Impulse;
  EXPECT_EQ(layout.penalty_modulus(spec.mpm.contact, s, h), 0.0);
}

}  // namespace
}  // namespace tribo::mpm
