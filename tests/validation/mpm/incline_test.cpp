// A block on a flat rigid floor under gravity tilted by 30 degrees (the incline of
// examples/incline.yaml, built in code here so that every normal and position method runs on it).
// Reference: slipping when tan(th) > mu, x(t) = 0.5 g (sin th - mu cos th) t^2; sticking when
// tan(th) <= mu_s; frictionless x(t) = 0.5 g sin th t^2.
#include <gtest/gtest.h>

#include <cstdio>
#include <numbers>

#include "mpm_problems.hpp"

namespace tribo {
namespace {

using testing::body;
using testing::body_centroid;
using testing::box_shape;
using testing::elastic_material;

constexpr double kTheta = std::numbers::pi / 6.0;
constexpr double kG = 9.81;
constexpr double kDuration = 0.15;  // s (the deck-driven validation runs 0.3 s)

struct InclineOptions {
  ContactLawSpec law{ContactLaw::Coulomb, 0.2};
  bool first_pass_to_particles = true;
  ContactNormalMethod normals = ContactNormalMethod::MaxVolumeGradient;
  ContactPositionMethod position = ContactPositionMethod::Displacement;
  bool displacement_check = true;
  ShapeFunctionKind shape = ShapeFunctionKind::Gimp;
  double flip = 1.0;
  double ramp = 0.0;
  double youngs = 1.0e6;
  bool rigid_floor = true;  // else an elastic floor held still by a velocity boundary condition
};

SimulationSpec incline_spec(const InclineOptions& o) {
  SimulationSpec spec;
  spec.dimension = 2;
  spec.time.end = kDuration;
  spec.time.cfl = 0.4;
  spec.gravity = Vec3(kG * std::sin(kTheta), -kG * std::cos(kTheta), 0.0);
  spec.materials.push_back(elastic_material("block", 1000.0, o.youngs, 0.3));
  MaterialSpec floor = elastic_material("floor", 1000.0, 1.0e7, 0.3);
  if (o.rigid_floor) floor.model = MaterialModel::Rigid;
  spec.materials.push_back(floor);
  spec.bodies.push_back(body("block", 0, box_shape(2, Vec3(0.1, 0.1, 0), Vec3(0.2, 0.15, 0))));
  spec.bodies.push_back(body("floor", 1, box_shape(2, Vec3(0.0, 0.08, 0), Vec3(1.0, 0.1, 0))));
  spec.mpm.grid_min = Vec3(0, 0, 0);
  spec.mpm.grid_max = Vec3(1.0, 0.25, 0);
  spec.mpm.cell = Vec3::Constant(0.005);
  spec.mpm.particles_per_cell = 2;
  spec.mpm.shape_function = o.shape;
  spec.mpm.flip = o.flip;
  spec.gravity_ramp = o.ramp;
  spec.mpm.contact.normals = o.normals;
  spec.mpm.contact.specified_normal = Vec3(0, -1, 0);  // out of the block (a) into the floor (b)
  spec.mpm.contact.position_method = o.position;
  spec.mpm.contact.displacement_check = o.displacement_check;
  spec.mpm.contact.first_pass_to_particles = o.first_pass_to_particles;
  ContactPairSpec pair;
  pair.materials = {"block", "floor"};
  pair.material_indices = {0, 1};
  pair.law = o.law;
  spec.mpm.contact.pairs.push_back(pair);
  if (!o.rigid_floor) {
    BoundaryConditionSpec hold;
    hold.region = box_shape(2, Vec3(-1, -1, 0), Vec3(2, 0.0975, 0));  // nodes inside the floor
    hold.velocity = {0.0, 0.0, std::nullopt};
    spec.boundary_conditions.push_back(hold);
  }
  return spec;
}

// Travel of the block's centroid along the floor after kDuration.
double travel(const InclineOptions& o) {
  const SimulationSpec spec = incline_spec(o);
  auto sim = mpm::make_simulation<2>(spec);
  const Vec2 x0 = body_centroid(*sim, 0);
  while (sim->time() < kDuration - 0.5 * sim->dt()) {
    sim->step();
    sim->check_health();
  }
  const Vec2 x1 = body_centroid(*sim, 0);
  std::printf("    travel %.6f m, settle %.3e m, t = %.4f s\n", x1.x() - x0.x(), x1.y() - x0.y(), sim->time());
  return x1.x() - x0.x();
}

double slipping_travel(double mu) {
  return 0.5 * kG * (std::sin(kTheta) - mu * std::cos(kTheta)) * kDuration * kDuration;
}

TEST(Incline, CoulombBlockSlipsAtTheAnalyticAcceleration) {
  // Issue 3: within 3% of 0.5 g (sin th - mu cos th) t^2 after 0.3 s with mu = 0.2.
  EXPECT_NEAR(travel({}) / slipping_travel(0.2), 1.0, 0.03);
}

TEST(Incline, FrictionlessBlockSlidesAtGSinTheta) {
  InclineOptions o;
  o.law = ContactLawSpec{ContactLaw::Frictionless};
  // Issue 3: within 2% of 0.5 g sin th t^2.
  EXPECT_NEAR(travel(o) / slipping_travel(0.0), 1.0, 0.02);
}

// Issue 3: each normal method and both ContactPosition methods on the incline. The slip rate is
// insensitive to the normal on a flat floor, so the 3% tolerance of the slip test holds for all.
struct NormalCase {
  const char* name;
  ContactNormalMethod method;
};

class InclineNormals : public ::testing::TestWithParam<NormalCase> {};

TEST_P(InclineNormals, EveryNormalMethodGivesTheAnalyticSlip) {
  InclineOptions o;
  o.normals = GetParam().method;
  EXPECT_NEAR(travel(o) / slipping_travel(0.2), 1.0, 0.03) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(
    AllMethods, InclineNormals,
    ::testing::Values(NormalCase{"max-volume-gradient", ContactNormalMethod::MaxVolumeGradient},
                      NormalCase{"max-gradient", ContactNormalMethod::MaxGradient},
                      NormalCase{"average-volume-gradient", ContactNormalMethod::AverageVolumeGradient},
                      NormalCase{"mass-gradient", ContactNormalMethod::MassGradient},
                      NormalCase{"specified", ContactNormalMethod::Specified}),
    [](const ::testing::TestParamInfo<NormalCase>& info) {
      std::string n = info.param.name;
      for (char& c : n)
        if (c == '-') c = '_';
      return n;
    });

// With a rigid floor every gradient method takes the floor's gradient; on an elastic floor the
// logistic regression of the particles around each node (Nairn et al. 2018) sets the normal. The
// floor here is compliant (E = 1e7 Pa, free top layer): the block settles ~0.3 mm into it while
// its particles bounce, so the rigid-floor formula is only approximate. Measured at 0.15 s: the
// regression normals 9.9% short of it, the average volume gradient 16.8% short on the same floor.
// The test holds the regression to 12% and to doing better than the gradient normal, the claim of
// Nairn et al. 2018 for regression normals.
TEST(Incline, LogisticRegressionNormalsBeatGradientNormalsOnAnElasticFloor) {
  InclineOptions o;
  o.rigid_floor = false;
  o.normals = ContactNormalMethod::LogisticRegression;
  const double regression = std::abs(travel(o) / slipping_travel(0.2) - 1.0);
  o.normals = ContactNormalMethod::AverageVolumeGradient;
  const double gradient = std::abs(travel(o) / slipping_travel(0.2) - 1.0);
  EXPECT_LT(regression, 0.12);
  EXPECT_LT(regression, gradient);
}

TEST(Incline, PositionMethodWithCutoffGivesTheAnalyticSlip) {
  InclineOptions o;
  o.position = ContactPositionMethod::Position;
  EXPECT_NEAR(travel(o) / slipping_travel(0.2), 1.0, 0.03);
}

// Momentum balance: the block's momentum changes by exactly the impulse the solver reports as
// external (gravity and the rigid floor's contact), the figure summary.json's momentum_balance
// checks. With NairnMPM's pass semantics the first pass's changes never reach the particles, so
// its impulses must not be reported either (they were, and the balance of the rolling disk was off
// by 5% of the momentum moved). Round-off over 2000 steps: about 1e-13 of the impulse moved.
double momentum_balance(bool first_pass_to_particles) {
  InclineOptions o;
  o.first_pass_to_particles = first_pass_to_particles;
  const SimulationSpec spec = incline_spec(o);
  auto sim = mpm::make_simulation<2>(spec);
  const auto block_momentum = [&] {
    const Particles<2>& p = sim->particles();
    Vec2 sum = Vec2::Zero();
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p.body[i] == 0) sum += p.mass[i] * p.velocity[i];
    return sum;
  };
  const Vec2 p0 = block_momentum();
  Vec2 impulse = Vec2::Zero();
  double moved = 0.0;
  while (sim->time() < 0.05) {
    sim->step();
    const Vec3 i = sim->external_impulse();
    impulse += i.head<2>();
    moved += i.head<2>().norm();
  }
  return (block_momentum() - p0 - impulse).norm() / moved;
}

TEST(Incline, ReportedExternalImpulseIsTheMomentumChangeWithEitherPassSemantics) {
  EXPECT_LT(momentum_balance(true), 1e-10);
  EXPECT_LT(momentum_balance(false), 1e-10);
}

}  // namespace
}  // namespace tribo
