// Imperfect interface springs (Nairn 2013, CMES 92:271: traction = D * opening). References: the
// linear spring law by hand; tolerances are round-off.
#include "tribo/contact/interface_springs.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace tribo::contact {
namespace {

TEST(InterfaceTraction, IsStiffnessTimesAreaTimesOpeningInEachDirection) {
  // D_n = 1e3, D_t = 2e3 Pa/m, Ac = 0.5 m^2, opening (1e-3, 2e-3), n = +x.
  const InterfaceTraction<2> t = interface_traction<2>({1e3, 2e3}, Vec2(1e-3, 2e-3), Vec2(1, 0), 0.5);
  EXPECT_NEAR(t.normal_force.x(), 0.5, 1e-15);
  EXPECT_NEAR(t.normal_force.y(), 0.0, 1e-15);
  EXPECT_NEAR(t.tangential_force.x(), 0.0, 1e-15);
  EXPECT_NEAR(t.tangential_force.y(), 2.0, 1e-15);
  // E = Ac (D_n d_n^2 + D_t d_t^2) / 2 = 0.25 (1e-3 + 8e-3) = 2.25e-3 J.
  EXPECT_NEAR(t.energy, 2.25e-3, 1e-17);
}

TEST(InterfaceTraction, ClosingTheInterfacePushesTheSidesApart) {
  const InterfaceTraction<3> t = interface_traction<3>({1e3, 0.0}, Vec3(0, 0, -1e-3), Vec3(0, 0, 1), 1.0);
  EXPECT_NEAR(t.normal_force.z(), -1.0, 1e-15);  // on a, away from b
  EXPECT_EQ(t.tangential_force, Vec3::Zero());
}

TEST(InterfaceTraction, UsesTheComponentsAlongAnObliqueNormal) {
  const Vec3 n = Vec3(1, 1, 0).normalized();
  const InterfaceTraction<3> t = interface_traction<3>({1.0, 1.0}, Vec3(1, 0, 0), n, 1.0);
  // Equal stiffnesses: the force is D Ac times the whole opening.
  EXPECT_NEAR((t.normal_force + t.tangential_force - Vec3(1, 0, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(t.normal_force.dot(n), std::sqrt(0.5), 1e-15);
}

TEST(SpringStability, ResolvesSpringsBelowPiSquaredOverFourAndNotAbove) {
  // k dt^2 / m_red against (pi/2)^2 = 2.4674.
  EXPECT_TRUE(spring_is_resolved(2.4e6, 1.0, 1e-3, 1.0));
  EXPECT_FALSE(spring_is_resolved(2.5e6, 1.0, 1e-3, 1.0));
  EXPECT_TRUE(spring_is_resolved(0.0, 1.0, 1e-3, 1.0));
}

}  // namespace
}  // namespace tribo::contact
