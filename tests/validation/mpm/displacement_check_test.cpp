// The seed's point about the displacement check: with the approach check alone, two surfaces that
// approach each other are "in contact" as soon as their fields share a node, while still more than
// a cell apart; with the position check (cutoff 0.8 cell, uGIMP, 2 particles per cell) they are
// not in contact until they meet.
#include <gtest/gtest.h>

#include <cstdio>

#include "mpm_problems.hpp"

namespace tribo {
namespace {

using testing::body;
using testing::elastic_material;

constexpr double kCell = 1.0e-3;   // m
constexpr double kRadius = 5.0e-3;  // m
constexpr double kSpeed = 1.0;      // m/s each, toward each other

Shape disk(double x, double y) { return testing::ball_shape(2, Vec3(x, y, 0), kRadius); }

// Largest contact force while the surfaces are still more than one cell apart.
double largest_force_while_a_cell_apart(bool displacement_check) {
  SimulationSpec spec;
  spec.dimension = 2;
  spec.materials.push_back(elastic_material("a", 1000.0, 1.0e7, 0.3));
  spec.materials.push_back(elastic_material("b", 1000.0, 1.0e7, 0.3));
  const double gap0 = 2.5 * kCell;
  spec.bodies.push_back(body("a", 0, disk(0.02, 0.015), Vec3(kSpeed, 0, 0)));
  spec.bodies.push_back(body("b", 1, disk(0.02 + 2 * kRadius + gap0, 0.015), Vec3(-kSpeed, 0, 0)));
  spec.mpm.grid_min = Vec3::Zero();
  spec.mpm.grid_max = Vec3(0.05, 0.03, 0);
  spec.mpm.cell = Vec3::Constant(kCell);
  spec.mpm.shape_function = ShapeFunctionKind::Gimp;
  spec.mpm.contact.normals = ContactNormalMethod::AverageVolumeGradient;
  spec.mpm.contact.displacement_check = displacement_check;
  spec.mpm.contact.position_method = ContactPositionMethod::Position;
  spec.mpm.contact.position_offset = 0.8;
  ContactPairSpec pair;
  pair.materials = {"a", "b"};
  pair.material_indices = {0, 1};
  pair.law = ContactLawSpec{ContactLaw::Frictionless};
  spec.mpm.contact.pairs.push_back(pair);
  spec.time.cfl = 0.4;
  auto sim = mpm::make_simulation<2>(spec);
  double largest = 0.0;
  // The gap closes at 2 kSpeed; stop when it is one cell.
  const double t_end = (gap0 - kCell) / (2 * kSpeed);
  while (sim->time() < t_end) {
    sim->step();
    largest = std::max(largest, sim->contact_force(0, 1).norm());
  }
  std::printf("    displacement check %s: largest contact force %.4g N before the gap closes to a cell\n",
              displacement_check ? "on" : "off", largest);
  return largest;
}

TEST(DisplacementCheck, SurfacesACellApartAreNotInContactWithTheCheckOn) {
  const double with_check = largest_force_while_a_cell_apart(true);
  const double without = largest_force_while_a_cell_apart(false);
  // Without the check the approaching fields meet at shared nodes about two cells apart and are
  // pushed apart: a force of the order of m v / dt at a node (>> 1e-3 N here).
  EXPECT_GT(without, 1e-3);
  // With it, nothing touches: exactly zero force, not merely small.
  EXPECT_EQ(with_check, 0.0);
}

}  // namespace
}  // namespace tribo
