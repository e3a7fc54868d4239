// The particles around contact nodes for the logistic-regression normals (node_particles.hpp).
// The fit is only ever asked for between two deformable fields (contact_normal.cpp takes a rigid
// field's gradient), so only nodes where two deformable fields hold mass list their particles; with
// a rigid floor and one deformable body no particle is walked (issue 17: a 3D block on a rigid floor
// spent a third of its step listing particles for fits no pass read). Expected lists are built by
// hand from the particles placed, not read from the code.
#include <gtest/gtest.h>

#include <vector>

#include "tribo/mpm/node_particles.hpp"
#include "tribo/mpm/shape_function.hpp"

namespace tribo::mpm {
namespace {

// A 4 x 4 node grid of unit cells; field f's particle p sits at `at[p]`, and node `shared` holds
// mass in both fields (the other nodes in field 0 only).
struct TwoFields {
  Grid<2> grid{Vec<2>(0, 0), Vec<2>(3, 3), Vec<2>(1, 1)};
  NodeFields<2> nodes;
  Particles<2> particles;
  std::vector<int> field;
  long shared;

  TwoFields() {
    nodes.allocate(grid.node_count(), 2);
    shared = grid.node_index(IVec<2>(1, 1));
    for (long n = 0; n < nodes.nodes; ++n) nodes.mass[n * 2] = 1.0;
    nodes.mass[shared * 2 + 1] = 1.0;
    // One particle of each field in the cell left of and below node (1, 1): both reach it.
    add(Vec<2>(0.75, 0.75), 0);
    add(Vec<2>(0.6, 0.9), 1);
    // One particle of field 0 far from it (cell (2, 2)): lists nowhere.
    add(Vec<2>(2.5, 2.5), 0);
  }
  void add(const Vec<2>& x, int f) {
    particles.position.push_back(x);
    field.push_back(f);
  }
  NodeParticles<2> build(const std::vector<bool>& rigid) const {
    NodeParticles<2> around;
    around.build<LinearShape>(grid, nodes, particles, field, 0.0, 0.0, {}, {}, rigid);
    return around;
  }
};

TEST(NodeParticles, TwoDeformableFieldsListTheParticlesAroundTheirSharedNode) {
  const TwoFields setup;
  const NodeParticles<2> around = setup.build({false, false});
  const long n = setup.shared;
  ASSERT_EQ(around.offset[n + 1] - around.offset[n], 2);  // the two particles of the cell below-left
  EXPECT_EQ(around.field[around.offset[n]], 0);
  EXPECT_EQ(around.field[around.offset[n] + 1], 1);
  // Linear shape: S = (1 - |dx|)(1 - |dy|) about node (1, 1).
  EXPECT_NEAR(around.weight[around.offset[n]], 0.75 * 0.75, 1e-15);
  EXPECT_NEAR(around.weight[around.offset[n] + 1], 0.6 * 0.9, 1e-15);
  EXPECT_EQ(around.offset.back(), 2);  // no other node is a contact node
}

TEST(NodeParticles, ADeformableFieldAgainstARigidOneListsNothing) {
  const TwoFields setup;
  for (const std::vector<bool>& rigid : {std::vector<bool>{false, true}, std::vector<bool>{true, false}}) {
    const NodeParticles<2> around = setup.build(rigid);
    EXPECT_EQ(around.offset.back(), 0);
    EXPECT_TRUE(around.relative_position.empty());
    for (char c : around.contact_node) EXPECT_EQ(c, 0);
  }
}

TEST(NodeParticles, ARangeOfNodesListsAsTheWholeGridWithinIt) {
  // MpmSimulation passes the step's active nodes (the rows its particles reach). Built again over
  // the rows 0..2 (nodes 0..11) after a build over every node, with the far particle gone, the
  // shared node lists the same two particles with the same weights, and the running offsets end
  // at the range's last node. Nothing outside the range is read (it may hold the last build's).
  TwoFields setup;
  NodeParticles<2> around;
  around.build<LinearShape>(setup.grid, setup.nodes, setup.particles, setup.field, 0.0, 0.0, {}, {}, {false, false});
  setup.particles.position.pop_back();
  setup.field.pop_back();
  const long last = setup.grid.node_index(IVec<2>(0, 3));  // the first node of row 3
  around.build<LinearShape>(setup.grid, setup.nodes, setup.particles, setup.field, 0.0, 0.0, {}, {}, {false, false},
                            0, last);
  const long n = setup.shared;
  ASSERT_EQ(around.offset[n + 1] - around.offset[n], 2);
  EXPECT_EQ(around.field[around.offset[n]], 0);
  EXPECT_EQ(around.field[around.offset[n] + 1], 1);
  EXPECT_NEAR(around.weight[around.offset[n]], 0.75 * 0.75, 1e-15);
  EXPECT_NEAR(around.weight[around.offset[n] + 1], 0.6 * 0.9, 1e-15);
  EXPECT_EQ(around.offset[last], 2);
  for (long m = 0; m < last; ++m) EXPECT_EQ(around.contact_node[m] != 0, m == n) << "node " << m;
}

}  // namespace
}  // namespace tribo::mpm
