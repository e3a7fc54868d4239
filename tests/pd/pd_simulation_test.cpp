// The PD solver as the driver sees it: lattice filling, initial conditions, rigid bodies,
// velocity conditions, gravity, the time step, errors, thread-count independence.
#include "tribo/pd/pd_simulation.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <numbers>

#include "spec_builder.hpp"
#include "tribo/core/error.hpp"
#include "tribo/pd/parallel.hpp"
#include "tribo/pd/precrack.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;
constexpr double h = 1e-3;

SimulationSpec plate_spec(MaterialModel model = MaterialModel::Pmb, double nu = 1.0 / 3.0) {
  SimulationSpec spec = pd_spec(2, h);
  spec.thickness = 2e-3;
  add_material(spec, pd_material("steel", model, 7800.0, 200e9, nu));
  return spec;
}

TEST(Lattice, ABoxIsFilledWithCellCentredPointsOfVolumeHSquaredTimesThickness) {
  SimulationSpec spec = plate_spec();
  add_body(spec, "box", 0, box(2, Vec3(0.1, 0.2, 0), Vec3(0.1 + 10 * h, 0.2 + 5 * h, 0)));
  PdSimulation<2> sim(spec);
  const auto& p = sim.particles();
  ASSERT_EQ(p.size(), 50u);
  EXPECT_NEAR(p.position[0].x(), 0.1 + 0.5 * h, 1e-12);
  EXPECT_NEAR(p.position[0].y(), 0.2 + 0.5 * h, 1e-12);
  EXPECT_NEAR(p.position[49].x(), 0.1 + 9.5 * h, 1e-12);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_DOUBLE_EQ(p.volume[i], h * h * 2e-3);
    EXPECT_DOUBLE_EQ(p.mass[i], 7800.0 * h * h * 2e-3);
    EXPECT_EQ(p.body[i], 0);
    EXPECT_EQ(p.material[i], 0);
  }
}

TEST(Lattice, ABallsPointsTakeUpItsVolume) {
  SimulationSpec spec = pd_spec(3, h);
  add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e9, 0.25));
  add_body(spec, "ball", 0, ball(3, Vec3(0.3, -0.2, 0.1), 10 * h));
  PdSimulation<3> sim(spec);
  const double volume = sim.particles().size() * h * h * h;
  // The lattice's staircase boundary: the point count of a ball of 10 cells deviates from
  // its volume by about the surface layer's fluctuation, ~1% here.
  EXPECT_NEAR(volume / (4.0 / 3.0 * std::numbers::pi * 1e-6), 1.0, 0.02);
}

TEST(InitialConditions, PointsStartWithTheBodysVelocityPlusItsSpinAboutTheCentroid) {
  SimulationSpec spec = plate_spec();
  BodySpec& body =
      add_body(spec, "disk", 0, ball(2, Vec3(0.01, 0.02, 0), 5 * h), Vec3(1.0, -2.0, 0.0));
  body.angular_velocity = Vec3(0, 0, 30.0);
  PdSimulation<2> sim(spec);
  const auto& p = sim.particles();
  Vec2 centroid = Vec2::Zero();
  for (const auto& x : p.position) centroid += x;
  centroid /= p.size();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 r = p.position[i] - centroid;
    EXPECT_NEAR(p.velocity[i].x(), 1.0 - 30.0 * r.y(), 1e-12);
    EXPECT_NEAR(p.velocity[i].y(), -2.0 + 30.0 * r.x(), 1e-12);
  }
}

TEST(RigidBodies, ARigidBodyTranslatesAndRotatesExactlyAndCarriesNoBonds) {
  SimulationSpec spec = pd_spec(3, h);
  add_material(spec, pd_material("block", MaterialModel::Pmb, 1000, 1e9, 0.25));
  MaterialSpec rigid;
  rigid.name = "wall";
  rigid.model = MaterialModel::Rigid;
  add_material(spec, rigid);
  add_body(spec, "block", 0, box(3, Vec3::Zero(), Vec3::Constant(4 * h)));
  BodySpec& wall =
      add_body(spec, "wall", 1, box(3, Vec3(0.1, 0, 0), Vec3(0.1 + 6 * h, 2 * h, 3 * h)),
               Vec3(0.5, 0.0, -0.25));
  wall.angular_velocity = Vec3(0.0, 0.0, 2.0);
  spec.gravity = Vec3(0, -9.81, 0);  // does not act on rigid bodies
  PdSimulation<3> sim(spec);
  const PointRange w = sim.body_points()[1];
  for (int i = w.begin; i < w.end; ++i) EXPECT_EQ(sim.bonds().end(i) - sim.bonds().begin(i), 0);

  RigidMotion<3> motion;
  const auto& X = sim.particles().reference_position;
  for (int i = w.begin; i < w.end; ++i) motion.centroid += X[i];
  motion.centroid /= w.size();
  motion.velocity = Vec3(0.5, 0.0, -0.25);
  motion.angular_velocity = Vec3(0, 0, 2.0);
  for (int k = 0; k < 50; ++k) sim.step();
  const double t = sim.time();
  const Mat3 R = Eigen::AngleAxisd(2.0 * t, Vec3::UnitZ()).toRotationMatrix();
  for (int i = w.begin; i < w.end; ++i) {
    const Vec3 expected = motion.centroid + motion.velocity * t + R * (X[i] - motion.centroid);
    EXPECT_LT((sim.particles().position[i] - expected).norm(), 1e-12);
    const Vec3 r = sim.particles().position[i] - (motion.centroid + motion.velocity * t);
    EXPECT_LT((sim.particles().velocity[i] - (motion.velocity + Vec3(0, 0, 2.0).cross(r))).norm(),
              1e-12);
  }
}

TEST(VelocityConditions, PrescribedComponentsAreHeldAndFreeOnesAreNot) {
  SimulationSpec spec = plate_spec();
  spec.gravity = Vec3(0, -9.81, 0);
  add_body(spec, "strip", 0, box(2, Vec3::Zero(), Vec3(20 * h, 4 * h, 0)));
  BoundaryConditionSpec left;
  left.region = box(2, Vec3(-1, -1, 0), Vec3(2 * h, 1, 0));
  left.velocity[0] = 0.3;
  spec.boundary_conditions.push_back(left);
  PdSimulation<2> sim(spec);
  for (int k = 0; k < 20; ++k) sim.step();
  const auto& p = sim.particles();
  bool some_free_moved = false;
  double momentum_y = 0.0, mass = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    momentum_y += p.mass[i] * p.velocity[i].y();
    mass += p.mass[i];
    if (p.reference_position[i].x() < 2 * h) {
      EXPECT_DOUBLE_EQ(p.velocity[i].x(), 0.3);
      EXPECT_NEAR(p.position[i].x() - p.reference_position[i].x(), 0.3 * sim.time(), 1e-12);
    } else {
      some_free_moved |= p.velocity[i].x() != 0.0;
    }
  }
  EXPECT_TRUE(some_free_moved);  // the driven end pushes the rest through the bonds
  // y is free everywhere: the bonds' internal forces cancel, and gravity gives the strip its
  // whole momentum -M g t.
  EXPECT_NEAR(momentum_y / (-mass * 9.81 * sim.time()), 1.0, 1e-9);
}

TEST(Gravity, AFreeBodyFallsWithConstantAcceleration) {
  // Velocity Verlet is exact for a constant force: x = x0 + v0 t + g t^2 / 2 to round-off, and
  // the uniformly moving lattice keeps its bonds unstretched.
  SimulationSpec spec = pd_spec(3, h);
  spec.gravity = Vec3(1.0, -9.81, 0.5);
  add_material(spec, pd_material("m", MaterialModel::Lps, 1000, 1e9, 0.3));
  add_body(spec, "cube", 0, box(3, Vec3::Zero(), Vec3::Constant(4 * h)), Vec3(0.1, 0.2, 0.0));
  PdSimulation<3> sim(spec);
  for (int k = 0; k < 100; ++k) sim.step();
  const double t = sim.time();
  const auto& p = sim.particles();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3 expected =
        p.reference_position[i] + Vec3(0.1, 0.2, 0) * t + 0.5 * spec.gravity * t * t;
    EXPECT_LT((p.position[i] - expected).norm(), 1e-12);
  }
  const EnergyBreakdown e = sim.energy();
  EXPECT_NEAR((e.kinetic + e.potential) / (0.5 * 64 * 1e-6 * 0.05), 1.0, 1e-6);
}

TEST(TimeStep, DefaultIsFourFifthsOfTheSillingAskariEstimate) {
  // Two points, one bond of length h, no correction: dt = sqrt(2 rho / (c V / h)).
  SimulationSpec spec = pd_spec(3, h);
  spec.pd.surface_correction = false;
  spec.pd.partial_volume = PdSpec::PartialVolume::Pdlammps;
  add_material(spec, pd_material("m", MaterialModel::Pmb, 2000, 3e9, 0.25));
  add_body(spec, "pair", 0, box(3, Vec3::Zero(), Vec3(2 * h, h, h)));
  const double delta = 3.015 * h, K = 3e9 / (3 * 0.5);
  const double c = 18 * K / (std::numbers::pi * std::pow(delta, 4));
  const double expected = std::sqrt(2 * 2000.0 / (c * h * h * h / h));
  {
    PdSimulation<3> sim(spec);
    EXPECT_NEAR(sim.critical_time_step() / expected, 1.0, 1e-12);
    EXPECT_NEAR(sim.dt() / (0.8 * expected), 1.0, 1e-12);
  }
  spec.time.cfl = 0.5;
  EXPECT_NEAR(PdSimulation<3>(spec).dt() / (0.5 * expected), 1.0, 1e-12);
  spec.time.cfl.reset();
  spec.time.dt = 1e-9;
  EXPECT_DOUBLE_EQ(PdSimulation<3>(spec).dt(), 1e-9);
}

TEST(TimeStep, ATooLargeStepIsReportedAsASimulationError) {
  SimulationSpec spec = plate_spec();
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(10 * h, 10 * h, 0)));
  spec.time.cfl = 8.0;
  PdSimulation<2> sim(spec);
  for (std::size_t i = 0; i < sim.velocity().size(); i += 7) sim.velocity()[i].x() = 1.0;
  EXPECT_THROW(
      {
        for (int k = 0; k < 2000; ++k) {
          sim.step();
          sim.check_health();
        }
      },
      SimulationError);
}

DeckLocation deck_error_of(const SimulationSpec& spec) {
  try {
    PdSimulation<2> sim(spec);
  } catch (const DeckError& e) {
    return e.where();
  }
  return {};
}

TEST(SpecChecks, BadPdInputIsADeckErrorNamingItsKey) {
  auto base = [] {
    SimulationSpec s = plate_spec();
    add_body(s, "plate", 0, box(2, Vec3::Zero(), Vec3(5 * h, 5 * h, 0)));
    return s;
  };
  SimulationSpec s = base();
  s.pd.spacing = 0.0;
  EXPECT_EQ(deck_error_of(s).key, "pd.spacing");
  s = base();
  s.materials[0].poisson_ratio = 0.25;  // PMB in 2D needs 1/3
  EXPECT_EQ(deck_error_of(s).key, "materials[0].poisson_ratio");
  s = base();
  s.materials[0].model = MaterialModel::NeoHookean;
  EXPECT_EQ(deck_error_of(s).key, "materials[0].model");
  s = base();
  s.materials[0].critical_stretch = -0.1;
  EXPECT_EQ(deck_error_of(s).key, "materials[0].critical_stretch");
  s = base();
  s.bodies[0].geometry = box(2, Vec3::Zero(), Vec3(0.2 * h, 0.2 * h, 0));  // holds no point
  EXPECT_EQ(deck_error_of(s).key, "bodies[0].geometry");
  s = base();
  s.dimension = 3;
  EXPECT_EQ(deck_error_of(s).key, "dimension");
  s = base();
  s.pd.damping = -1.0;
  EXPECT_EQ(deck_error_of(s).key, "pd.damping");
  EXPECT_EQ(deck_error_of(base()).key, "");  // and a good spec runs
}

TEST(Precracks, BondsAcrossAPrecrackStartBrokenAndNoOthers) {
  SimulationSpec spec = plate_spec();
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(20 * h, 20 * h, 0)));
  PdSpec::Precrack crack;
  crack.points = {Vec3(-h, 10 * h, 0), Vec3(5 * h, 10 * h, 0), Vec3(8 * h, 13 * h, 0)};
  spec.pd.precracks.push_back(crack);
  PdSimulation<2> sim(spec);
  const auto& X = sim.particles().reference_position;
  for (int i = 0; i < sim.bonds().point_count(); ++i)
    for (std::int64_t b = sim.bonds().begin(i); b < sim.bonds().end(i); ++b) {
      const Vec2 a = X[i], c = X[sim.bonds().neighbor[b]];
      const bool cut = segments_cross(a, c, Vec2(-h, 10 * h), Vec2(5 * h, 10 * h)) ||
                       segments_cross(a, c, Vec2(5 * h, 10 * h), Vec2(8 * h, 13 * h));
      EXPECT_EQ(sim.bond_intact(b), !cut);
    }
  EXPECT_GT(sim.particles().damage[9 * 20 + 2], 0.2);   // just below the crack
  EXPECT_EQ(sim.particles().damage[2 * 20 + 15], 0.0);  // far from it
}

TEST(Precracks, SegmentsCrossOnlyThroughTheirInteriors) {
  EXPECT_TRUE(segments_cross(Vec2(0, 0), Vec2(1, 1), Vec2(0, 1), Vec2(1, 0)));
  EXPECT_FALSE(segments_cross(Vec2(0, 0), Vec2(1, 1), Vec2(2, 0), Vec2(3, 1)));
  EXPECT_FALSE(segments_cross(Vec2(0, 0), Vec2(1, 0), Vec2(1, 0), Vec2(1, 1)));  // end touch
}

TEST(Damping, MassProportionalDampingBringsAVibratingBodyToRest) {
  SimulationSpec spec = plate_spec(MaterialModel::Lps, 0.3);
  spec.pd.damping = 2e5;  // 1/s
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(10 * h, 10 * h, 0)));
  PdSimulation<2> sim(spec);
  for (std::size_t i = 0; i < sim.velocity().size(); ++i)
    sim.velocity()[i].x() = sim.particles().position[i].x() < 5 * h ? 1.0 : -1.0;
  const double e0 = sim.energy().total();
  double previous = e0;
  for (int k = 0; k < 4; ++k) {
    for (int q = 0; q < 100; ++q) sim.step();
    const double e = sim.energy().total();
    EXPECT_LT(e, previous);  // the step's energy error oscillates; over 100 steps damping wins
    previous = e;
  }
  EXPECT_LT(previous / e0, 1e-3);
}

TEST(Threads, ResultsDoNotDependOnTheThreadCount) {
  // Owner-computes bond passes: each point's force is summed by one thread in bond order.
  SimulationSpec spec = plate_spec();
  spec.materials[0].critical_stretch = 0.002;
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(100 * h, 100 * h, 0)));
  BoundaryConditionSpec top, bottom;
  top.region = box(2, Vec3(-1, 97 * h, 0), Vec3(1, 1, 0));
  top.velocity[1] = 20.0;
  bottom.region = box(2, Vec3(-1, -1, 0), Vec3(1, 3 * h, 0));
  bottom.velocity[1] = -20.0;
  spec.boundary_conditions = {top, bottom};
  auto run = [&](int threads) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    PdSimulation<2> sim(spec);
    EXPECT_TRUE(worth_threads(sim.bonds().bond_count()));  // the bond passes do run threaded
    for (int k = 0; k < 200; ++k) sim.step();
    omp_set_num_threads(saved);
    return std::make_pair(sim.particles().position, sim.particles().damage);
  };
  const auto one = run(1), three = run(3);
  EXPECT_EQ(one.first, three.first);
  EXPECT_EQ(one.second, three.second);
  double damage = 0.0;
  for (double d : one.second) damage = std::max(damage, d);
  EXPECT_GT(damage, 0.1);  // bonds did break on the way
}

TEST(Interface, MakeSimulationGivesAWorkingSolverWithNoContactYet) {
  SimulationSpec spec = plate_spec();
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(6 * h, 6 * h, 0)), Vec3(1, 0, 0));
  std::unique_ptr<Simulation<2>> sim = make_simulation<2>(spec);
  EXPECT_EQ(sim->particles().size(), 36u);
  sim->step();
  EXPECT_EQ(sim->step_count(), 1);
  EXPECT_DOUBLE_EQ(sim->time(), sim->dt());
  EXPECT_EQ(sim->contact_force(0, 0), Vec3::Zero());
  EXPECT_NO_THROW(sim->check_health());
  EXPECT_NEAR(sim->energy().kinetic, 0.5 * 36 * 7800 * h * h * 2e-3, 1e-12);
}

TEST(Interface, StressIsFilledWhenTheOutputAsksForIt) {
  SimulationSpec spec = plate_spec();
  spec.output.fields = {"stress"};
  add_body(spec, "plate", 0, box(2, Vec3::Zero(), Vec3(12 * h, 12 * h, 0)));
  PdSimulation<2> sim(spec);
  for (auto& x : sim.position()) x *= 1.0 + 1e-4;
  sim.recompute_forces();
  const Mat3 sigma = sim.particles().stress[6 * 12 + 6];
  EXPECT_GT(sigma(0, 0), 0.0);
  EXPECT_NEAR(sigma(0, 0), sigma(1, 1), 1e-9 * sigma(0, 0));  // square symmetry
  EXPECT_EQ(sigma(2, 2), 0.0);                                // plane stress
}

}  // namespace
}  // namespace tribo::pd
