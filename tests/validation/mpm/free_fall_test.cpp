// A body in free fall, no contact: the MPM centroid follows x0 + 0.5 g t^2.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "mpm_problems.hpp"

namespace tribo {
namespace {

using testing::body;
using testing::body_centroid;
using testing::box_shape;
using testing::elastic_material;

template <int Dim>
void check_free_fall(ShapeFunctionKind shape, UpdateScheme scheme) {
  SimulationSpec spec;
  spec.dimension = Dim;
  spec.time.end = 0.2;
  spec.time.dt = 1e-4;
  spec.gravity = Vec3(3.0, -9.81, Dim == 3 ? 1.5 : 0.0);
  spec.materials.push_back(elastic_material("block", 1000.0, 1e6, 0.3));
  const Vec3 lo(0.45, 0.45, Dim == 3 ? 0.45 : 0.0), hi(0.55, 0.55, Dim == 3 ? 0.55 : 0.0);
  spec.bodies.push_back(body("block", 0, box_shape(Dim, lo, hi)));
  spec.mpm.grid_min = Vec3::Zero();
  spec.mpm.grid_max = Vec3(1.0, 1.0, Dim == 3 ? 1.0 : 0.0);
  spec.mpm.cell = Vec3::Constant(0.025);
  spec.mpm.shape_function = shape;
  spec.mpm.update = scheme;
  auto sim = mpm::make_simulation<Dim>(spec);
  const Vec<Dim> x0 = body_centroid(*sim, 0);
  while (sim->time() < spec.time.end - 0.5 * *spec.time.dt) sim->step();
  const double t = sim->time();
  const Vec<Dim> expected_drop = 0.5 * from_vec3<Dim>(spec.gravity) * t * t;
  const Vec<Dim> drop = body_centroid(*sim, 0) - x0;
  // Reference: 0.5 g t^2 (issue 2: within 1e-6 relative). The midpoint position update is exact
  // for uniform acceleration, so only round-off over 2000 steps remains (~1e-12).
  EXPECT_LT((drop - expected_drop).norm() / expected_drop.norm(), 1e-6);
}

TEST(FreeFall, CentroidFollowsHalfGTSquaredIn2DWithLinearShapesAndUsl) {
  check_free_fall<2>(ShapeFunctionKind::Linear, UpdateScheme::Usl);
}
TEST(FreeFall, CentroidFollowsHalfGTSquaredIn2DWithGimpAndMusl) {
  check_free_fall<2>(ShapeFunctionKind::Gimp, UpdateScheme::Musl);
}
TEST(FreeFall, CentroidFollowsHalfGTSquaredIn2DWithBSplineAndUsf) {
  check_free_fall<2>(ShapeFunctionKind::BSpline2, UpdateScheme::Usf);
}
TEST(FreeFall, CentroidFollowsHalfGTSquaredIn3D) {
  check_free_fall<3>(ShapeFunctionKind::Gimp, UpdateScheme::Usl);
}


// A body thrown up the last axis rises 12 cells, stops and falls back 28 (issue 17's node loops
// run over the node rows the particles reach, a range that moves every step). Every row the body
// reaches must be cleared before the scatter and covered by 1/m, the FLIP base and the momentum
// update; a row missed on its way (a range one row short, or taken before the particles moved)
// would keep an old sum or miss its inverse mass and bend the flight. Reference: y0 + v0 t - g t^2
// / 2, which the midpoint move follows to round-off (1e-9 relative: round-off over 5000 steps; a
// stale sum is O(1)). What this cannot see: sums left in rows no particle reaches again, which only
// the passes over the whole grid read (the clear's hull over touched_nodes_ keeps those zero).
// A second body of another material flies the same parabola at the other end of the grid's x: two
// fields, so the contact arrays are filled too; the bodies never come near each other.
void check_thrown_body(UpdateScheme scheme, TransferScheme transfer) {
  SimulationSpec spec;
  spec.dimension = 2;
  spec.time.end = 0.25;
  spec.time.dt = 5e-5;  // half the CFL limit, 4 mm / (37 m/s + 1 m/s)
  spec.gravity = Vec3(0.0, -10.0, 0.0);
  spec.materials.push_back(elastic_material("a", 1000.0, 1e6, 0.3));
  spec.materials.push_back(elastic_material("b", 1000.0, 1e6, 0.3));
  const double v0 = 1.0;  // rises v0^2 / 2g = 50 mm, back 62.5 mm below its start at t = 0.25 s
  spec.bodies.push_back(body("a", 0, box_shape(2, Vec3(0.04, 0.1, 0), Vec3(0.08, 0.12, 0)), Vec3(0, v0, 0)));
  spec.bodies.push_back(body("b", 1, box_shape(2, Vec3(0.32, 0.1, 0), Vec3(0.36, 0.12, 0)), Vec3(0, v0, 0)));
  spec.mpm.grid_min = Vec3::Zero();
  spec.mpm.grid_max = Vec3(0.4, 0.2, 0.0);
  spec.mpm.cell = Vec3::Constant(0.004);
  spec.mpm.shape_function = ShapeFunctionKind::Gimp;
  spec.mpm.update = scheme;
  spec.mpm.transfer = transfer;
  ContactPairSpec pair;
  pair.materials = {"a", "b"};
  pair.material_indices = {0, 1};
  pair.law = ContactLawSpec{ContactLaw::Frictionless};
  spec.mpm.contact.pairs.push_back(pair);
  auto sim = mpm::make_simulation<2>(spec);
  const Vec2 a0 = body_centroid(*sim, 0), b0 = body_centroid(*sim, 1);
  while (sim->time() < spec.time.end - 0.5 * *spec.time.dt) sim->step();
  const double t = sim->time();
  const double rise = v0 * t - 5.0 * t * t;
  ASSERT_LT(rise, -0.05) << "the bodies must fall back well below their start";
  for (const auto& [now, start] : {std::pair{body_centroid(*sim, 0), a0}, std::pair{body_centroid(*sim, 1), b0}}) {
    EXPECT_NEAR(now.y() - start.y(), rise, 1e-9 * std::abs(rise));
    EXPECT_NEAR(now.x() - start.x(), 0.0, 1e-12);
  }
}

TEST(ThrownBody, FallsBackThroughTheRowsItLeftOnTheParabolaWithMusl) {
  check_thrown_body(UpdateScheme::Musl, TransferScheme::Flip);
}
TEST(ThrownBody, FallsBackThroughTheRowsItLeftOnTheParabolaWithUslAndApic) {
  check_thrown_body(UpdateScheme::Usl, TransferScheme::Apic);
}

}  // namespace
}  // namespace tribo
