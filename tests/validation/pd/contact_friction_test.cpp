// Validation of PD contact and friction (issue 6) on problems built in code; the deck-based
// comparison of the three friction models is tests/validation/app/pd_friction_validation_test.cpp.
//   - Conservation: two free disks in a glancing impact. Linear momentum is conserved by every
//     model (equal and opposite pair forces); energy kinetic + strain (with the repulsion's
//     stored energy) + frictional is conserved by all (friction only moves energy into the
//     frictional account): velocity Verlet's error, 0.5% as the PD energy tests.
//   - Angular momentum in 3D: two blocks sliding obliquely over each other; the objective model
//     and BFCM conserve it to round-off (docs/pd-friction.md), NFCM does not.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "../../pd/spec_builder.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;

template <int Dim>
Vec3 momentum(const PdSimulation<Dim>& sim) {
  const auto& p = sim.particles();
  Vec3 sum = Vec3::Zero();
  for (std::size_t i = 0; i < p.size(); ++i)
    sum += to_vec3<Dim>(Vec<Dim>(p.mass[i] * p.velocity[i]));
  return sum;
}
template <int Dim>
Vec3 angular_momentum(const PdSimulation<Dim>& sim) {
  const auto& p = sim.particles();
  Vec3 sum = Vec3::Zero();
  for (std::size_t i = 0; i < p.size(); ++i)
    sum += cross_moment<Dim>(p.position[i], Vec<Dim>(p.mass[i] * p.velocity[i]));
  return sum;
}

SimulationSpec glancing_disks(FrictionModel model, double mu, double static_mu = 0.0) {
  const double h = 1e-3;
  SimulationSpec spec = pd_spec(2, h);
  const int m = add_material(spec, pd_material("disk", MaterialModel::Pmb, 1000, 1e6, 1.0 / 3.0));
  add_body(spec, "left", m, ball(2, Vec3(-0.015, -0.006, 0), 0.008), Vec3(0.5, 0, 0));
  add_body(spec, "right", m, ball(2, Vec3(0.015, 0.006, 0), 0.008)).angular_velocity =
      Vec3(0, 0, 50);
  spec.pd.contact.friction_model = model;
  spec.pd.contact.law.friction = mu;
  if (static_mu > 0.0) spec.pd.contact.law.static_friction = static_mu;
  spec.time.end = 0.08;
  return spec;
}

struct Conservation {
  double momentum = 0.0, angular = 0.0, energy = 0.0, frictional = 0.0, max_contact_pairs = 0.0;
};

Conservation run_glancing(FrictionModel model, double mu, double static_mu = 0.0) {
  PdSimulation<2> sim(glancing_disks(model, mu, static_mu));
  const Vec3 p0 = momentum(sim);
  const Vec3 l0 = angular_momentum(sim);
  const double e0 = sim.energy().total();
  const double scale = sim.particles().mass[0] * sim.particles().size() * 0.5;  // |m v| of all
  Conservation c;
  while (sim.time() < sim.spec().time.end) {
    sim.step();
    c.momentum = std::max(c.momentum, (momentum(sim) - p0).norm() / scale);
    c.angular = std::max(c.angular, (angular_momentum(sim) - l0).norm() / l0.norm());
    c.energy = std::max(c.energy, std::abs(sim.energy().total() - e0) / e0);
    c.max_contact_pairs =
        std::max(c.max_contact_pairs, static_cast<double>(sim.contact()->pairs_in_contact()));
  }
  c.frictional = sim.energy().frictional;
  return c;
}

TEST(ContactConservation, AFrictionlessGlancingImpactConservesMomentumAndEnergy) {
  const Conservation c = run_glancing(FrictionModel::None, 0.0);
  EXPECT_GE(c.max_contact_pairs, 1.0) << "the disks must touch";
  EXPECT_LT(c.momentum, 1e-12);  // equal and opposite central forces: round-off
  EXPECT_LT(c.angular, 1e-12);
  EXPECT_LT(c.energy, 5e-3);
  EXPECT_EQ(c.frictional, 0.0);
}

TEST(ContactConservation, EveryFrictionModelConservesMomentumAndBooksItsDissipation) {
  for (FrictionModel model : {FrictionModel::Bfcm, FrictionModel::Nfcm, FrictionModel::Objective}) {
    const Conservation c = run_glancing(model, 0.3);
    SCOPED_TRACE(static_cast<int>(model));
    EXPECT_LT(c.momentum, 1e-12);
    // kinetic + strain + frictional within 0.5% (issue 12) for the objective model and NFCM.
    // BFCM on the smoothed contact closes it to 0.9% only (its friction along M against a
    // repulsion whose pairs change within a step); checked at 1% so a regression shows.
    EXPECT_LT(c.energy, model == FrictionModel::Bfcm ? 1e-2 : 5e-3);
    EXPECT_GT(c.frictional, 1e-4 * 0.0346);  // measured 6e-4 .. 8e-4 J of 0.0346 J kinetic
    // Central pair forces (the smoothed repulsion, BFCM) and the objective model's spread
    // forces (moment x_c x F on each side) conserve angular momentum exactly: round-off.
    if (model != FrictionModel::Nfcm) {
      EXPECT_LT(c.angular, 1e-12);
    }
  }
}

// Static friction above kinetic (objective model, mu_k 0.3, mu_s 0.6) switches on what only it
// uses: Coulomb's exact stick force per pair, the slip-weakening history and the contact
// dashpot. The stick force is applied at the contact point on both sides (moment x_c x F) and
// the dashpot is a central pair force: momentum and angular momentum to round-off, as without
// static friction. (Objectivity of the same forces under a rigid motion:
// tests/pd/contact_dashpot_test.cpp, ARigidMotionOfBothBodiesIsNotDampedAndAnApproachIs.)
TEST(ContactConservation, StaticFrictionKeepsMomentumAndAngularMomentum) {
  const Conservation c = run_glancing(FrictionModel::Objective, 0.3, 0.6);
  EXPECT_GE(c.max_contact_pairs, 1.0) << "the disks must touch";
  EXPECT_GT(c.frictional, 1e-4 * 0.0346);  // friction (and the dashpot) did work
  EXPECT_LT(c.momentum, 1e-12);
  EXPECT_LT(c.angular, 1e-12);
}

double angular_momentum_drift_3d(FrictionModel model) {
  // Two 3D blocks, the upper thrown obliquely onto the lower and sliding across it, no gravity.
  const double h = 1e-3;
  SimulationSpec spec = pd_spec(3, h);
  const int m = add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e6, 0.25));
  add_body(spec, "lower", m, box(3, Vec3(0, 0, 0), Vec3(10 * h, 8 * h, 3 * h)));
  add_body(spec, "upper", m, box(3, Vec3(2 * h, 2 * h, 3.3 * h), Vec3(6 * h, 6 * h, 6.3 * h)),
           Vec3(0.6, 0.3, -0.3))
      .angular_velocity = Vec3(0, 0, 40);
  spec.pd.contact.friction_model = model;
  spec.pd.contact.law.friction = 0.5;
  PdSimulation<3> sim(spec);
  const Vec3 l0 = angular_momentum(sim);
  double drift = 0.0;
  for (int s = 0; s < 600; ++s) {
    sim.step();
    drift = std::max(drift, (angular_momentum(sim) - l0).norm() / l0.norm());
  }
  EXPECT_GT(sim.energy().frictional, 0.0) << "the blocks must slide against each other";
  return drift;
}

TEST(ContactConservation, ObjectiveAndBondFrictionConserveAngularMomentumIn3D) {
  EXPECT_LT(angular_momentum_drift_3d(FrictionModel::Objective), 1e-8);  // round-off
  EXPECT_LT(angular_momentum_drift_3d(FrictionModel::Bfcm), 1e-8);
  // The seed: NFCM's friction is not along the bond, its pair moment is not zero.
  EXPECT_GT(angular_momentum_drift_3d(FrictionModel::Nfcm), 1e-8);
}

}  // namespace
}  // namespace tribo::pd
