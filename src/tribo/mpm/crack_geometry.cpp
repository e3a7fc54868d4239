#include "tribo/mpm/crack_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tribo::mpm {

namespace {

inline double cross(const Vec2& a, const Vec2& b) { return a[0] * b[1] - a[1] * b[0]; }

inline Vec2 left_normal(const Vec2& t) { return Vec2(-t[1], t[0]); }

}  // namespace

void Crack::update_box() {
  box_min = box_max = plane.front();
  for (const Vec2& x : plane) {
    box_min = box_min.cwiseMin(x);
    box_max = box_max.cwiseMax(x);
  }
}

std::vector<Crack> build_cracks(const std::vector<CrackSpec>& specs, double spacing) {
  std::vector<Crack> cracks;
  for (const CrackSpec& spec : specs) {
    Crack crack;
    crack.law = spec.law;
    for (std::size_t k = 0; k + 1 < spec.points.size(); ++k) {
      const Vec2 a = spec.points[k].head<2>(), b = spec.points[k + 1].head<2>();
      const int pieces = std::max(1, static_cast<int>(std::ceil((b - a).norm() / spacing - 1e-9)));
      for (int j = 0; j < pieces; ++j) crack.plane.push_back(a + (b - a) * (static_cast<double>(j) / pieces));
    }
    crack.plane.push_back(spec.points.back().head<2>());
    crack.above = crack.below = crack.plane;
    crack.update_box();
    cracks.push_back(std::move(crack));
  }
  return cracks;
}

bool crosses_crack(const Crack& crack, const Vec2& from, const Vec2& to, CrackSide& side) {
  // A line whose box misses the crack's box cannot cross it (most particle-node lines near a
  // crack end here for every crack but the one they are near).
  const Vec2 lo = from.cwiseMin(to), hi = from.cwiseMax(to);
  if ((hi.array() < crack.box_min.array()).any() || (lo.array() > crack.box_max.array()).any()) return false;
  const Vec2 d = to - from;
  const std::size_t n = crack.plane.size();
  // The side of each crack particle relative to the line (>= 0 counts as the positive side, the
  // half-open rule that makes a line through a crack particle cross exactly one of its segments).
  bool previous = cross(d, crack.plane[0] - from) >= 0.0;
  for (std::size_t i = 1; i < n; ++i) {
    const Vec2& q0 = crack.plane[i - 1];
    const Vec2& q1 = crack.plane[i];
    const bool current = cross(d, q1 - from) >= 0.0;
    const bool ends_straddle = current != previous;
    previous = current;
    if (!ends_straddle) continue;
    const Vec2 t = q1 - q0;
    const bool from_above = cross(t, from - q0) >= 0.0;
    const bool to_above = cross(t, to - q0) >= 0.0;
    if (from_above == to_above) continue;
    side = from_above ? CrackSide::Above : CrackSide::Below;
    return true;
  }
  return false;
}

Vec2 crack_normal_near(const Crack& crack, const Vec2& x) {
  double nearest = std::numeric_limits<double>::infinity();
  Vec2 normal = Vec2::UnitY();
  for (int i = 0; i < crack.segments(); ++i) {
    const Vec2& q0 = crack.plane[i];
    const Vec2 t = crack.plane[i + 1] - q0;
    const double length2 = t.squaredNorm();
    if (!(length2 > 0.0)) continue;
    const double along = std::clamp((x - q0).dot(t) / length2, 0.0, 1.0);
    const double distance2 = (x - q0 - along * t).squaredNorm();
    if (distance2 < nearest) {
      nearest = distance2;
      normal = left_normal(t) / std::sqrt(length2);
    }
  }
  return normal;
}

Vec2 crack_particle_normal(const Crack& crack, int i) {
  const int last = static_cast<int>(crack.plane.size()) - 1;
  const Vec2 t = crack.plane[std::min(i + 1, last)] - crack.plane[std::max(i - 1, 0)];
  const double length = t.norm();
  return length > 0.0 ? Vec2(left_normal(t) / length) : Vec2(Vec2::UnitY());
}

}  // namespace tribo::mpm
