// Velocity-weakening friction as PD's contact law (issue 15): the PD pair models take the sliding
// force from the same kernel as the MPM impulse form (contact/velocity_weakening_friction.hpp),
// at the trial slip speed, with mu(v) = mu_k + (mu_s - mu_k) exp(-|v| / v_c) evaluated by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "tribo/pd/friction_models.hpp"

namespace tribo::pd {
namespace {

// mu_k = 0.2, mu_s = 0.4, v_c = 0.2 m/s, as PdContact builds it for `law: velocity-weakening`.
FrictionLaw velocity_law() {
  FrictionLaw l;
  l.coulomb = contact::CoulombFriction::from_coefficients(0.2, 0.4, 0.0);
  l.exact_stick = true;
  l.weakening_velocity = 0.2;
  return l;
}

double mu(double v) { return 0.2 + 0.2 * std::exp(-std::abs(v) / 0.2); }

TEST(VelocityWeakeningPd, NaiveModelSlidesAtMuOfTheTrialSlipSpeed) {
  const FrictionLaw law = velocity_law();
  const Vec2 M(0.0, 1.0);  // the pair's direction; the slip is along x
  const double N = 10.0, stick_rate = 1.0e3;  // stick force 1e3 N/(m/s): far above mu_s N
  // Slip 0.5 m/s at the start of the step, 0.6 m/s trial: the force is mu(0.6) N.
  const PairFriction<2> f =
      naive_friction<2>(law, N, 0.0, stick_rate, M, Vec2(0.5, 0.0), Vec2(0.6, 0.0));
  EXPECT_NEAR(f.force_on_first.x(), mu(0.6) * N, 1e-13);  // round-off of O(10) numbers
  EXPECT_NEAR(f.force_on_first.y(), 0.0, 1e-15);
  // The slip it leaves: 0.6 - F / s > 0 (the pair slides, which drives no slip history here).
  EXPECT_NEAR(f.slip_after, 0.6 - mu(0.6) * N / stick_rate, 1e-13);
}

TEST(VelocityWeakeningPd, BondModelUsesTheSameKernelAsMpm) {
  const FrictionLaw law = velocity_law();
  const Vec2 M(1.0, 0.0);
  const double N = 4.0, stick_rate = 1.0e3;
  const PairFriction<2> f = bond_friction<2>(law, N, 0.0, stick_rate, M, Vec2(0.05, 0.0), Vec2(0.1, 0.0));
  const contact::VelocityWeakeningFriction kernel{law.coulomb, 0.2};
  EXPECT_EQ(f.force_on_first.x(), kernel.resolve(N, stick_rate * 0.1, 0.0, 0.1).magnitude);
  EXPECT_NEAR(f.force_on_first.x(), mu(0.1) * N, 1e-13);
}

TEST(VelocityWeakeningPd, HoldsWithinTheStaticLimit) {
  const FrictionLaw law = velocity_law();
  const Vec2 M(0.0, 1.0);
  // Stick force 1 N (1 mm/s trial slip at 1e3 kg/s) below mu_s N = 4 N: the pair sticks.
  const PairFriction<2> f =
      naive_friction<2>(law, 10.0, 0.0, 1.0e3, M, Vec2(0.0, 0.0), Vec2(1.0e-3, 0.0));
  EXPECT_NEAR(f.force_on_first.x(), 1.0, 1e-13);
  EXPECT_EQ(f.slip_after, -1.0);
}

}  // namespace
}  // namespace tribo::pd
