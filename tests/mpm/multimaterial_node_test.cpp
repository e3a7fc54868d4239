// The node pass of multimaterial contact (apply_multimaterial_contact) on hand-built nodes:
//   - three or more fields at a node: each deformable field against the others lumped (Nairn et
//     al. 2018). With the stick law every field ends at the centre-of-mass velocity of the node and
//     momentum is conserved exactly (sum of m_a (v_cm - v_a) is zero); a rigid field among them
//     stands for all: the deformable fields take its velocity and it is not moved;
//   - the slip history of slip-weakening static friction (docs/mpm-contact.md): a sliding node
//     adds |v_t| dt of the tangential relative velocity the law leaves, the coefficient weakens
//     linearly from mu_s to mu_k over D_c, a sticking node heals to zero, a node left with one
//     field resets, and only the pass after the momentum update advances it.
// The expected values are the closed forms written next to each check, not the code's output.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "tribo/mpm/multimaterial_contact.hpp"

namespace tribo::mpm {
namespace {

// One 2D cell (2 x 2 nodes); everything happens at node 0, the other nodes are empty.
struct OneNode {
  Grid<2> grid{Vec<2>(0, 0), Vec<2>(1, 1), Vec<2>(1, 1)};
  NodeFields<2> nodes;
  FieldLayout layout;
  MpmContactSpec settings;
  double dt = 1e-3;

  OneNode(int fields, const ContactLawSpec& law, std::vector<bool> rigid) {
    nodes.allocate(grid.node_count(), fields);
    layout.fields = fields;
    layout.rigid_field = std::move(rigid);
    layout.pair_law.assign(fields * fields, law);
    layout.pair_has_law.assign(fields * fields, true);
    settings.normals = ContactNormalMethod::MaxGradient;
    settings.displacement_check = false;  // contact decided by the approach check alone
  }
  // Field f at node 0: mass m, velocity v, a full cell of volume, volume gradient g (out of f).
  void set(int f, double m, const Vec<2>& v, const Vec<2>& g) {
    nodes.mass[f] = m;
    nodes.momentum[f] = m * v;
    nodes.volume[f] = grid.cell_volume();
    nodes.volume_gradient[f] = g;
  }
  Vec<2> velocity(int f) const { return nodes.momentum[f] / nodes.mass[f]; }
  void pass(ContactStage stage, SlipHistory* history = nullptr, const std::vector<long>* candidates = nullptr) {
    apply_multimaterial_contact<2>(nodes, grid, layout, settings, dt, stage, nullptr, nullptr, history, nullptr,
                                   nullptr, 1.0, std::nullopt, candidates);
  }
};

ContactLawSpec stick() {
  ContactLawSpec law;
  law.law = ContactLaw::Stick;
  return law;
}

// A (left, surface facing +x) and C (right, facing -x) close on B (below, facing +y) from three
// directions; with MaxGradient each field's normal toward the lumped others is closing:
//   B: n = g_B = (0,1), v_o - v_B = (0,-1)                       -> approaching
//   A: n = -(g_B + g_C)/|.| = (1,-1)/sqrt2, v_o - v_A = (-3, 0.5)  -> approaching
//   C: n = -(g_A + g_B)/|.| = -(1,1)/sqrt2, v_o - v_C = (3, 0.5)   -> approaching
// so all three stick, to v_cm = (sum m v) / (sum m).
TEST(MultimaterialNode, ThreeFieldsStickToTheirCentreOfMassVelocityConservingMomentum) {
  OneNode node(3, stick(), {false, false, false});
  node.set(0, 2.0, Vec<2>(2, 0), Vec<2>(1, 0));    // A
  node.set(1, 1.0, Vec<2>(0, 1), Vec<2>(0, 1));    // B
  node.set(2, 3.0, Vec<2>(-2, 0), Vec<2>(-1, 0));  // C
  const Vec<2> total = node.nodes.momentum[0] + node.nodes.momentum[1] + node.nodes.momentum[2];
  const Vec<2> v_cm = total / 6.0;  // (4 - 6, 1) / 6
  node.pass(ContactStage::AfterExtrapolation);
  const Vec<2> after = node.nodes.momentum[0] + node.nodes.momentum[1] + node.nodes.momentum[2];
  // Round-off of a handful of additions on momenta of order 6 kg m/s.
  EXPECT_LT((after - total).norm(), 1e-14);
  for (int f = 0; f < 3; ++f) EXPECT_LT((node.velocity(f) - v_cm).norm(), 1e-14) << "field " << f;
}

// Two deformable fields on a moving rigid floor (field 2, velocity (0.5, 0)) at one node: each
// deformable field's partner is "the others", and the rigid field among them stands for all, so
// each takes the floor's velocity; the floor's momentum is imposed and does not change.
TEST(MultimaterialNode, ARigidFieldAmongThreeImposesItsVelocityOnTheOthers) {
  OneNode node(3, stick(), {false, false, true});
  node.set(0, 1.0, Vec<2>(1, -1), Vec<2>(0, -1));
  node.set(1, 2.0, Vec<2>(-1, -2), Vec<2>(0.2, -1));
  node.set(2, 1.0, Vec<2>(0.5, 0), Vec<2>(0, 1));
  const Vec<2> floor_momentum = node.nodes.momentum[2];
  node.pass(ContactStage::AfterExtrapolation);
  EXPECT_LT((node.velocity(0) - Vec<2>(0.5, 0)).norm(), 1e-15);
  EXPECT_LT((node.velocity(1) - Vec<2>(0.5, 0)).norm(), 1e-15);
  EXPECT_EQ(node.nodes.momentum[2], floor_momentum);
}

// A field that recedes from the others is left alone while the two that close on each other
// stick, each to the centre-of-mass velocity of the whole node (the lumped partner includes the
// receding field): docs/mpm-contact.md, "Three or more fields" - the stick changes sum to zero only
// when every field is in contact, so here momentum is not conserved, the known cost of lumping
// that NairnMPM accepts for rare 3-material nodes. A is light (0.1 kg), so the lumps stay closing:
//   A against B + C: g_B + g_C = 0, n = g_A = +x, v_o - v_A = (5, 0): separating -> untouched
//   B against A + C: n = -(g_A + g_C)/|.| = (-0.3, 1)/1.044, v_o - v_B = (-0.4545, -1.909): closing
//   C against A + B: n = -(g_A + g_B)/|.| = (-0.3, -1)/1.044, v_o - v_C = (-0.4545, 1.909): closing
TEST(MultimaterialNode, ARecedingFieldAmongThreeIsLeftAloneWhileTheOthersStick) {
  OneNode node(3, stick(), {false, false, false});
  node.set(0, 0.1, Vec<2>(-5, 0), Vec<2>(0.3, 0));  // A, moving away along its outward normal
  node.set(1, 1.0, Vec<2>(0, 1), Vec<2>(0, 1));     // B below C, moving up
  node.set(2, 1.0, Vec<2>(0, -1), Vec<2>(0, -1));   // C above B, moving down
  const Vec<2> a_before = node.nodes.momentum[0];
  const Vec<2> v_cm = (node.nodes.momentum[0] + node.nodes.momentum[1] + node.nodes.momentum[2]) / 2.1;
  node.pass(ContactStage::AfterExtrapolation);
  EXPECT_EQ(node.nodes.momentum[0], a_before);
  EXPECT_LT((node.velocity(1) - v_cm).norm(), 1e-15);
  EXPECT_LT((node.velocity(2) - v_cm).norm(), 1e-15);
}

// --- slip history (two fields: a block field over a rigid floor at rest) ---

constexpr double mu_s = 0.6, mu_k = 0.2, D_c = 1e-4;

ContactLawSpec weakening_coulomb() {
  ContactLawSpec law;
  law.law = ContactLaw::Coulomb;
  law.friction = mu_k;
  law.static_friction = mu_s;
  law.slip_weakening_distance = D_c;
  return law;
}

// Block field 0 (mass 1, surface facing -y) at velocity (v_t, -0.1) on the floor (field 1, at rest,
// surface facing +y): normal (0,-1) out of the block, normal impulse 0.1 N s to stop the approach.
OneNode block_on_floor(double v_t) {
  OneNode node(2, weakening_coulomb(), {false, true});
  node.set(0, 1.0, Vec<2>(v_t, -0.1), Vec<2>(0, -1));
  node.set(1, 1.0, Vec<2>(0, 0), Vec<2>(0, 1));
  return node;
}

// A slip history for the node's grid with `slip` at the block's entry of node 0.
SlipHistory history_with(const OneNode& node, double slip) {
  SlipHistory history;
  history.resize(node.nodes.nodes, 2);
  history.slip[0] = slip;
  return history;
}

TEST(MultimaterialNode, SlipAddsTheTangentialSlipTheLawLeavesTimesDt) {
  auto node = block_on_floor(1.0);
  SlipHistory history = history_with(node, 0.0);
  node.pass(ContactStage::AfterMomentumUpdate, &history);
  // Slip 0 so far: mu = mu_s. Friction impulse mu_s * 0.1 against v_t = 1 (the stick change, 1 N s,
  // exceeds it): v_t after = 1 - 0.06 = 0.94, v_n after = 0.
  EXPECT_NEAR(node.velocity(0).x(), 1.0 - mu_s * 0.1, 1e-14);
  EXPECT_NEAR(node.velocity(0).y(), 0.0, 1e-15);
  EXPECT_NEAR(history.slip[0], 0.94 * node.dt, 1e-16);
  EXPECT_EQ(history.slip[1], 0.0);  // the pair's state lives with the deformable field

  // Half of D_c slipped: mu = mu_s - (mu_s - mu_k) / 2 = 0.4 on the next approach.
  history.slip[0] = 0.5 * D_c;
  auto again = block_on_floor(1.0);
  again.pass(ContactStage::AfterMomentumUpdate, &history);
  EXPECT_NEAR(again.velocity(0).x(), 1.0 - 0.4 * 0.1, 1e-14);
  EXPECT_NEAR(history.slip[0], 0.5 * D_c + 0.96 * again.dt, 1e-15);

  // Past D_c the kinetic coefficient holds.
  history.slip[0] = 3 * D_c;
  auto slid = block_on_floor(1.0);
  slid.pass(ContactStage::AfterMomentumUpdate, &history);
  EXPECT_NEAR(slid.velocity(0).x(), 1.0 - mu_k * 0.1, 1e-14);
}

TEST(MultimaterialNode, AStickingNodeHealsItsSlip) {
  // v_t = 0.01: the stick change 0.01 N s is below mu N = 0.4 * 0.1 at slip D_c / 2: it sticks.
  auto node = block_on_floor(0.01);
  SlipHistory history = history_with(node, 0.5 * D_c);
  node.pass(ContactStage::AfterMomentumUpdate, &history);
  EXPECT_NEAR(node.velocity(0).x(), 0.0, 1e-15);
  EXPECT_EQ(history.slip[0], 0.0);
}

TEST(MultimaterialNode, OnlyThePassAfterTheMomentumUpdateAdvancesTheSlip) {
  auto node = block_on_floor(1.0);
  SlipHistory history = history_with(node, 0.5 * D_c);
  node.pass(ContactStage::AfterExtrapolation, &history);
  EXPECT_EQ(history.slip[0], 0.5 * D_c);  // read (mu = 0.4), not advanced
  EXPECT_NEAR(node.velocity(0).x(), 1.0 - 0.4 * 0.1, 1e-14);
}

TEST(MultimaterialNode, ANodeLeftWithOneFieldForgetsItsSlip) {
  auto node = block_on_floor(1.0);
  node.nodes.mass[1] = 0.0;  // the floor field left the node
  node.nodes.momentum[1].setZero();
  SlipHistory history = history_with(node, 0.5 * D_c);
  history.slip[1] = 0.25 * D_c;
  node.pass(ContactStage::AfterMomentumUpdate, &history);
  EXPECT_EQ(history.slip[0], 0.0);
  EXPECT_EQ(history.slip[1], 0.0);
  EXPECT_EQ(node.velocity(0), Vec<2>(1.0, -0.1));  // no partner: no contact
}

// The pass over the caller's candidate nodes (those where two fields hold mass) gives what the
// pass over every node gives: the contact at the candidates, and no slip anywhere else. A node that
// slipped and then left the list (its floor field gone) forgets its slip, as a visited node
// with one field would; so does a node whose slip came from a restored state (`anywhere`).
TEST(MultimaterialNode, APassOverTheCandidateNodesForgetsTheSlipOfTheNodesItLeavesOut) {
  const std::vector<long> node_zero{0}, none{};
  auto node = block_on_floor(1.0);
  SlipHistory history = history_with(node, 0.0);
  history.slip[2 * 3] = 0.3 * D_c;  // node 3's block entry, as a restored state might hold it
  node.pass(ContactStage::AfterMomentumUpdate, &history, &node_zero);
  EXPECT_NEAR(node.velocity(0).x(), 1.0 - mu_s * 0.1, 1e-14);  // as in SlipAddsTheTangentialSlip...
  EXPECT_NEAR(history.slip[0], 0.94 * node.dt, 1e-16);
  EXPECT_EQ(history.slip[2 * 3], 0.0);  // left out while the slip could be anywhere: forgotten
  EXPECT_FALSE(history.anywhere);
  ASSERT_EQ(history.nodes, node_zero);

  // The floor leaves node 0: it is no candidate any more, and its slip goes as in
  // ANodeLeftWithOneFieldForgetsItsSlip; the block's momentum is left alone.
  auto left = block_on_floor(1.0);
  left.nodes.mass[1] = 0.0;
  left.nodes.momentum[1].setZero();
  left.pass(ContactStage::AfterMomentumUpdate, &history, &none);
  EXPECT_EQ(history.slip[0], 0.0);
  EXPECT_EQ(left.velocity(0), Vec<2>(1.0, -0.1));
  EXPECT_TRUE(history.nodes.empty());

  // A pass that does not advance the slip reads it and changes neither the slip nor the list.
  history.slip[0] = 0.5 * D_c;
  history.nodes = node_zero;
  auto read = block_on_floor(1.0);
  read.pass(ContactStage::AfterExtrapolation, &history, &none);
  EXPECT_EQ(history.slip[0], 0.5 * D_c);
  EXPECT_EQ(history.nodes, node_zero);
  EXPECT_EQ(read.velocity(0), Vec<2>(1.0, -0.1));  // node 0 not visited: untouched
}

}  // namespace
}  // namespace tribo::mpm
