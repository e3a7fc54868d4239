// Velocity-weakening friction at an MPM node (issue 15): resolve_contact_pair (which multimaterial
// and crack contact both call) slides at mu(v) N dt with v the trial relative tangential speed
// s_t / m_red, mu(v) = mu_k + (mu_s - mu_k) exp(-|v| / v_c) evaluated by hand, and keeps no
// slip-weakening history.
#include <gtest/gtest.h>

#include <cmath>

#include "tribo/mpm/contact_pair.hpp"

namespace tribo::mpm {
namespace {

// The node of contact_pair_test.cpp: a (2 kg, v = (1, 0.5)) left of b (1 kg, v = (-1, 0)),
// n = +x, a pressed 1 mm into b: m_red = 2/3, stick change s = (-4/3, -1/3), so N dt = 4/3 N s
// and s_t = 1/3 N s along -y: the trial relative tangential speed is s_t / m_red = 0.5 m/s.
struct Node {
  ContactField<2> a, b;
  Node() {
    a.mass = 2.0;
    a.momentum = Vec2(2.0, 1.0);
    a.volume = 0.5;
    a.displacement = Vec2(1e-3, 0.0);
    b.mass = 1.0;
    b.momentum = Vec2(-1.0, 0.0);
    b.volume = 0.5;
  }
  PairContactResult<2> resolve(const ContactLawSpec& law, std::optional<double> slip = std::nullopt) const {
    return resolve_contact_pair<2>(a, b, Vec2(1.0, 0.0), law, MpmContactSpec{}, NodeContext<2>{Vec2(1, 1), 1.0, 0.01},
                                   ContactStage::AfterExtrapolation, slip);
  }
};

ContactLawSpec velocity_law(double mu_k, double mu_s, double v_c) {
  ContactLawSpec law;
  law.law = ContactLaw::VelocityWeakening;
  law.friction = mu_k;
  law.static_friction = mu_s;
  law.weakening_velocity = v_c;
  return law;
}

TEST(VelocityWeakeningNode, SlidesAtMuOfTheTrialSpeed) {
  // mu_s N dt = 0.2 * 4/3 = 0.267 < s_t = 1/3: the node slides.
  const PairContactResult<2> r = Node().resolve(velocity_law(0.05, 0.2, 0.2));
  ASSERT_TRUE(r.in_contact);
  EXPECT_FALSE(r.sticking);
  const double S = (0.05 + 0.15 * std::exp(-0.5 / 0.2)) * 4.0 / 3.0;
  EXPECT_NEAR(r.momentum_change_a.x(), -4.0 / 3.0, 1e-14);  // the approach stopped
  EXPECT_NEAR(r.momentum_change_a.y(), -S, 1e-14);          // S along the tangent -y
  EXPECT_EQ(r.momentum_change_b, Vec2(-r.momentum_change_a));
}

TEST(VelocityWeakeningNode, SticksWithinMuSAndKeepsNoSlipHistory) {
  // mu_s N dt = 0.3 * 4/3 = 0.4 > s_t = 1/3: stick, the full stick change.
  const PairContactResult<2> held = Node().resolve(velocity_law(0.05, 0.3, 0.2));
  EXPECT_TRUE(held.sticking);
  EXPECT_NEAR(held.momentum_change_a.y(), -1.0 / 3.0, 1e-14);
  // A slip since the last stick (which weakens a Coulomb law) changes nothing here.
  const Node node;
  const PairContactResult<2> fresh = node.resolve(velocity_law(0.05, 0.2, 0.2));
  const PairContactResult<2> after = node.resolve(velocity_law(0.05, 0.2, 0.2), 10.0);
  EXPECT_EQ(fresh.momentum_change_a, after.momentum_change_a);
}

}  // namespace
}  // namespace tribo::mpm
