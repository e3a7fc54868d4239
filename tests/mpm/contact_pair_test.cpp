// Contact of two velocity fields at a node: a node's fields in, momentum changes out. References:
// hand-computed node states (worked in the comments), conservation of momentum, and the kinetic
// energy of the pair computed from the final momenta.
#include "tribo/mpm/contact_pair.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace tribo::mpm {
namespace {

constexpr double kRoundOff = 1e-14;

template <int Dim>
ContactField<Dim> field(double mass, const Vec<Dim>& velocity, double volume = 0.5) {
  ContactField<Dim> f;
  f.mass = mass;
  f.momentum = mass * velocity;
  f.volume = volume;
  return f;
}

ContactLawSpec law(ContactLaw kind, double mu = 0.0, std::optional<double> mu_s = std::nullopt, double adhesion = 0.0) {
  ContactLawSpec l;
  l.law = kind;
  l.friction = mu;
  l.static_friction = mu_s;
  l.adhesion = adhesion;
  return l;
}

MpmContactSpec detection() {
  MpmContactSpec s;  // displacement check on, vmin 0
  s.position_method = ContactPositionMethod::Displacement;  // the tests below give displacements
  return s;
}

const NodeContext<2> kCell2{Vec2(1, 1), 1.0, 0.01};
const NodeContext<3> kCell3{Vec3(1, 1, 1), 1.0, 0.01};

// The standard 2D node: a (2 kg, v = (1, 0.5)) left of b (1 kg, v = (-1, 0)), n = +x, a pressed
// 1 mm into b. M = 3, m_red = 2/3, stick change s = (-4/3, -1/3), dotn = -4/3, s_t = 1/3 along -y.
struct StandardNode {
  ContactField<2> a = field<2>(2.0, Vec2(1.0, 0.5));
  ContactField<2> b = field<2>(1.0, Vec2(-1.0, 0.0));
  Vec2 n{1.0, 0.0};
  StandardNode() { a.displacement = Vec2(1e-3, 0.0); }
  PairContactResult<2> resolve(const ContactLawSpec& l, ContactStage stage = ContactStage::AfterExtrapolation) const {
    return resolve_contact_pair<2>(a, b, n, l, detection(), kCell2, stage);
  }
  PairContactResult<2> resolve_after_slip(const ContactLawSpec& l, double slip) const {
    return resolve_contact_pair<2>(a, b, n, l, detection(), kCell2, ContactStage::AfterExtrapolation, slip);
  }
};

template <int Dim>
double kinetic_energy(const ContactField<Dim>& f, const Vec<Dim>& dp) {
  return (f.momentum + dp).squaredNorm() / (2.0 * f.mass);
}

TEST(FrictionlessContact, StopsTheNormalApproachAndKeepsTheTangentialVelocities) {
  const StandardNode node;
  const PairContactResult<2> r = node.resolve(law(ContactLaw::Frictionless));
  ASSERT_TRUE(r.in_contact);
  // dp = dotn n = (-4/3, 0): a leaves at (1/3, 0.5), b at (1/3, 0).
  EXPECT_NEAR((r.momentum_change_a - Vec2(-4.0 / 3.0, 0.0)).norm(), 0.0, kRoundOff);
  EXPECT_EQ(r.momentum_change_b, -r.momentum_change_a);
  EXPECT_EQ(r.frictional_work, 0.0);
  EXPECT_NEAR((r.normal - node.n).norm(), 0.0, kRoundOff);
}

TEST(FrictionlessContact, SeparatingFieldsAreLeftAlone) {
  StandardNode node;
  node.a.momentum = Vec2(-2.0, 1.0);  // a moving away, -1 m/s
  const PairContactResult<2> r = node.resolve(law(ContactLaw::Frictionless));
  EXPECT_FALSE(r.in_contact);
  EXPECT_EQ(r.momentum_change_a, Vec2::Zero());
  EXPECT_EQ(r.momentum_change_b, Vec2::Zero());
}

TEST(StickContact, GivesBothFieldsTheCentreOfMassVelocity) {
  const StandardNode node;
  const PairContactResult<2> r = node.resolve(law(ContactLaw::Stick));
  ASSERT_TRUE(r.in_contact);
  const Vec2 v_cm(1.0 / 3.0, 1.0 / 3.0);
  EXPECT_NEAR(((node.a.momentum + r.momentum_change_a) / node.a.mass - v_cm).norm(), 0.0, kRoundOff);
  EXPECT_NEAR(((node.b.momentum + r.momentum_change_b) / node.b.mass - v_cm).norm(), 0.0, kRoundOff);
  EXPECT_NEAR(r.frictional_work, (1.0 / 9.0) / (2.0 * 2.0 / 3.0), kRoundOff);  // s_t^2 / (2 m_red)
}

TEST(StickContact, SeparationIsFree) {
  StandardNode node;
  node.a.momentum = Vec2(-2.0, 1.0);
  EXPECT_FALSE(node.resolve(law(ContactLaw::Stick)).in_contact);
  node = StandardNode();
  node.a.displacement = Vec2(-1e-3, 0.0);  // approaching but still apart (displacement check)
  EXPECT_FALSE(node.resolve(law(ContactLaw::Stick)).in_contact);
}

TEST(CoulombContact, SlidesWhenTheStickImpulseExceedsMuTimesTheNormalImpulse) {
  // mu = 0.2: limit 0.2 * 4/3 = 4/15 < 1/3 -> dp = (-4/3, -4/15); W = 0.08 J (by hand:
  // S (2 s_t - S) / (2 m_red) = (4/15)(6/15)(3/4)).
  const StandardNode node;
  const PairContactResult<2> r = node.resolve(law(ContactLaw::Coulomb, 0.2));
  ASSERT_TRUE(r.in_contact);
  EXPECT_NEAR((r.momentum_change_a - Vec2(-4.0 / 3.0, -4.0 / 15.0)).norm(), 0.0, kRoundOff);
  EXPECT_NEAR(r.frictional_work, 0.08, kRoundOff);
}

TEST(CoulombContact, SticksBelowTheThreshold) {
  // mu = 0.3: limit 0.4 >= 1/3 -> the stick change.
  const StandardNode node;
  const PairContactResult<2> r = node.resolve(law(ContactLaw::Coulomb, 0.3));
  EXPECT_NEAR((r.momentum_change_a - Vec2(-4.0 / 3.0, -1.0 / 3.0)).norm(), 0.0, kRoundOff);
}

TEST(CoulombContact, StaticFrictionHoldsBetweenTheKineticAndTheStaticThreshold) {
  // mu_k = 0.2 (kinetic limit 0.2667) and mu_s = 0.3 (static limit 0.4 >= s_t = 1/3): stick.
  const StandardNode node;
  const PairContactResult<2> held = node.resolve(law(ContactLaw::Coulomb, 0.2, 0.3));
  EXPECT_NEAR(held.momentum_change_a.y(), -1.0 / 3.0, kRoundOff);
  // mu_s = 0.24 (static limit 0.32 < 1/3): slides, and at the kinetic limit.
  const PairContactResult<2> slid = node.resolve(law(ContactLaw::Coulomb, 0.2, 0.24));
  EXPECT_NEAR(slid.momentum_change_a.y(), -4.0 / 15.0, kRoundOff);
}

// Slip-weakening (Ida 1972; Palmer and Rice 1973): mu(slip) = mu_s - (mu_s - mu_k) min(slip/D_c, 1).
// Standard node: N dt = 4/3, s_t = 1/3 (ratio 0.25); mu_k = 0.1, mu_s = 0.3, D_c = 1 mm.
ContactLawSpec weakening_law() {
  ContactLawSpec l = law(ContactLaw::Coulomb, 0.1, 0.3);
  l.slip_weakening_distance = 1e-3;
  return l;
}

TEST(SlipWeakening, ANodeThatHasNotSlippedSticksUpToTheStaticLimit) {
  const StandardNode node;
  const PairContactResult<2> r = node.resolve_after_slip(weakening_law(), 0.0);
  EXPECT_TRUE(r.sticking);
  EXPECT_NEAR(r.momentum_change_a.y(), -1.0 / 3.0, kRoundOff);
}

TEST(SlipWeakening, TheLimitFallsLinearlyToTheKineticOneOverTheDistance) {
  const StandardNode node;
  // Slip 0.3 mm: mu = 0.3 - 0.2 * 0.3 = 0.24, limit 0.24 * 4/3 = 0.32 < 1/3: slides at 0.32
  // (not at mu_k: the strength reached so far), and keeps the normal change.
  const PairContactResult<2> part = node.resolve_after_slip(weakening_law(), 0.3e-3);
  EXPECT_FALSE(part.sticking);
  EXPECT_NEAR(part.momentum_change_a.y(), -0.32, kRoundOff);
  EXPECT_NEAR(part.momentum_change_a.x(), -4.0 / 3.0, kRoundOff);
  // Past D_c: mu_k, limit 0.1 * 4/3.
  const PairContactResult<2> full = node.resolve_after_slip(weakening_law(), 5e-3);
  EXPECT_NEAR(full.momentum_change_a.y(), -0.4 / 3.0, kRoundOff);
}

TEST(SlipWeakening, WithoutASlipHistoryOrWithZeroDistanceTheDropIsSharp) {
  // Static ratio 0.3 >= 0.25: both stick. Make the trial exceed mu_s (mu_s = 0.2 < 0.25): the
  // sharp law slides at mu_k N dt = 0.4/3 even when the node has not slipped yet.
  const StandardNode node;
  ContactLawSpec l = law(ContactLaw::Coulomb, 0.1, 0.2);
  EXPECT_NEAR(node.resolve(l).momentum_change_a.y(), -0.4 / 3.0, kRoundOff);
  l.slip_weakening_distance = 0.0;
  EXPECT_NEAR(node.resolve_after_slip(l, 0.0).momentum_change_a.y(), -0.4 / 3.0, kRoundOff);
  // With weakening the first slip is at mu_s: 0.2 * 4/3.
  l.slip_weakening_distance = 1e-3;
  EXPECT_NEAR(node.resolve_after_slip(l, 0.0).momentum_change_a.y(), -0.8 / 3.0, kRoundOff);
}

TEST(SlipWeakening, TheDefaultDistanceIsOnePercentOfTheSmallestCell) {
  ContactLawSpec l = law(ContactLaw::Coulomb, 0.1, 0.3);
  EXPECT_DOUBLE_EQ(slip_weakening_distance<2>(l, Vec2(0.004, 0.002)), 2e-5);
  l.slip_weakening_distance = 0.0;
  EXPECT_DOUBLE_EQ(slip_weakening_distance<2>(l, Vec2(0.004, 0.002)), 0.0);
}

TEST(CoulombContact, AdhesionAddsAAcDtToTheTangentialLimit) {
  // V_a = V_b = 0.5 in a unit cell: Ac = sqrt(2 * 0.5 * 1) / 1 = 1 m^2; dt = 0.01 s.
  // A = 5 Pa: limit 4/15 + 0.05 = 0.31667 < 1/3 -> slides at it.
  const StandardNode node;
  const PairContactResult<2> slid = node.resolve(law(ContactLaw::Coulomb, 0.2, std::nullopt, 5.0));
  EXPECT_NEAR(slid.momentum_change_a.y(), -(4.0 / 15.0 + 0.05), kRoundOff);
  // A = 7 Pa: limit 0.33667 >= 1/3 -> sticks.
  const PairContactResult<2> held = node.resolve(law(ContactLaw::Coulomb, 0.2, std::nullopt, 7.0));
  EXPECT_NEAR(held.momentum_change_a.y(), -1.0 / 3.0, kRoundOff);
}

TEST(CoulombContact, AdhesionDoesNotHoldSeparatingFields) {
  StandardNode node;
  node.a.momentum = Vec2(-2.0, 1.0);
  EXPECT_FALSE(node.resolve(law(ContactLaw::Coulomb, 0.2, std::nullopt, 1e6)).in_contact);
}

TEST(RigidPartner, IsNotChangedAndImposesItsNormalVelocity) {
  // a: 2 kg at (1, 0.5); rigid b at (-1, 0) (mass is only a weight). s = m_a v_b - p_a = (-4, -1),
  // m_red = m_a = 2. Coulomb mu = 0.2: N dt = 4, limit 0.8 < s_t = 1 -> dp = (-4, -0.8);
  // W = 0.8 (2 - 0.8) / 4 = 0.24 J.
  ContactField<2> a = field<2>(2.0, Vec2(1.0, 0.5));
  a.displacement = Vec2(1e-3, 0.0);
  ContactField<2> wall = field<2>(0.37, Vec2(-1.0, 0.0));
  wall.rigid = true;
  const PairContactResult<2> r = resolve_contact_pair<2>(a, wall, Vec2(1, 0), law(ContactLaw::Coulomb, 0.2),
                                                         detection(), kCell2, ContactStage::AfterExtrapolation);
  ASSERT_TRUE(r.in_contact);
  EXPECT_NEAR((r.momentum_change_a - Vec2(-4.0, -0.8)).norm(), 0.0, kRoundOff);
  EXPECT_EQ(r.momentum_change_b, Vec2::Zero());
  EXPECT_NEAR((a.momentum + r.momentum_change_a).x() / a.mass, -1.0, kRoundOff);  // the wall's normal velocity
  EXPECT_NEAR(r.frictional_work, 0.24, kRoundOff);
}

TEST(RigidPartner, GivesTheSameChangeWhenTheRigidFieldIsA) {
  // The same node with the roles swapped: the rigid field is a, the normal out of it is -x.
  ContactField<2> deformable = field<2>(2.0, Vec2(1.0, 0.5));
  deformable.displacement = Vec2(1e-3, 0.0);
  ContactField<2> wall = field<2>(0.37, Vec2(-1.0, 0.0));
  wall.rigid = true;
  const PairContactResult<2> r = resolve_contact_pair<2>(wall, deformable, Vec2(-1, 0), law(ContactLaw::Coulomb, 0.2),
                                                         detection(), kCell2, ContactStage::AfterExtrapolation);
  ASSERT_TRUE(r.in_contact);
  EXPECT_EQ(r.momentum_change_a, Vec2::Zero());
  EXPECT_NEAR((r.momentum_change_b - Vec2(-4.0, -0.8)).norm(), 0.0, kRoundOff);
  EXPECT_NEAR(r.frictional_work, 0.24, kRoundOff);
}

TEST(RigidPartner, TwoRigidFieldsDoNotInteract) {
  ContactField<2> a = field<2>(1.0, Vec2(1.0, 0.0)), b = field<2>(1.0, Vec2(-1.0, 0.0));
  a.rigid = b.rigid = true;
  a.displacement = Vec2(1e-3, 0.0);
  EXPECT_FALSE(resolve_contact_pair<2>(a, b, Vec2(1, 0), law(ContactLaw::Stick), detection(), kCell2,
                                       ContactStage::AfterExtrapolation)
                   .in_contact);
}

TEST(CoulombContact, SlidesIn3D) {
  // a (1 kg, (1, 2, 0.5)) under b (3 kg, (0, 0, -0.5)), n = +z. m_red = 3/4,
  // s = (3/4)(-1, -2, -1); dotn = -0.75; s_t = 0.75 sqrt(5) along -(1, 2, 0)/sqrt(5).
  // mu = 0.5: limit 0.375 -> dp = (0, 0, -0.75) + 0.375 t.
  ContactField<3> a = field<3>(1.0, Vec3(1.0, 2.0, 0.5)), b = field<3>(3.0, Vec3(0.0, 0.0, -0.5));
  a.displacement = Vec3(0, 0, 1e-4);
  const PairContactResult<3> r = resolve_contact_pair<3>(a, b, Vec3(0, 0, 1), law(ContactLaw::Coulomb, 0.5),
                                                         detection(), kCell3, ContactStage::AfterExtrapolation);
  ASSERT_TRUE(r.in_contact);
  const Vec3 t = -Vec3(1, 2, 0) / std::sqrt(5.0);
  EXPECT_NEAR((r.momentum_change_a - (Vec3(0, 0, -0.75) + 0.375 * t)).norm(), 0.0, kRoundOff);
  EXPECT_EQ(r.momentum_change_b, -r.momentum_change_a);
  // Hand: W = S (2 s_t - S) / (2 m_red) = 0.375 (1.5 sqrt5 - 0.375) / 1.5.
  EXPECT_NEAR(r.frictional_work, 0.375 * (1.5 * std::sqrt(5.0) - 0.375) / 1.5, kRoundOff);
}

TEST(ContactPair, ANonUnitNormalIsNormalisedAndAZeroNormalGivesNoContact) {
  const StandardNode node;
  const PairContactResult<2> scaled =
      resolve_contact_pair<2>(node.a, node.b, Vec2(7, 0), law(ContactLaw::Frictionless), detection(), kCell2,
                              ContactStage::AfterExtrapolation);
  EXPECT_NEAR((scaled.momentum_change_a - Vec2(-4.0 / 3.0, 0.0)).norm(), 0.0, kRoundOff);
  const PairContactResult<2> none =
      resolve_contact_pair<2>(node.a, node.b, Vec2::Zero(), law(ContactLaw::Stick), detection(), kCell2,
                              ContactStage::AfterExtrapolation);
  EXPECT_FALSE(none.in_contact);
  EXPECT_EQ(none.momentum_change_a, Vec2::Zero());
}

TEST(ContactPair, TheMomentumUpdateStageExtrapolatesTheSeparation) {
  // 0.1 mm gap at the start of the step; after the update the fields close at (v_b - v_a).n = -0.4
  // m/s: deln = 1e-4 + 0.01 (-0.2) / 0.5 = -3.9e-3 < 0 -> contact in the second call only.
  ContactField<2> a = field<2>(1.0, Vec2(0.2, 0.0)), b = field<2>(1.0, Vec2(-0.2, 0.0));
  b.displacement = Vec2(1e-4, 0.0);
  EXPECT_FALSE(resolve_contact_pair<2>(a, b, Vec2(1, 0), law(ContactLaw::Frictionless), detection(), kCell2,
                                       ContactStage::AfterExtrapolation)
                   .in_contact);
  EXPECT_TRUE(resolve_contact_pair<2>(a, b, Vec2(1, 0), law(ContactLaw::Frictionless), detection(), kCell2,
                                      ContactStage::AfterMomentumUpdate)
                  .in_contact);
}

TEST(ImperfectInterface, ActsOnlyInTheMomentumUpdateWithSpringForcesOnTheOpening) {
  // Opening u_b - u_a = (1e-3, 2e-3), n = +x, Ac = 1, D_n = 1e3, D_t = 2e3, dt = 0.01:
  // dp = dt Ac (D_n 1e-3, D_t 2e-3) = (0.01, 0.04); energy (1e3 1e-6 + 2e3 4e-6) / 2 = 4.5e-3 J.
  // Stability: k dt^2 / m_red = 2e3 * 1e-4 / 0.5 = 0.4 < 2.47.
  ContactField<2> a = field<2>(1.0, Vec2(0.3, -0.1)), b = field<2>(1.0, Vec2(0.0, 0.0));
  b.displacement = Vec2(1e-3, 2e-3);
  ContactLawSpec springs = law(ContactLaw::ImperfectInterface);
  springs.normal_stiffness = 1e3;
  springs.tangential_stiffness = 2e3;
  const PairContactResult<2> first = resolve_contact_pair<2>(a, b, Vec2(1, 0), springs, detection(), kCell2,
                                                             ContactStage::AfterExtrapolation);
  EXPECT_TRUE(first.in_contact);
  EXPECT_EQ(first.momentum_change_a, Vec2::Zero());
  const PairContactResult<2> second = resolve_contact_pair<2>(a, b, Vec2(1, 0), springs, detection(), kCell2,
                                                              ContactStage::AfterMomentumUpdate);
  EXPECT_NEAR((second.momentum_change_a - Vec2(0.01, 0.04)).norm(), 0.0, kRoundOff);
  EXPECT_EQ(second.momentum_change_b, -second.momentum_change_a);
  EXPECT_NEAR(second.interface_energy, 4.5e-3, 1e-17);
  EXPECT_EQ(second.frictional_work, 0.0);
}

TEST(ImperfectInterface, ATooStiffSpringBondsThatDirectionPerfectly) {
  // D_n = 1e9: k dt^2 / m_red = 1e9 * 1e-4 / 0.5 >> 2.47 -> normal stick change, in both stages;
  // s = 0.5 ((0, 0) - (0.3, -0.1)) = (-0.15, 0.05); the tangential spring (D_t = 0) adds nothing.
  ContactField<2> a = field<2>(1.0, Vec2(0.3, -0.1)), b = field<2>(1.0, Vec2(0.0, 0.0));
  ContactLawSpec springs = law(ContactLaw::ImperfectInterface);
  springs.normal_stiffness = 1e9;
  const PairContactResult<2> r = resolve_contact_pair<2>(a, b, Vec2(1, 0), springs, detection(), kCell2,
                                                         ContactStage::AfterExtrapolation);
  EXPECT_NEAR((r.momentum_change_a - Vec2(-0.15, 0.0)).norm(), 0.0, kRoundOff);
}

// Deterministic pseudo-random node states for the conservation tests.
struct Random {
  std::uint64_t state = 2024;
  double operator()(double lo, double hi) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (static_cast<double>(state >> 11) / 9007199254740992.0);
  }
};

template <int Dim>
Vec<Dim> random_vec(Random& rng, double scale) {
  Vec<Dim> v;
  for (int d = 0; d < Dim; ++d) v[d] = rng(-scale, scale);
  return v;
}

template <int Dim>
void check_conservation(int states, bool rigid_b) {
  Random rng;
  const NodeContext<Dim> ctx{Vec<Dim>::Ones(), 1.0, 1e-3};
  int in_contact = 0;
  for (int k = 0; k < states; ++k) {
    ContactField<Dim> a = field<Dim>(rng(0.01, 5.0), random_vec<Dim>(rng, 3.0), rng(0.1, 0.9));
    ContactField<Dim> b = field<Dim>(rng(0.01, 5.0), random_vec<Dim>(rng, 3.0), rng(0.1, 0.9));
    b.rigid = rigid_b;
    a.displacement = random_vec<Dim>(rng, 1e-3);
    const Vec<Dim> n = random_vec<Dim>(rng, 1.0).normalized();
    const ContactLawSpec coulomb = law(ContactLaw::Coulomb, rng(0.0, 0.8), std::nullopt, rng(0.0, 50.0));
    const PairContactResult<Dim> r =
        resolve_contact_pair<Dim>(a, b, n, coulomb, detection(), ctx, ContactStage::AfterExtrapolation);
    if (!r.in_contact) continue;
    ++in_contact;
    if (!rigid_b) {
      // Linear momentum: the pair's total after equals the total before (round-off of the sum).
      const Vec<Dim> before = a.momentum + b.momentum;
      const Vec<Dim> after = (a.momentum + r.momentum_change_a) + (b.momentum + r.momentum_change_b);
      const double scale = a.momentum.norm() + b.momentum.norm() + r.momentum_change_a.norm();
      EXPECT_LE((after - before).norm(), 1e-14 * scale) << k;
    } else {
      EXPECT_EQ(r.momentum_change_b, Vec<Dim>::Zero());
    }
    // Frictional work = kinetic energy lost beyond the frictionless outcome of the same node.
    const PairContactResult<Dim> smooth =
        resolve_contact_pair<Dim>(a, b, n, law(ContactLaw::Frictionless), detection(), ctx,
                                  ContactStage::AfterExtrapolation);
    ASSERT_TRUE(smooth.in_contact);
    double lost;
    if (!rigid_b) {
      lost = (kinetic_energy(a, smooth.momentum_change_a) + kinetic_energy(b, smooth.momentum_change_b)) -
             (kinetic_energy(a, r.momentum_change_a) + kinetic_energy(b, r.momentum_change_b));
    } else {
      // In the rigid body's frame (the frame in which the rigid body does no work).
      ContactField<Dim> a_rel = a;
      a_rel.momentum = a.momentum - a.mass * (b.momentum / b.mass);
      lost = kinetic_energy(a_rel, smooth.momentum_change_a) - kinetic_energy(a_rel, r.momentum_change_a);
    }
    const double energy_scale = kinetic_energy<Dim>(a, Vec<Dim>::Zero()) + (rigid_b ? 0.0 : kinetic_energy<Dim>(b, Vec<Dim>::Zero()));
    EXPECT_NEAR(r.frictional_work, lost, 1e-13 * energy_scale) << k;
    EXPECT_GE(r.frictional_work, 0.0);
  }
  EXPECT_GT(in_contact, states / 8);  // the sample did exercise the laws
}

TEST(Conservation, MomentumIsExchangedEqualAndOppositeAndFrictionalWorkIsTheEnergyLostIn2D) {
  check_conservation<2>(2000, false);
}
TEST(Conservation, MomentumIsExchangedEqualAndOppositeAndFrictionalWorkIsTheEnergyLostIn3D) {
  check_conservation<3>(2000, false);
}
TEST(Conservation, FrictionalWorkIsTheEnergyLostInTheRigidFrameWithARigidPartner) {
  check_conservation<2>(1000, true);
  check_conservation<3>(1000, true);
}

}  // namespace
}  // namespace tribo::mpm
