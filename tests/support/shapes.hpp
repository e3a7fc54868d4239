#pragma once
// Body and region shapes built in code for the tests (the deck reader builds them from YAML).
#include "tribo/core/geometry.hpp"

namespace tribo::test_support {

inline Shape box_shape(int dimension, const Vec3& min, const Vec3& max) {
  Shape s;
  s.kind = Shape::Kind::Box;
  s.dimension = dimension;
  s.min = min;
  s.max = max;
  return s;
}

// A disk (dimension 2) or sphere (dimension 3).
inline Shape ball_shape(int dimension, const Vec3& center, double radius) {
  Shape s;
  s.kind = Shape::Kind::Ball;
  s.dimension = dimension;
  s.center = center;
  s.radius = radius;
  return s;
}

}  // namespace tribo::test_support
