#pragma once
// Body and region shapes of the deck: boxes, disks/spheres and polygons (2D). Points are 3-vectors
// with z = 0 in 2D, so one type serves both dimensions; `dimension` says which test applies.
#include <vector>

#include "tribo/core/types.hpp"

namespace tribo {

struct Shape {
  enum class Kind { Box, Ball, Polygon };
  Kind kind = Kind::Box;
  int dimension = 2;
  Vec3 min = Vec3::Zero();     // box
  Vec3 max = Vec3::Zero();     // box
  Vec3 center = Vec3::Zero();  // disk (2D) or sphere (3D)
  double radius = 0.0;
  std::vector<Vec2> points;    // polygon vertices, counter-clockwise or not

  // Inside or on the boundary (boxes are closed so that a region on a grid line catches it).
  bool contains(const Vec3& x) const;
  // Axis-aligned bounds of the shape.
  void bounds(Vec3& lo, Vec3& hi) const;
  // Area (2D) or volume (3D) of the shape, exact for boxes, balls and polygons.
  double measure() const;
};

}  // namespace tribo
