// Crack fields (crack_fields.hpp) and crack contact (crack_contact.hpp) on a small grid: which
// field a particle uses at each node of its stencil, and a node's crack fields in, momentum
// changes out. References: hand-drawn configurations and hand-computed momenta (in the comments),
// conservation of momentum.
#include "tribo/mpm/crack_contact.hpp"

#include <gtest/gtest.h>

#include "tribo/mpm/crack_fields.hpp"
#include "tribo/mpm/shape_function.hpp"

namespace tribo::mpm {
namespace {

// 8 x 8 nodes of 1 m; a horizontal crack along y = 1.5 from x = 0.2 to 2.8 (direction +x, so
// "above" is +y). Particle 0 is above it at (1.25, 1.75), particle 1 below at (1.25, 1.25), and
// particle 2 far away at (6.5, 6.5).
struct CrackedGrid {
  Grid<2> grid{Vec2(0, 0), Vec2(7, 7), Vec2(1, 1)};
  std::vector<Crack> cracks;
  std::vector<Vec2> positions{Vec2(1.25, 1.75), Vec2(1.25, 1.25), Vec2(6.5, 6.5)};
  CrackFields<2> fields;
  int material_fields;

  explicit CrackedGrid(int F = 1) : material_fields(F) {
    CrackSpec spec;
    spec.points = {Vec3(0.2, 1.5, 0), Vec3(2.8, 1.5, 0)};
    cracks = build_cracks({spec}, 0.5);
    fields.allocate(grid, positions.size(), F);
    fields.assign<LinearShape>(grid, positions, 0.25, cracks);
  }
  long node(int i, int j) const { return grid.node_index(IVec<2>(i, j)); }
};

TEST(CrackFields, ParticleNodeLinesThatCrossTheCrackUseTheCrackField) {
  const CrackedGrid g(2);
  // Stencil order of the linear shape: (1,1), (2,1), (1,2), (2,2). The particle above crosses the
  // crack to the two nodes of row 1; the one below to the two of row 2. Each node sees one
  // (crack, side), so it goes to field [1]: offset 1 x F = 2.
  const int* above = g.fields.offsets(0);
  const int* below = g.fields.offsets(1);
  ASSERT_NE(above, nullptr);
  ASSERT_NE(below, nullptr);
  EXPECT_EQ(above[0], 2);
  EXPECT_EQ(above[1], 2);
  EXPECT_EQ(above[2], 0);
  EXPECT_EQ(above[3], 0);
  EXPECT_EQ(below[0], 0);
  EXPECT_EQ(below[1], 0);
  EXPECT_EQ(below[2], 2);
  EXPECT_EQ(below[3], 2);
  // A particle whose cell is far from every crack has no table: field [0] everywhere.
  EXPECT_EQ(g.fields.offsets(2), nullptr);
  // Row 1 holds the material above in its field [1] (combination 2 crack + above = 0), row 2 the
  // material below (combination 1).
  EXPECT_EQ(g.fields.combination_of_field(g.node(1, 1), 1), 0);
  EXPECT_EQ(g.fields.combination_of_field(g.node(2, 2), 1), 1);
  EXPECT_EQ(g.fields.combination_of_field(g.node(1, 1), 2), -1);
  EXPECT_EQ(g.fields.field_of_combination(g.node(1, 1), 0), 1);
  EXPECT_EQ(g.fields.field_of_combination(g.node(1, 1), 1), -1);
  EXPECT_FALSE(g.fields.node_sees_crack(g.node(5, 5)));
}

// Node (1, 1), below the crack: field [0] holds the material below, [1] the material above.
struct CrackNode {
  CrackedGrid g;
  NodeFields<2> nodes;
  long n;
  CrackNode(const Vec2& v_below, const Vec2& v_above, double m_below = 2.0, double m_above = 1.0) : g(1) {
    nodes.allocate(g.grid.node_count(), kCrackFields);
    n = g.node(1, 1);
    set(0, m_below, v_below, Vec2(0, 1e-4));    // displaced up
    set(1, m_above, v_above, Vec2(0, -1e-4));   // displaced down: overlapping
  }
  void set(int field, double m, const Vec2& v, const Vec2& u) {
    const long i = n * kCrackFields + field;
    nodes.mass[i] = m;
    nodes.momentum[i] = m * v;
    nodes.volume[i] = 0.5;
    nodes.mass_displacement[i] = m * u;
    nodes.mass_position[i] = m * g.grid.node_position(n);
  }
  Vec2 momentum(int field) const { return nodes.momentum[n * kCrackFields + field]; }
  void contact(const ContactLawSpec& law, CrackContactAccumulator<2>* record) {
    g.cracks[0].law = law;
    apply_crack_contact<2>(nodes, g.grid, 1, {false}, g.cracks, g.fields, MpmContactSpec{}, 1e-3,
                           ContactStage::AfterExtrapolation, record);
  }
};

TEST(CrackContact, ApproachingFacesTakeTheirCommonNormalVelocityFrictionless) {
  // Below: 2 kg at (0.5, 1); above: 1 kg at (0, -1). Normal +y (out of [0], below, toward [1]).
  // Normal centre-of-mass velocity (2 - 1) / 3 = 1/3: dp_below = 2 (1/3 - 1) = -4/3 along y; the
  // tangential velocities are kept (frictionless).
  CrackNode node(Vec2(0.5, 1.0), Vec2(0.0, -1.0));
  CrackContactAccumulator<2> record;
  record.resize(1);
  const Vec2 total = node.momentum(0) + node.momentum(1);
  node.contact(ContactLawSpec{ContactLaw::Frictionless}, &record);
  EXPECT_NEAR(node.momentum(0)[0], 1.0, 1e-14);
  EXPECT_NEAR(node.momentum(0)[1], 2.0 / 3.0, 1e-14);
  EXPECT_NEAR(node.momentum(1)[0], 0.0, 1e-14);
  EXPECT_NEAR(node.momentum(1)[1], 1.0 / 3.0, 1e-14);
  EXPECT_NEAR((node.momentum(0) + node.momentum(1) - total).norm(), 0.0, 1e-14);
  // The impulse on the material above from below: +4/3 along y.
  EXPECT_NEAR(record.impulse[0][0], 0.0, 1e-14);
  EXPECT_NEAR(record.impulse[0][1], 4.0 / 3.0, 1e-14);
}

TEST(CrackContact, SeparatingFacesAreLeftAlone) {
  CrackNode node(Vec2(0.5, -1.0), Vec2(0.0, 1.0));
  const Vec2 below = node.momentum(0), above = node.momentum(1);
  node.contact(ContactLawSpec{ContactLaw::Stick}, nullptr);
  EXPECT_EQ(node.momentum(0), below);
  EXPECT_EQ(node.momentum(1), above);
}

TEST(CrackContact, TheDisplacementCheckIsAlwaysOn) {
  // Approaching but apart (the face above is displaced up, the one below down): no contact, even
  // though the deck's contact settings (the default here) could turn the check off for materials.
  CrackNode node(Vec2(0.0, 1.0), Vec2(0.0, -1.0));
  node.set(0, 2.0, Vec2(0.0, 1.0), Vec2(0, -1e-4));
  node.set(1, 1.0, Vec2(0.0, -1.0), Vec2(0, 1e-4));
  MpmContactSpec no_check;
  no_check.displacement_check = false;
  node.g.cracks[0].law = ContactLawSpec{ContactLaw::Frictionless};
  apply_crack_contact<2>(node.nodes, node.g.grid, 1, {false}, node.g.cracks, node.g.fields, no_check, 1e-3,
                         ContactStage::AfterExtrapolation, nullptr);
  EXPECT_EQ(node.momentum(0), Vec2(0.0, 2.0));
  EXPECT_EQ(node.momentum(1), Vec2(0.0, -1.0));
}

TEST(CrackContact, CoulombCapsTheTangentialChangeAtMuTimesTheNormalOne) {
  // Stick change s = m_red (v_above - v_below) with m_red = 2/3: v_rel = (-2, -2) -> s = (-4/3,
  // -4/3); normal part -4/3, tangential 4/3 > mu 4/3 = 0.4: slides with dp_t = -0.4 along x.
  CrackNode node(Vec2(1.0, 1.0), Vec2(-1.0, -1.0));
  CrackContactAccumulator<2> record;
  record.resize(1);
  node.contact(ContactLawSpec{ContactLaw::Coulomb, 0.3}, &record);
  const Vec2 dp_below = node.momentum(0) - Vec2(2.0, 2.0);
  EXPECT_NEAR(dp_below[1], -4.0 / 3.0, 1e-14);
  EXPECT_NEAR(dp_below[0], -0.4, 1e-14);
  EXPECT_NEAR(std::abs(record.impulse[0][0]) / record.impulse[0][1], 0.3, 1e-14);
  EXPECT_GT(record.frictional_work, 0.0);
}

TEST(CrackContact, StiffImperfectInterfaceBondsTheFacesEvenWhenTheySeparate) {
  // Springs of 1e12 Pa/m on the node's contact area (sqrt(2 min(V) (V_a + V_b)) / h = 1 m^2) are
  // too stiff for dt = 1 ms and the reduced mass 2/3 kg (D A dt^2 > (pi/2)^2 m_red), so the faces
  // are bonded: both take the centre-of-mass velocity ((1, -2) + (0, 1)) / 3 = (1/3, -1/3), though
  // they separate (no contact detection for this law).
  CrackNode node(Vec2(0.5, -1.0), Vec2(0.0, 1.0));
  ContactLawSpec springs{ContactLaw::ImperfectInterface};
  springs.normal_stiffness = springs.tangential_stiffness = 1e12;
  node.contact(springs, nullptr);
  EXPECT_NEAR(node.momentum(0)[0], 2.0 / 3.0, 1e-14);
  EXPECT_NEAR(node.momentum(0)[1], -2.0 / 3.0, 1e-14);
  EXPECT_NEAR(node.momentum(1)[0], 1.0 / 3.0, 1e-14);
  EXPECT_NEAR(node.momentum(1)[1], -1.0 / 3.0, 1e-14);
}

TEST(CrackContact, StickBondsApproachingFacesInBothDirections) {
  // Stick while in contact: the centre-of-mass velocity ((1, 2) + (-1, -1)) / 3 = (0, 1/3).
  CrackNode node(Vec2(0.5, 1.0), Vec2(-1.0, -1.0));
  node.contact(ContactLawSpec{ContactLaw::Stick}, nullptr);
  EXPECT_NEAR(node.momentum(0)[0], 0.0, 1e-14);
  EXPECT_NEAR(node.momentum(0)[1], 2.0 / 3.0, 1e-14);
  EXPECT_NEAR(node.momentum(1)[0], 0.0, 1e-14);
  EXPECT_NEAR(node.momentum(1)[1], 1.0 / 3.0, 1e-14);
}

TEST(CrackContact, SharesTheChangeAmongTheMaterialsOfACrackField) {
  // Two material fields (F = 2) in the crack field below: 1 kg each at (0, 1) and (0, 0.5); the
  // field above 1 kg at (0, -1). Lumped below: 2 kg at (0, 0.75); common normal velocity
  // (1.5 - 1) / 3 = 1/6: dp_below = 2 (1/6 - 0.75) = -7/6, the same velocity change -7/12 for each
  // material.
  CrackedGrid g(2);
  NodeFields<2> nodes;
  nodes.allocate(g.grid.node_count(), 2 * kCrackFields);
  const long n = g.node(1, 1);
  const auto set = [&](int entry, double m, double vy, double uy) {
    const long i = n * 2 * kCrackFields + entry;
    nodes.mass[i] = m;
    nodes.momentum[i] = m * Vec2(0, vy);
    nodes.volume[i] = 0.25;
    nodes.mass_displacement[i] = m * Vec2(0, uy);
  };
  set(0, 1.0, 1.0, 1e-4);   // crack field 0, material 0
  set(1, 1.0, 0.5, 1e-4);   // crack field 0, material 1
  set(2, 1.0, -1.0, -1e-4);  // crack field 1, material 0
  apply_crack_contact<2>(nodes, g.grid, 2, {false, false}, g.cracks, g.fields, MpmContactSpec{}, 1e-3,
                         ContactStage::AfterExtrapolation, nullptr);
  const long base = n * 2 * kCrackFields;
  EXPECT_NEAR(nodes.momentum[base + 0][1], 1.0 - 7.0 / 12.0, 1e-14);
  EXPECT_NEAR(nodes.momentum[base + 1][1], 0.5 - 7.0 / 12.0, 1e-14);
  EXPECT_NEAR(nodes.momentum[base + 2][1], -1.0 + 7.0 / 6.0, 1e-14);
}

}  // namespace
}  // namespace tribo::mpm
