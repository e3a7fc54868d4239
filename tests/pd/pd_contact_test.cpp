// PD contact inside the solver (pd_contact.hpp via PdSimulation): the short-range force of the
// seed between two points, what is and is not in contact (other bodies, broken bonds), the
// material-pair totals, the VTK pairs, the stable step, and checkpoints of the contact state.
#include "tribo/pd/pd_contact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "spec_builder.hpp"
#include "tribo/pd/material_constants.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;
constexpr double h = 1e-3;

// Two one-point bodies (a single lattice cell each) at distance r along a direction.
SimulationSpec two_points(double r, const Vec3& direction) {
  SimulationSpec spec = pd_spec(3, h);
  spec.time.dt = 1e-6;  // no bonds: no stable step to estimate
  add_material(spec, pd_material("a", MaterialModel::Pmb, 1000, 1e9, 0.25));
  add_material(spec, pd_material("b", MaterialModel::Pmb, 1000, 1e9, 0.25));
  const Vec3 half = Vec3::Constant(0.5 * h);
  const Vec3 other = r * direction.normalized();
  add_body(spec, "a", 0, box(3, -half, half));
  add_body(spec, "b", 1, box(3, other - half, other + half));
  spec.pd.contact.model = PdContactModel::Pairwise;  // the seed's springs
  spec.pd.contact.friction_model = FrictionModel::None;
  return spec;
}

TEST(ShortRangeForce, TwoPointsInsideTheRadiusRepelWithTheSeedsForce) {
  // Seed eq. 3: f_p = M min{0, (c_s/delta)(|Y| - d)} V_p V_i, c_s = 15 c (the deck's default),
  // d = 0.9 h. At r = 0.7 h the force on a is -N M with N = (15 c/delta)(0.2 h) h^6.
  const Vec3 dir(1.0, 2.0, -0.5);
  PdSimulation<3> sim(two_points(0.7 * h, dir));
  const SimulationSpec& spec = sim.spec();
  const double delta = spec.pd.horizon * h;
  const double c = pmb_micromodulus<3>(spec.materials[0], delta, 1.0);
  const double N = 15.0 * c / delta * (0.2 * h) * std::pow(h, 6);
  const Vec3 M = dir.normalized();
  EXPECT_NEAR((sim.force()[0] + N * M).norm() / N, 0.0, 1e-12);
  EXPECT_NEAR((sim.force()[1] - N * M).norm() / N, 0.0, 1e-12);  // Newton's third law
  EXPECT_NEAR((sim.contact_force(0, 1) + N * M).norm() / N, 0.0, 1e-12);
  EXPECT_NEAR((sim.contact_force(1, 0) - N * M).norm() / N, 0.0, 1e-12);
  // Stored energy (1/2)(c_s/delta)(d - r)^2 V V, counted as strain energy.
  EXPECT_NEAR(sim.energy().strain / (0.5 * N * 0.2 * h), 1.0, 1e-12);
}

TEST(ShortRangeForce, PointsBeyondTheContactRadiusDoNotInteract) {
  PdSimulation<3> sim(two_points(0.95 * h, Vec3::UnitX()));
  EXPECT_EQ(sim.force()[0], Vec3::Zero());
  EXPECT_EQ(sim.contact()->pairs_in_contact(), 0u);
  EXPECT_TRUE(sim.surfaces()[0].cells.empty());
}

TEST(ShortRangeForce, TheStiffnessAndRadiusAreTheDecks) {
  SimulationSpec spec = two_points(1.5 * h, Vec3::UnitY());
  spec.pd.contact.radius = 2.0;
  spec.pd.contact.stiffness = 0.5;
  PdSimulation<3> sim(spec);
  const double delta = spec.pd.horizon * h;
  const double c = pmb_micromodulus<3>(spec.materials[0], delta, 1.0);
  const double N = 0.5 * c / delta * (0.5 * h) * std::pow(h, 6);
  EXPECT_NEAR(sim.force()[1].y() / N, 1.0, 1e-12);
}

TEST(ContactPairs, TheVtkSurfaceDrawsEachPairInContactAsATwoPointCell) {
  PdSimulation<3> sim(two_points(0.5 * h, Vec3::UnitZ()));
  const std::vector<SurfaceMesh> meshes = sim.surfaces();
  ASSERT_EQ(meshes.size(), 1u);
  EXPECT_EQ(meshes[0].name, "contact_pairs");
  ASSERT_EQ(meshes[0].cells.size(), 1u);
  EXPECT_EQ(meshes[0].cells[0].size(), 2u);
  EXPECT_NEAR(meshes[0].points[1].z() - meshes[0].points[0].z(), 0.5 * h, 1e-15);
}

TEST(ContactPairs, ASingleUnbreakableBodyHasNoContactAtAll) {
  SimulationSpec spec = pd_spec(2, h);
  add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e9, 1.0 / 3.0));
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(10 * h, 5 * h, 0)));
  PdSimulation<2> sim(spec);
  EXPECT_EQ(sim.contact(), nullptr);
  EXPECT_TRUE(sim.surfaces().empty());
}

TEST(ContactPairs, FacesOfABrokenBondTouchButBondedNeighboursNeverDo) {
  // A breakable plate cut through by a pre-crack between rows 4 and 5: at rest the crack faces
  // are h apart (outside 0.9 h) and bonded neighbours h apart: nothing is in contact. Pressing
  // the upper half down by 0.3 h puts every pair across the cut inside the radius (they repel),
  // while the bonded pairs inside each half stay bonded and never count.
  SimulationSpec spec = pd_spec(2, h);
  MaterialSpec m = pd_material("m", MaterialModel::Pmb, 1000, 1e9, 1.0 / 3.0);
  m.critical_stretch = 0.5;
  add_material(spec, m);
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(10 * h, 10 * h, 0)));
  spec.pd.precracks.push_back({{Vec3(-h, 5 * h, 0), Vec3(11 * h, 5 * h, 0)}});
  spec.pd.contact.model = PdContactModel::Pairwise;
  spec.pd.contact.friction_model = FrictionModel::None;
  PdSimulation<2> sim(spec);
  ASSERT_NE(sim.contact(), nullptr);
  EXPECT_EQ(sim.contact()->pairs_in_contact(), 0u);
  for (Vec2& x : sim.position())
    if (x.y() > 5 * h) x.y() -= 0.3 * h;
  sim.recompute_forces();
  // 10 pairs straight across (0.7 h) and none diagonal (sqrt(1 + 0.49) h > 0.9 h).
  EXPECT_EQ(sim.contact()->pairs_in_contact(), 10u);
  for (std::size_t i = 0; i < sim.position().size(); ++i) {
    const double y = sim.position()[i].y();
    if (y > 5 * h && y < 6 * h) {
      EXPECT_GT(sim.force()[i].y(), 0.0);  // pushed back up
    }
  }
}

TEST(ContactTimeStep, SurfacePointsThatCanBePressedStiffenTheStableStep) {
  // The repulsion adds up to 2^(Dim-1) springs k V to a surface point's bond sum: the stable
  // step of a block with a partner is shorter than alone, and longer than the bulk would make it.
  SimulationSpec alone = pd_spec(2, h);
  add_material(alone, pd_material("m", MaterialModel::Pmb, 1000, 1e9, 1.0 / 3.0));
  add_body(alone, "block", 0, box(2, Vec3::Zero(), Vec3(10 * h, 10 * h, 0)));
  SimulationSpec pair = alone;
  add_body(pair, "other", 0, box(2, Vec3(0, 10 * h, 0), Vec3(10 * h, 20 * h, 0)));
  const double dt_alone = PdSimulation<2>(alone).critical_time_step();
  const double dt_pair = PdSimulation<2>(pair).critical_time_step();
  EXPECT_LT(dt_pair, dt_alone);
  EXPECT_GT(dt_pair, 0.5 * dt_alone);
}

// An in-memory checkpoint (the io file format is not linked here).
class MemoryState final : public StateWriter, public StateReader {
 public:
  void write_bytes(std::string_view name, const void* data, std::size_t size) override {
    entries_[std::string(name)].assign(static_cast<const char*>(data), size);
  }
  std::size_t entry_size(std::string_view name) const override {
    return entries_.at(std::string(name)).size();
  }
  void read_bytes(std::string_view name, void* data, std::size_t size) const override {
    const std::string& e = entries_.at(std::string(name));
    if (e.size() != size) throw std::runtime_error("size");
    std::memcpy(data, e.data(), size);
  }

 private:
  std::map<std::string, std::string> entries_;
};

void expect_bitwise_restart(bool static_friction) {
  // A block thrown at 2 m/s onto another with objective friction: the list, the last pass's
  // totals, the frictional work and (static above kinetic) the points' slip history are part of
  // the state.
  SimulationSpec spec = pd_spec(2, h);
  if (static_friction) {
    spec.pd.contact.law.static_friction = 0.8;
    spec.pd.contact.law.slip_weakening_distance = 0.05 * h;  // deck key slip_weakening_distance
  }
  add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e7, 1.0 / 3.0));
  add_body(spec, "lower", 0, box(2, Vec3::Zero(), Vec3(12 * h, 4 * h, 0)));
  add_body(spec, "upper", 0, box(2, Vec3(2 * h, 4.2 * h, 0), Vec3(8 * h, 8.2 * h, 0)),
           Vec3(2.0, -1.0, 0));
  spec.pd.contact.law.friction = 0.4;
  PdSimulation<2> straight(spec);
  for (int s = 0; s < 150; ++s) straight.step();
  ASSERT_GT(straight.frictional_work(), 0.0) << "the test needs friction before the checkpoint";
  MemoryState saved;
  straight.save_state(saved);
  PdSimulation<2> restored(spec);
  restored.restore_state(saved);
  for (int s = 0; s < 150; ++s) {
    straight.step();
    restored.step();
  }
  EXPECT_EQ(std::memcmp(straight.position().data(), restored.position().data(),
                        straight.position().size() * sizeof(Vec2)),
            0);
  EXPECT_EQ(straight.frictional_work(), restored.frictional_work());
  EXPECT_EQ(straight.contact_force(0, 0), restored.contact_force(0, 0));
}

TEST(ContactCheckpoint, ARestoredRunContinuesBitwiseThroughContactAndFriction) {
  expect_bitwise_restart(false);
}

TEST(ContactCheckpoint, ARestoredRunContinuesBitwiseThroughTheSlipHistory) {
  expect_bitwise_restart(true);
}

}  // namespace
}  // namespace tribo::pd
