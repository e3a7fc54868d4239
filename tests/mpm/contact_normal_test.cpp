// Contact normals at a node (NairnMPM MultimaterialMode normals; Nairn, Bardenhagen and Smith
// 2018). Gradients are constructed by hand so that each method's choice is known; the regression
// normals are checked on particles split by a known plane.
#include "tribo/mpm/contact_normal.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <vector>

namespace tribo::mpm {
namespace {

constexpr double kRoundOff = 1e-14;

ContactField<2> with_gradient(Vec2 g, double volume = 0.5) {
  ContactField<2> f;
  f.mass = 1.0;
  f.volume = volume;
  f.volume_gradient = g;
  return f;
}

void expect_unit_along(const Vec2& n, Vec2 expected) {
  expected.normalize();
  EXPECT_NEAR(n.norm(), 1.0, kRoundOff);
  EXPECT_NEAR((n - expected).norm(), 0.0, 1e-14) << n.transpose() << " vs " << expected.transpose();
}

double angle_degrees(const Vec3& u, const Vec3& v) {
  return std::acos(std::clamp(u.normalized().dot(v.normalized()), -1.0, 1.0)) * 180.0 / M_PI;
}

TEST(MaxGradient, UsesAsGradientWhenItIsTheLargest) {
  const ContactField<2> a = with_gradient({2, 0}), b = with_gradient({-1, 1});
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxGradient, a, b, a.volume_gradient + b.volume_gradient,
                                      Vec2::Zero()),
                    {1, 0});
}

TEST(MaxGradient, UsesMinusTheOthersGradientWhenThatIsLarger) {
  const ContactField<2> a = with_gradient({1, 0}), b = with_gradient({-2, 2});
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxGradient, a, b, a.volume_gradient + b.volume_gradient,
                                      Vec2::Zero()),
                    {2, -2});
}

TEST(MaxGradient, ComparesWithEveryOtherFieldAtTheNodeNotOnlyB) {
  // A third field c with gradient (0, -3): the others are (-0.5, 0) + (0, -3), larger than |g_a| = 1.
  const ContactField<2> a = with_gradient({1, 0}), b = with_gradient({-0.5, 0});
  const Vec2 sum = a.volume_gradient + b.volume_gradient + Vec2(0, -3);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxGradient, a, b, sum, Vec2::Zero()), {0.5, 3});
}

TEST(MaxVolumeGradient, UsesTheGradientOfTheSideWithMoreVolume) {
  const ContactField<2> a = with_gradient({1, 0.2}, 0.3), b = with_gradient({-0.1, -1}, 0.6);
  const Vec2 sum = a.volume_gradient + b.volume_gradient;
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxVolumeGradient, a, b, sum, Vec2::Zero()), {0.1, 1});
  const ContactField<2> big_a = with_gradient({1, 0.2}, 0.7);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxVolumeGradient, big_a, b, sum, Vec2::Zero()), {1, 0.2});
}

TEST(AverageVolumeGradient, IsTheVolumeWeightedMeanOfBothEstimates) {
  // V_a g_a - V_b g_b = 1 (1, 0) - 2 (0, -1) = (1, 2).
  const ContactField<2> a = with_gradient({1, 0}, 1.0), b = with_gradient({0, -1}, 2.0);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::AverageVolumeGradient, a, b, Vec2::Zero(), Vec2::Zero()),
                    {1, 2});
}

TEST(AverageVolumeGradient, IsTheFallbackGivenForLogisticRegression) {
  const ContactField<2> a = with_gradient({1, 0}, 1.0), b = with_gradient({0, -1}, 2.0);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::LogisticRegression, a, b, Vec2::Zero(), Vec2::Zero()),
                    {1, 2});
}

TEST(MassGradient, UsesAsOwnMassGradient) {
  ContactField<2> a = with_gradient({1, 0}), b = with_gradient({-1, 0});
  a.mass_gradient = Vec2(0, 3);
  b.mass_gradient = Vec2(5, 5);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MassGradient, a, b, Vec2::Zero(), Vec2::Zero()), {0, 1});
  a.mass_gradient.setZero();  // degenerate: the other side's estimate
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MassGradient, a, b, Vec2::Zero(), Vec2::Zero()), {-1, -1});
}

TEST(SpecifiedNormal, IsNormalisedAndIgnoresTheGradients) {
  ContactField<2> a = with_gradient({1, 0}), b = with_gradient({-1, 0});
  b.rigid = true;
  expect_unit_along(contact_normal<2>(ContactNormalMethod::Specified, a, b, Vec2::Zero(), Vec2(0, 2)), {0, 1});
  EXPECT_EQ(contact_normal<2>(ContactNormalMethod::Specified, a, b, Vec2::Zero(), Vec2::Zero()), Vec2::Zero());
}

TEST(RigidPreference, TheRigidGradientWinsOverALargerDeformableOne) {
  ContactField<2> a = with_gradient({5, 0}, 0.9), floor = with_gradient({0, -1}, 0.1);
  floor.rigid = true;
  const Vec2 sum = a.volume_gradient + floor.volume_gradient;
  for (ContactNormalMethod m : {ContactNormalMethod::MaxGradient, ContactNormalMethod::MaxVolumeGradient,
                                ContactNormalMethod::AverageVolumeGradient, ContactNormalMethod::MassGradient,
                                ContactNormalMethod::LogisticRegression})
    expect_unit_along(contact_normal<2>(m, a, floor, sum, Vec2::Zero()), {0, 1});
  // A rigid a: its own gradient, pointing out of it.
  ContactField<2> rigid_a = with_gradient({0, 2});
  rigid_a.rigid = true;
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxGradient, rigid_a, a, sum, Vec2::Zero()), {0, 1});
}

TEST(RigidPreference, FallsBackToTheMethodWhenTheRigidGradientIsZero) {
  ContactField<2> a = with_gradient({3, 4}), floor = with_gradient({0, 0});
  floor.rigid = true;
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxGradient, a, floor, a.volume_gradient, Vec2::Zero()),
                    {3, 4});
}

// Issue 13: inside a rigid floor the volume gradient cancels to ~1e-16 of a surface value and
// points anywhere; taken as the normal it pulled a disk into the floor. A gradient below 1e-8 of
// the largest at the node is noise: the deformable field's own surface gradient decides.
TEST(RigidPreference, IgnoresARigidGradientThatIsRoundingNoise) {
  ContactField<2> disk = with_gradient({0, -2}, 0.2), floor = with_gradient({3e-17, 1e-16}, 1.0);
  floor.rigid = true;
  const Vec2 sum = disk.volume_gradient + floor.volume_gradient;
  for (ContactNormalMethod m : {ContactNormalMethod::MaxGradient, ContactNormalMethod::MaxVolumeGradient,
                                ContactNormalMethod::AverageVolumeGradient, ContactNormalMethod::LogisticRegression})
    expect_unit_along(contact_normal<2>(m, disk, floor, sum, Vec2::Zero()), {0, -1});
  // Just above the threshold (1e-7 of the larger) a gradient is a surface, and the rigid one wins.
  floor.volume_gradient = {0, -2e-7};
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxVolumeGradient, disk, floor, sum, Vec2::Zero()), {0, 1});
}

// Stop 22: where the deformable field only grazes a node inside the floor its own gradient is
// tiny too (1e-12 here), and the floor's noise (1e-16 of its volume over a cell) passed the
// relative test against it; which way the noise pointed depended on the order of the sums, so a
// sphere on 3 processes left the one-process run. Against the floor's own scale V / h (the cell
// length given) the noise is zero, and the grazing field's gradient decides.
TEST(RigidPreference, IgnoresRigidNoiseAgainstItsOwnScaleWhereTheOtherFieldGrazesTheNode) {
  const double h = 0.01;
  ContactField<2> grazing = with_gradient({0, -2e-12}, 1e-14), floor = with_gradient({3e-17, -1e-16}, 1e-4);
  floor.rigid = true;
  const Vec2 sum = grazing.volume_gradient + floor.volume_gradient;
  // Without a cell length (the node's largest gradient as the only scale) the noise is taken.
  expect_unit_along(contact_normal<2>(ContactNormalMethod::AverageVolumeGradient, grazing, floor, sum, Vec2::Zero()),
                    {-3e-17, 1e-16});
  for (ContactNormalMethod m : {ContactNormalMethod::MaxGradient, ContactNormalMethod::MaxVolumeGradient,
                                ContactNormalMethod::AverageVolumeGradient, ContactNormalMethod::LogisticRegression})
    expect_unit_along(contact_normal<2>(m, grazing, floor, sum, Vec2::Zero(), h), {0, -1});
  // A floor surface gradient (of the order of V / h) is still the rigid normal.
  floor.volume_gradient = {0, -0.5 * floor.volume / h};
  expect_unit_along(contact_normal<2>(ContactNormalMethod::AverageVolumeGradient, grazing, floor,
                                      Vec2(grazing.volume_gradient + floor.volume_gradient), Vec2::Zero(), h),
                    {0, 1});
}

TEST(DegenerateGradients, NoiseInTheChosenDeformableFieldFallsBackToTheOther) {
  // MaxVolumeGradient prefers a (more volume), but a's gradient is noise: -g_b decides.
  const ContactField<2> a = with_gradient({1e-17, -1e-17}, 0.9), b = with_gradient({0, -2}, 0.1);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxVolumeGradient, a, b, a.volume_gradient + b.volume_gradient,
                                      Vec2::Zero()),
                    {0, 1});
  // The average of two estimates that cancel to noise is no direction: the larger one decides.
  const ContactField<2> c = with_gradient({1, 1e-17}, 1.0), d = with_gradient({1, 0}, 1.0 + 1e-16);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::AverageVolumeGradient, c, d, Vec2::Zero(), Vec2::Zero()),
                    {1, 0});
}

TEST(DegenerateGradients, FallBackToTheOtherSideAndGiveZeroWhenAllVanish) {
  const ContactField<2> zero = with_gradient({0, 0}), b = with_gradient({0, -2});
  // MaxVolumeGradient with V_a >= V_b but g_a = 0: use -g_b.
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxVolumeGradient, zero, b, b.volume_gradient, Vec2::Zero()),
                    {0, 1});
  // Opposite estimates that cancel in the average: the larger gradient decides.
  const ContactField<2> a1 = with_gradient({1, 0}, 1.0), b1 = with_gradient({1, 0}, 1.0);
  expect_unit_along(contact_normal<2>(ContactNormalMethod::AverageVolumeGradient, a1, b1, Vec2::Zero(), Vec2::Zero()),
                    {1, 0});
  for (ContactNormalMethod m : {ContactNormalMethod::MaxGradient, ContactNormalMethod::MaxVolumeGradient,
                                ContactNormalMethod::AverageVolumeGradient, ContactNormalMethod::MassGradient})
    EXPECT_EQ(contact_normal<2>(m, zero, zero, Vec2::Zero(), Vec2::Zero()), Vec2::Zero());
  const ContactField<2> nan = with_gradient({std::nan(""), 0});
  expect_unit_along(contact_normal<2>(ContactNormalMethod::MaxVolumeGradient, nan, b, Vec2::Zero(), Vec2::Zero()),
                    {0, 1});
}

TEST(ContactNormal, WorksIn3D) {
  ContactField<3> a, b;
  a.volume = 1.0;
  b.volume = 1.0;
  a.volume_gradient = Vec3(0, 0, 1);
  b.volume_gradient = Vec3(0, -1, 0);
  const Vec3 n = contact_normal<3>(ContactNormalMethod::AverageVolumeGradient, a, b, Vec3::Zero(), Vec3::Zero());
  EXPECT_NEAR((n - Vec3(0, 1, 1).normalized()).norm(), 0.0, kRoundOff);
}

// Volume gradients extrapolated from particles, as the grid does: a body on each side of a plane
// through the node at 20 deg, 2 x 2 particles per unit cell, bilinear S = (1 - |x|)(1 - |y|).
// Reference: the plane's normal. Measured 0.9 deg for every method (the staircase of particles
// tilts the gradients slightly); tolerance 3 deg, far below the 180 deg of a reversed sign.
TEST(ContactNormal, GradientsFromParticlesPointFromAToB) {
  const Vec2 n(std::cos(20.0 * M_PI / 180.0), std::sin(20.0 * M_PI / 180.0));
  ContactField<2> a, b;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const Vec2 x(-1.0 + 0.25 * i + 0.125, -1.0 + 0.25 * j + 0.125);
      const double vp = 0.0625;  // 0.25 x 0.25
      const double s = (1.0 - std::abs(x.x())) * (1.0 - std::abs(x.y()));
      const Vec2 grad(-std::copysign(1.0, x.x()) * (1.0 - std::abs(x.y())),
                      -std::copysign(1.0, x.y()) * (1.0 - std::abs(x.x())));
      ContactField<2>& f = x.dot(n) < 0.0 ? a : b;
      f.mass += s * vp * 1000.0;
      f.volume += s * vp;
      f.volume_gradient += vp * grad;
      f.mass_gradient += 1000.0 * vp * grad;
    }
  const Vec2 sum = a.volume_gradient + b.volume_gradient;
  for (ContactNormalMethod m : {ContactNormalMethod::MaxGradient, ContactNormalMethod::MaxVolumeGradient,
                                ContactNormalMethod::AverageVolumeGradient, ContactNormalMethod::MassGradient}) {
    const Vec2 found = contact_normal<2>(m, a, b, sum, Vec2::Zero());
    const double error = angle_degrees(to_vec3<2>(found), to_vec3<2>(n));
    std::printf("particle gradients, method %d: %.2f deg\n", static_cast<int>(m), error);
    EXPECT_LT(error, 3.0) << static_cast<int>(m);
  }
}

// Particles around a node at the origin, cell h = 1, `per_cell` per cell per direction, jittered
// by a fixed pseudo-random sequence; labelled by the side of the plane (x - x0).n > 0 (b, +1);
// weighted by the linear shape function of the node.
template <int Dim>
struct SplitCloud {
  std::vector<Vec<Dim>> x;
  std::vector<int> label;
  std::vector<double> weight;
};

template <int Dim>
SplitCloud<Dim> split_cloud(const Vec<Dim>& n, const Vec<Dim>& x0, int per_cell, double jitter) {
  SplitCloud<Dim> c;
  std::uint64_t state = 12345;
  auto uniform = [&state] {  // LCG (Knuth MMIX), deterministic
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
  };
  const int side = 2 * per_cell;
  const int total = static_cast<int>(std::pow(side, Dim));
  for (int k = 0; k < total; ++k) {
    Vec<Dim> p;
    int rest = k;
    for (int d = 0; d < Dim; ++d) {
      p[d] = -1.0 + (rest % side + 0.5 + jitter * uniform()) / per_cell;
      rest /= side;
    }
    double w = 1.0;
    for (int d = 0; d < Dim; ++d) w *= std::max(0.0, 1.0 - std::abs(p[d]));
    c.x.push_back(p);
    c.label.push_back((p - x0).dot(n) > 0.0 ? 1 : -1);
    c.weight.push_back(w);
  }
  return c;
}

TEST(LogisticRegression, RecoversAKnownPlaneIn2D) {
  // Reference: the plane that labelled the particles. With 4 particles per cell per direction the
  // labels fix the plane only to within the particle spacing over the support (about atan(0.25/2)
  // = 7 deg at worst); measured 0.3 deg. Tolerance 3 deg.
  const Vec2 n(std::cos(M_PI / 6), std::sin(M_PI / 6));
  const SplitCloud<2> c = split_cloud<2>(n, Vec2(0.1, -0.05), 4, 0.3);
  const Vec2 found = logistic_regression_normal<2>(c.x.data(), c.label.data(), c.weight.data(),
                                                   static_cast<int>(c.x.size()), Vec2(1, 0));
  EXPECT_NEAR(found.norm(), 1.0, 1e-12);
  std::printf("2D plane: logistic regression normal off by %.3f deg\n", angle_degrees(to_vec3<2>(found), to_vec3<2>(n)));
  EXPECT_LT(angle_degrees(to_vec3<2>(found), to_vec3<2>(n)), 3.0);
}

TEST(LogisticRegression, RecoversAKnownPlaneIn3D) {
  const Vec3 n = Vec3(1.0, -2.0, 2.5).normalized();
  const SplitCloud<3> c = split_cloud<3>(n, Vec3(0.05, 0.1, -0.1), 3, 0.3);
  const Vec3 found = logistic_regression_normal<3>(c.x.data(), c.label.data(), c.weight.data(),
                                                   static_cast<int>(c.x.size()), Vec3(1, 0, 0));
  std::printf("3D plane: logistic regression normal off by %.3f deg\n", angle_degrees(found, n));
  EXPECT_LT(angle_degrees(found, n), 4.0);  // measured 1.1 deg; 3 particles per cell per direction
}

// Mean and worst angular error over planes of random direction and offset (|x0_d| <= 0.3 h).
template <int Dim>
void regression_errors(int planes, int per_cell, double& logistic_mean, double& linear_mean, double& logistic_max) {
  std::uint64_t state = 777;
  auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
  };
  logistic_mean = linear_mean = logistic_max = 0.0;
  for (int k = 0; k < planes; ++k) {
    Vec<Dim> n, x0;
    for (int d = 0; d < Dim; ++d) n[d] = uniform();
    for (int d = 0; d < Dim; ++d) x0[d] = 0.6 * uniform();
    n.normalize();
    const SplitCloud<Dim> c = split_cloud<Dim>(n, x0, per_cell, 0.3);
    const int count = static_cast<int>(c.x.size());
    const Vec<Dim> g = logistic_regression_normal<Dim>(c.x.data(), c.label.data(), c.weight.data(), count, n);
    const Vec<Dim> l = linear_regression_normal<Dim>(c.x.data(), c.label.data(), c.weight.data(), count, n);
    const double eg = angle_degrees(to_vec3<Dim>(g), to_vec3<Dim>(n));
    logistic_mean += eg / planes;
    linear_mean += angle_degrees(to_vec3<Dim>(l), to_vec3<Dim>(n)) / planes;
    logistic_max = std::max(logistic_max, eg);
  }
}

TEST(LogisticRegression, OnAverageBeatsTheLinearStartIn2D) {
  // 200 planes, 4 particles per cell per direction. Measured: logistic mean 1.7 deg (worst 8.4 deg,
  // a plane through a corner of the support where a few particles carry one label), linear 2.4.
  // Tolerances: mean below the linear one and below 2.5 deg; worst below 15 deg.
  double logistic, linear, worst;
  regression_errors<2>(200, 4, logistic, linear, worst);
  std::printf("2D: logistic mean %.2f deg (worst %.2f), linear mean %.2f deg\n", logistic, worst, linear);
  EXPECT_LT(logistic, linear);
  EXPECT_LT(logistic, 2.5);
  EXPECT_LT(worst, 15.0);
}

TEST(LogisticRegression, OnAverageBeatsTheLinearStartIn3D) {
  // 200 planes, 3 per cell per direction. Measured: logistic mean 1.1 deg (worst 6.4), linear 2.6.
  double logistic, linear, worst;
  regression_errors<3>(200, 3, logistic, linear, worst);
  std::printf("3D: logistic mean %.2f deg (worst %.2f), linear mean %.2f deg\n", logistic, worst, linear);
  EXPECT_LT(logistic, linear);
  EXPECT_LT(logistic, 1.6);
  EXPECT_LT(worst, 10.0);
}

TEST(LogisticRegression, ReturnsTheFallbackWithoutParticlesOfBothLabels) {
  const std::vector<Vec2> x{Vec2(0.1, 0.2), Vec2(-0.3, 0.4)};
  const std::vector<int> labels{1, 1};
  const std::vector<double> w{0.5, 0.5};
  const Vec2 fallback(0, 1);
  EXPECT_EQ(logistic_regression_normal<2>(x.data(), labels.data(), w.data(), 2, fallback), fallback);
  EXPECT_EQ(logistic_regression_normal<2>(x.data(), labels.data(), w.data(), 0, fallback), fallback);
  const std::vector<int> mixed{1, -1};
  const std::vector<double> zero{0.0, 0.0};
  EXPECT_EQ(logistic_regression_normal<2>(x.data(), mixed.data(), zero.data(), 2, fallback), fallback);
}

TEST(LogisticRegression, PointsFromAToB) {
  // a (-1) on the left, b (+1) on the right of x = 0: n = +x.
  const std::vector<Vec2> x{Vec2(-0.5, -0.5), Vec2(-0.5, 0.5), Vec2(0.5, -0.5), Vec2(0.5, 0.5)};
  const std::vector<int> labels{-1, -1, 1, 1};
  const std::vector<double> w{0.25, 0.25, 0.25, 0.25};
  const Vec2 found = logistic_regression_normal<2>(x.data(), labels.data(), w.data(), 4, Vec2(0, 1));
  EXPECT_NEAR((found - Vec2(1, 0)).norm(), 0.0, 1e-10);  // symmetric data: exact direction
}

}  // namespace
}  // namespace tribo::mpm
