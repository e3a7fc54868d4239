// A rigid body costs its surface (issue 17): rigid particles deep inside their body are left out of
// the particle-to-grid pass (rigid_interior.hpp), and a rigid field that stands still has its nodal
// values restored from an image instead of scattered (rigid_node_image.hpp). Both are meant to
// change nothing a user can see. The checks: the classification against a count done by hand, and
// whole runs in which only the hidden part of a rigid body changes, which must agree bit for bit
// (no tolerance: the nodes another field reaches get the same sums in the same order).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/mpm/mpm_simulation.hpp"
#include "tribo/mpm/rigid_interior.hpp"

namespace tribo::mpm {
namespace {

TEST(RigidInterior, ReachIsTwiceTheSupportRoundedUpPlusOneCell) {
  EXPECT_EQ(rigid_interior_reach(1.0), 3);   // linear
  EXPECT_EQ(rigid_interior_reach(1.25), 4);  // uGIMP, 2 particles per cell
  EXPECT_EQ(rigid_interior_reach(1.5), 4);   // quadratic B-spline
}

TEST(RigidInterior, OnlyParticlesReachCellsInsideTheirOwnBodyAreInterior) {
  // A rigid block of 12 x 12 cells, 2 x 2 particles per cell, and a deformable one touching its
  // right side. With reach 2 a cell is interior when the 5 x 5 cells around it are all the block's:
  // rows and columns 2..9 of the block away from the grid's edge and the other body, 8 x 8 cells
  // on the left, 7 on the right where the touching body's cells count as another body.
  const Grid<2> grid(Vec2(0, 0), Vec2(30, 20), Vec2(1, 1));
  std::vector<Vec2> x;
  std::vector<int> body;
  std::vector<char> rigid;
  for (int i = 0; i < 2 * 12; ++i)
    for (int j = 0; j < 2 * 12; ++j) {
      x.emplace_back(4.25 + 0.5 * i, 4.25 + 0.5 * j);
      body.push_back(0);
      rigid.push_back(1);
    }
  for (int i = 0; i < 2 * 4; ++i)
    for (int j = 0; j < 2 * 12; ++j) {
      x.emplace_back(16.25 + 0.5 * i, 4.25 + 0.5 * j);
      body.push_back(1);
      rigid.push_back(0);
    }
  const std::vector<char> role = classify_rigid_particles<2>(grid, x, body, rigid, 2);
  int interior = 0, deformable = 0;
  for (std::size_t p = 0; p < x.size(); ++p) {
    if (role[p] == kRigidInterior) {
      ++interior;
      // Its cell is at least 2 cells inside the block: x in [6, 14), y in [6, 14).
      EXPECT_GE(x[p].x(), 6.0);
      EXPECT_LT(x[p].x(), 14.0);
      EXPECT_GE(x[p].y(), 6.0);
      EXPECT_LT(x[p].y(), 14.0);
    }
    if (role[p] == kDeformable) ++deformable;
  }
  EXPECT_EQ(interior, 8 * 8 * 4);
  EXPECT_EQ(deformable, 8 * 24);
}

// A 2D elastic block dropped with a sideways push onto a rigid floor whose top is at y = 0.1, the
// floor `depth` thick; or pressed by a rigid plate of that thickness moving down into it.
SimulationSpec block_and_rigid(double depth, bool moving_plate) {
  SimulationSpec spec;
  spec.dimension = 2;
  spec.time.end = 1.0;
  spec.time.dt = 5e-5;  // Courant number 0.4 on the 37 m/s plane-strain wave of 5 mm cells
  spec.gravity = Vec3(2.0, -9.81, 0.0);
  MaterialSpec block;
  block.name = "block";
  block.model = MaterialModel::LinearElastic;
  block.density = 1000.0;
  block.youngs_modulus = 1e6;
  block.poisson_ratio = 0.3;
  MaterialSpec floor;
  floor.name = "floor";
  floor.model = MaterialModel::Rigid;
  spec.materials = {block, floor};
  BodySpec b;
  b.name = "block";
  b.material = "block";
  b.material_index = 0;
  b.geometry.kind = Shape::Kind::Box;
  b.geometry.dimension = 2;
  b.geometry.min = Vec3(0.1, 0.102, 0);
  b.geometry.max = Vec3(0.2, 0.152, 0);
  b.velocity = Vec3(0.3, -0.2, 0);
  BodySpec f = b;
  f.name = "floor";
  f.material = "floor";
  f.material_index = 1;
  f.velocity = Vec3::Zero();
  if (moving_plate) {
    f.geometry.min = Vec3(0.05, 0.154, 0);
    f.geometry.max = Vec3(0.25, 0.154 + depth, 0);
    f.velocity = Vec3(0, -0.5, 0);
  } else {
    f.geometry.min = Vec3(0.0, 0.1 - depth, 0);
    f.geometry.max = Vec3(0.4, 0.1, 0);
  }
  spec.bodies = {b, f};
  spec.mpm.grid_min = Vec3::Zero();
  spec.mpm.grid_max = Vec3(0.4, 0.3, 0);
  spec.mpm.cell = Vec3::Constant(0.005);
  spec.mpm.particles_per_cell = 2;
  spec.mpm.shape_function = ShapeFunctionKind::Gimp;
  spec.mpm.update = UpdateScheme::Usl;
  ContactPairSpec pair;
  pair.materials = {"block", "floor"};
  pair.material_indices = {0, 1};
  pair.law.law = ContactLaw::Coulomb;
  pair.law.friction = 0.3;
  spec.mpm.contact.pairs = {pair};
  return spec;
}

// The block's particles after `steps` steps (it comes first in the particle arrays only before a
// sort; compare by body instead).
std::vector<Vec2> block_after(const SimulationSpec& spec, int steps) {
  auto sim = make_simulation<2>(spec);
  for (int s = 0; s < steps; ++s) {
    sim->step();
    sim->check_health();
  }
  std::vector<std::pair<Vec2, Vec2>> block;  // reference position, position
  const Particles<2>& q = sim->particles();
  for (std::size_t p = 0; p < q.size(); ++p)
    if (q.body[p] == 0) block.emplace_back(q.reference_position[p], q.position[p]);
  std::sort(block.begin(), block.end(), [](const auto& a, const auto& b) {
    return a.first.x() != b.first.x() ? a.first.x() < b.first.x() : a.first.y() < b.first.y();
  });
  std::vector<Vec2> out;
  for (const auto& [ref, x] : block) {
    out.push_back(x);
  }
  return out;
}

double lowest(const std::vector<Vec2>& x) {
  double y = 1e300;
  for (const Vec2& p : x) y = std::min(y, p.y());
  return y;
}
double highest(const std::vector<Vec2>& x) {
  double y = -1e300;
  for (const Vec2& p : x) y = std::max(y, p.y());
  return y;
}

TEST(RigidCost, AThickStandingFloorMovesTheBlockExactlyAsAThinOne) {
  // 4 cells of floor: no particle is interior (reach 4 needs 9); 20 cells: most are, and the
  // floor stands still, so it is also restored from its image. 1200 steps (0.06 s): the block
  // lands and slides, with the sort of every 20 steps inside.
  omp_set_num_threads(1);
  const std::vector<Vec2> thin = block_after(block_and_rigid(0.02, false), 1200);
  const std::vector<Vec2> thick = block_after(block_and_rigid(0.10, false), 1200);
  ASSERT_EQ(thin.size(), thick.size());
  for (std::size_t p = 0; p < thin.size(); ++p) ASSERT_EQ(thin[p], thick[p]) << "particle " << p;
  // And the floor held it: its particle centres (a quarter cell above its bottom edge at the
  // start) stay above the floor's top less a quarter cell, so no floor particle that the contact
  // needs went missing.
  EXPECT_GT(lowest(thin), 0.1 - 0.25 * 0.005);
}

TEST(RigidCost, AThickMovingPlatePressesTheBlockExactlyAsAThinOne) {
  // A moving rigid body is scattered every step, its interior excepted. 800 steps (0.04 s): the
  // plate, 2 mm above the block at the start, comes down 20 mm and pushes the block ahead of it.
  omp_set_num_threads(1);
  const std::vector<Vec2> thin = block_after(block_and_rigid(0.02, true), 800);
  const std::vector<Vec2> thick = block_after(block_and_rigid(0.10, true), 800);
  ASSERT_EQ(thin.size(), thick.size());
  for (std::size_t p = 0; p < thin.size(); ++p) ASSERT_EQ(thin[p], thick[p]) << "particle " << p;
  // The plate's bottom ends at 0.134 m: the block's top particles stay below it, less a quarter
  // cell (their distance to the block's edge).
  EXPECT_LT(highest(thin), 0.154 - 0.02 - 0.25 * 0.005 + 1e-4);
}

}  // namespace
}  // namespace tribo::mpm
