#pragma once
// Explicit cracks in the MPM grid (NairnMPM's CRAMP; Nairn 2003, CMES 4:649, "Material point
// method calculations with explicit cracks"): a 2D crack is a polyline of crack particles, each
// with three positions: the crack plane and the two crack surfaces, "above" (left of the
// polyline's direction, the side its normal points to) and "below". Geometry only: crossing tests
// for particle-node lines, the nearest segment's normal, and the crack particles built from a
// deck's polyline. docs/mpm-cracks.md.
#include <cstdint>
#include <vector>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/core/types.hpp"

namespace tribo::mpm {

// Which side of a crack a point is on: above = left of the segment direction (the unit normal
// n = (-t_y, t_x) points above), below = right. A point exactly on the segment's line counts as
// above, so that a particle-node line is always decided one way (nodes on a crack lying along a
// grid line see it from above).
enum class CrackSide : std::uint8_t { Above = 0, Below = 1 };

struct Crack {
  std::vector<Vec2> plane;  // crack particles: the crack plane (mean of the surfaces), m
  std::vector<Vec2> above;  // the surface of the material above, m
  std::vector<Vec2> below;  // the surface of the material below, m
  ContactLawSpec law{ContactLaw::Frictionless};
  Vec2 box_min = Vec2::Zero(), box_max = Vec2::Zero();  // bounding box of `plane`

  int segments() const { return static_cast<int>(plane.size()) - 1; }
  void update_box();
};

// Crack particles along each deck polyline, no more than `spacing` apart (every deck point is
// one; the segments between are split evenly). The three positions start equal (a closed crack).
std::vector<Crack> build_cracks(const std::vector<CrackSpec>& specs, double spacing);

// Whether the segment from `from` (a material point) to `to` (a node) crosses the crack plane;
// when it does, `side` is the side of `from` at the first segment crossed. Sides as CrackSide: a
// point on a segment's line is above it; an end of a crack segment on the line from..to counts
// for one of its two segments only (the same half-open rule), so a line through a crack particle
// crosses once.
bool crosses_crack(const Crack& crack, const Vec2& from, const Vec2& to, CrackSide& side);

// The unit normal (pointing above) of the crack segment nearest x.
Vec2 crack_normal_near(const Crack& crack, const Vec2& x);

// The unit normal of the crack at crack particle i: the mean of its segments' normals.
Vec2 crack_particle_normal(const Crack& crack, int i);

}  // namespace tribo::mpm
