// Contact detection at a node (the seed document "Detecting Contact"; NairnMPM multimaterial mode
// and ContactPosition). Node states are built by hand or from explicit particles with the linear
// shape function; expected values are worked out in the comments.
#include "tribo/mpm/contact_detection.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tribo::mpm {
namespace {

constexpr double kRoundOff = 1e-14;

ContactField<2> field(double mass, Vec2 velocity, double volume = 0.5) {
  ContactField<2> f;
  f.mass = mass;
  f.momentum = mass * velocity;
  f.volume = volume;
  return f;
}

NodeContext<2> unit_cell(double dt = 1e-3) { return {Vec2(1.0, 1.0), 1.0, dt}; }

MpmContactSpec settings(bool displacement_check, ContactPositionMethod method = ContactPositionMethod::Displacement,
                        double vmin = 0.0) {
  MpmContactSpec s;
  s.displacement_check = displacement_check;
  s.position_method = method;
  s.vmin = vmin;
  s.position_offset = 0.8;
  return s;
}

// A field at node x = 0 extrapolated from particles on the x axis with S(x) = 1 - |x| / h, h = 1:
// mass = sum S m_p, position = sum S m_p x_p / mass.
ContactField<2> field_from_particles(const std::vector<double>& xs, double particle_mass, Vec2 velocity) {
  ContactField<2> f;
  double weighted_x = 0.0;
  for (double x : xs) {
    const double s = std::max(0.0, 1.0 - std::abs(x));
    f.mass += s * particle_mass;
    weighted_x += s * particle_mass * x;
    f.volume += s * 0.25;  // 2 x 2 particles per unit cell: V_p = 1/4
  }
  f.position = Vec2(weighted_x / f.mass, 0.0);
  f.momentum = f.mass * velocity;
  return f;
}

TEST(ReducedMass, IsTheHarmonicCombinationOrTheDeformableMassAgainstARigidField) {
  ContactField<2> a = field(2.0, Vec2::Zero()), b = field(1.0, Vec2::Zero());
  EXPECT_NEAR(reduced_mass(a, b), 2.0 / 3.0, kRoundOff);
  b.rigid = true;
  EXPECT_DOUBLE_EQ(reduced_mass(a, b), 2.0);
  a.rigid = true;
  EXPECT_DOUBLE_EQ(reduced_mass(a, b), 0.0);
}

TEST(StickMomentumChange, MovesBothFieldsWithTheCentreOfMass) {
  // m_a = 2 at (1, 0.5), m_b = 1 at (-1, 0): s = (2/3)(1, 1) - (2, 1) = (-4/3, -1/3).
  const ContactField<2> a = field(2.0, Vec2(1.0, 0.5)), b = field(1.0, Vec2(-1.0, 0.0));
  const Vec2 s = stick_momentum_change(a, b);
  EXPECT_NEAR(s.x(), -4.0 / 3.0, kRoundOff);
  EXPECT_NEAR(s.y(), -1.0 / 3.0, kRoundOff);
}

TEST(StickMomentumChange, GivesTheDeformableFieldTheRigidVelocity) {
  ContactField<2> a = field(2.0, Vec2(1.0, 0.5)), rigid = field(0.3, Vec2(-1.0, 0.0));
  rigid.rigid = true;
  // b rigid: s = m_a v_b - p_a = (-2, 0) - (2, 1).
  EXPECT_NEAR((stick_momentum_change(a, rigid) - Vec2(-4.0, -1.0)).norm(), 0.0, kRoundOff);
  // a rigid: b's change is -s = m_b v_a - p_b, so s = p_b - m_b v_a = (2, 1) - (-2, 0).
  EXPECT_NEAR((stick_momentum_change(rigid, a) - Vec2(4.0, 1.0)).norm(), 0.0, kRoundOff);
}

TEST(StickForceChange, IsReducedMassTimesTheRelativeAcceleration) {
  ContactField<2> a = field(1.0, Vec2::Zero()), b = field(3.0, Vec2::Zero());
  a.force = Vec2(-100.0, 0.0);
  b.force = Vec2(30.0, 6.0);
  // m_red (a_b - a_a) = (3/4) ((10, 2) - (-100, 0)) = (82.5, 1.5).
  EXPECT_NEAR((stick_force_change(a, b) - Vec2(82.5, 1.5)).norm(), 0.0, 1e-12);
  b.rigid = true;
  EXPECT_NEAR((stick_force_change(a, b) - Vec2(100.0, 0.0)).norm(), 0.0, kRoundOff);
}

TEST(VminScreen, SkipsNodesWithLittleVolumeAndIsOffAtZero) {
  const ContactField<2> a = field(1.0, Vec2::Zero(), 0.1), b = field(1.0, Vec2::Zero(), 0.1);
  EXPECT_TRUE(passes_vmin_screen(a, b, 0.0, 1.0));
  EXPECT_TRUE(passes_vmin_screen(a, b, 0.2, 1.0));   // 0.2 / 1 >= 0.2
  EXPECT_FALSE(passes_vmin_screen(a, b, 0.3, 1.0));  // 0.2 / 1 <  0.3
  // Screened before anything else: approaching and overlapping fields are still not in contact.
  ContactField<2> fast_a = field(1.0, Vec2(1.0, 0.0), 0.1);
  fast_a.displacement = Vec2(1e-3, 0.0);
  const ContactDetection<2> d =
      detect_contact<2>(fast_a, b, Vec2(1, 0), settings(true, ContactPositionMethod::Displacement, 0.3),
                        unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_TRUE(d.screened_out);
  EXPECT_FALSE(d.in_contact);
}

TEST(ApproachCheck, SeparatingSurfacesAreNotInContact) {
  // n = +x out of a: a moving -x and b +x separate (dotn > 0).
  const ContactField<2> a = field(1.0, Vec2(-1.0, 0.0)), b = field(1.0, Vec2(1.0, 0.0));
  const ContactDetection<2> d =
      detect_contact<2>(a, b, Vec2(1, 0), settings(false), unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_NEAR(d.dotn, 1.0, kRoundOff);  // m_red (v_b - v_a).n = 0.5 * 2
  EXPECT_FALSE(d.in_contact);
}

TEST(ApproachCheck, ApproachingSurfacesAreInContactWithoutTheDisplacementCheck) {
  const ContactField<2> a = field(1.0, Vec2(1.0, 0.3)), b = field(1.0, Vec2(-1.0, 0.0));
  const ContactDetection<2> d =
      detect_contact<2>(a, b, Vec2(1, 0), settings(false), unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_NEAR(d.dotn, -1.0, kRoundOff);
  EXPECT_TRUE(d.in_contact);
}

TEST(ApproachCheck, TangentialMotionAloneIsNotAnApproach) {
  const ContactField<2> a = field(1.0, Vec2(0.0, 1.0)), b = field(1.0, Vec2(0.0, -1.0));
  EXPECT_FALSE(detect_contact<2>(a, b, Vec2(1, 0), settings(false), unit_cell(), ContactStage::AfterExtrapolation)
                   .in_contact);
}

TEST(PerpendicularCellSize, IsTheCellSizeAlongTheNormalOnRectangularCells) {
  // dx = 2, dy = 1, n at 30 deg: sqrt((2 cos30)^2 + (1 sin30)^2) = sqrt(3 + 0.25).
  const Vec2 n(std::cos(M_PI / 6), std::sin(M_PI / 6));
  EXPECT_NEAR(perpendicular_cell_size<2>(n, Vec2(2.0, 1.0)), std::sqrt(3.25), kRoundOff);
  EXPECT_NEAR(perpendicular_cell_size<3>(Vec3(0, 0, 1), Vec3(1, 2, 3)), 3.0, kRoundOff);
}

TEST(DisplacementCheck, OverlappingDisplacementsAreInContactAndOpeningOnesAreNot) {
  // Surfaces that start in contact; a pushed +x by 1 mm overlaps b: (u_b - u_a).n = -1e-3.
  ContactField<2> a = field(1.0, Vec2(1.0, 0.0)), b = field(1.0, Vec2(0.0, 0.0));
  a.displacement = Vec2(1e-3, 0.0);
  ContactDetection<2> d =
      detect_contact<2>(a, b, Vec2(1, 0), settings(true), unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_NEAR(d.separation, -1e-3, kRoundOff);
  EXPECT_TRUE(d.in_contact);
  a.displacement = Vec2(-1e-3, 0.0);  // a moved away: a gap although a approaches now
  d = detect_contact<2>(a, b, Vec2(1, 0), settings(true), unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_NEAR(d.separation, 1e-3, kRoundOff);
  EXPECT_FALSE(d.in_contact);
}

TEST(PositionCheck, TouchingSurfacesAreInContact) {
  // Interface at the node, 2 particles per cell per direction: a's particles at -0.25, -0.75 give
  // x_a = -(3/4 * 1/4 + 1/4 * 3/4) = -0.375, b's x_b = +0.375; (x_b - x_a) - 0.8 h = -0.05 < 0.
  const ContactField<2> a = field_from_particles({-0.25, -0.75}, 1.0, Vec2(0.1, 0.0));
  const ContactField<2> b = field_from_particles({0.25, 0.75}, 1.0, Vec2(0.0, 0.0));
  const ContactDetection<2> d = detect_contact<2>(a, b, Vec2(1, 0), settings(true, ContactPositionMethod::Position),
                                                  unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_NEAR(d.separation, -0.05, kRoundOff);
  EXPECT_TRUE(d.in_contact);
}

TEST(PositionCheck, ApproachingSurfacesACellApartAreNotInContactWithTheCheckOnAndAreWithItOff) {
  // Surfaces at x = -0.5 and x = +0.5 (a gap of one cell h = 1): within the node's support a has
  // its particle at -0.75 and b at +0.75, so (x_b - x_a) - 0.8 h = 1.5 - 0.8 = 0.7 > 0.
  const ContactField<2> a = field_from_particles({-0.75}, 1.0, Vec2(0.1, 0.0));
  const ContactField<2> b = field_from_particles({0.75}, 1.0, Vec2(-0.1, 0.0));
  const ContactDetection<2> on = detect_contact<2>(
      a, b, Vec2(1, 0), settings(true, ContactPositionMethod::Position), unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_LT(on.dotn, 0.0);  // they do approach
  EXPECT_NEAR(on.separation, 0.7, kRoundOff);
  EXPECT_FALSE(on.in_contact);
  const ContactDetection<2> off = detect_contact<2>(
      a, b, Vec2(1, 0), settings(false, ContactPositionMethod::Position), unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_TRUE(off.in_contact);
}

TEST(PositionCheck, UsesTheCellSizeAlongTheNormal) {
  // dx = 2: the cutoff is 0.8 * 2 along x.
  ContactField<2> a = field(1.0, Vec2(1.0, 0.0)), b = field(1.0, Vec2::Zero());
  a.position = Vec2(-0.7, 0.3);
  b.position = Vec2(0.7, -0.2);
  const MpmContactSpec s = settings(true, ContactPositionMethod::Position);
  EXPECT_NEAR(separation<2>(a, b, Vec2(1, 0), s, Vec2(2.0, 1.0)), 1.4 - 1.6, kRoundOff);
}

TEST(ExtrapolatedSeparation, CatchesAGapThatClosesDuringTheStep) {
  // Start-of-step gap 1e-4 m (displacements); after the update a moves +0.2 and b -0.2 m/s:
  // m_red = 0.5, s.n = 0.5 (-0.4) = -0.2; no forces: deln = 1e-4 + 1e-3 (-0.2) / 0.5 = -3e-4.
  ContactField<2> a = field(1.0, Vec2(0.2, 0.0)), b = field(1.0, Vec2(-0.2, 0.0));
  b.displacement = Vec2(1e-4, 0.0);
  const ContactDetection<2> start =
      detect_contact<2>(a, b, Vec2(1, 0), settings(true), unit_cell(), ContactStage::AfterExtrapolation);
  EXPECT_FALSE(start.in_contact);
  const ContactDetection<2> end =
      detect_contact<2>(a, b, Vec2(1, 0), settings(true), unit_cell(), ContactStage::AfterMomentumUpdate);
  EXPECT_NEAR(end.separation, -3e-4, 1e-18);
  EXPECT_TRUE(end.in_contact);
}

TEST(ExtrapolatedSeparation, UsesTheMeanRelativeVelocityOverTheStep) {
  // Reference: kinematics with constant accelerations. a (1 kg) had force -100 N in the update, so
  // it started the step at 0.3 m/s and ends at 0.2: its mean velocity is 0.25. b (1 kg) moves
  // -0.2 throughout. The gap closes by dt (0.25 + 0.2) = 4.5e-4: 1e-4 - 4.5e-4 = -3.5e-4.
  ContactField<2> a = field(1.0, Vec2(0.2, 0.0)), b = field(1.0, Vec2(-0.2, 0.0));
  a.force = Vec2(-100.0, 0.0);
  b.displacement = Vec2(1e-4, 0.0);
  const ContactDetection<2> end =
      detect_contact<2>(a, b, Vec2(1, 0), settings(true), unit_cell(), ContactStage::AfterMomentumUpdate);
  EXPECT_NEAR(end.separation, -3.5e-4, 1e-17);
}

TEST(ContactArea, IsTheTributaryFaceForAHalfFilledNode) {
  // V_a = V_b = V_cell / 2: Ac = sqrt(2 (V/2) V) / h = V / h: 2D cell 2 x 1 with thickness 0.1.
  ContactField<2> a = field(1.0, Vec2::Zero(), 0.1), b = field(1.0, Vec2::Zero(), 0.1);
  EXPECT_NEAR(contact_area(a, b, 2.0), 0.2 / 2.0, kRoundOff);
  // 3D unit cell half-filled: the face area 1.
  ContactField<3> c, d;
  c.volume = 0.5;
  d.volume = 0.5;
  EXPECT_NEAR(contact_area(c, d, 1.0), 1.0, kRoundOff);
  // Unequal sides: sqrt(2 * 0.1 * 0.6) / 1.
  c.volume = 0.1;
  EXPECT_NEAR(contact_area(c, d, 1.0), std::sqrt(0.12), kRoundOff);
}

TEST(DetectContact, WorksIn3DWithARigidPartner) {
  ContactField<3> a, floor;
  a.mass = 2.0;
  a.momentum = Vec3(0.4, 0.0, -0.2);  // moving down onto the floor
  a.volume = 0.5;
  a.displacement = Vec3(0, 0, -2e-4);
  floor.mass = 1.0;
  floor.momentum = Vec3::Zero();
  floor.volume = 0.5;
  floor.rigid = true;
  const NodeContext<3> ctx{Vec3(1, 1, 1), 1.0, 1e-3};
  // n out of a toward the floor: -z. s = m_a v_floor - p_a = (-0.4, 0, 0.2): s.n = -0.2.
  const ContactDetection<3> d =
      detect_contact<3>(a, floor, Vec3(0, 0, -1), settings(true), ctx, ContactStage::AfterExtrapolation);
  EXPECT_NEAR(d.dotn, -0.2, kRoundOff);
  EXPECT_NEAR(d.separation, -2e-4, kRoundOff);  // (0 - (-2e-4)) . (-z)
  EXPECT_DOUBLE_EQ(d.reduced_mass, 2.0);
  EXPECT_TRUE(d.in_contact);
}

}  // namespace
}  // namespace tribo::mpm
