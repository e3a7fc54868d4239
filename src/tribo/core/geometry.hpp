#pragma once
// Body and region shapes of the deck: boxes, disks/spheres and polygons (2D), closed triangle
// surfaces read from STL files (3D) and point clouds read from CSV files. Points are 3-vectors
// with z = 0 in 2D, so one type serves both dimensions; `dimension` says which test applies.
#include <memory>
#include <string>
#include <vector>

#include "tribo/core/triangle_solid.hpp"
#include "tribo/core/types.hpp"

namespace tribo {

struct Shape {
  enum class Kind { Box, Ball, Polygon, Mesh, Points };
  Kind kind = Kind::Box;
  int dimension = 2;
  Vec3 min = Vec3::Zero();     // box
  Vec3 max = Vec3::Zero();     // box
  Vec3 center = Vec3::Zero();  // disk (2D) or sphere (3D)
  double radius = 0.0;
  std::vector<Vec2> points;    // polygon vertices, counter-clockwise or not
  // Mesh and Points: the file they were read from (absolute), and its contents, shared by copies.
  std::string file;
  std::shared_ptr<const TriangleSolid> mesh;
  // Points: the particles or PD points themselves, at these positions; `point_volumes` is empty
  // when the file gives none (the method's own cell volume is used then). m^3, or m^2 in 2D.
  std::shared_ptr<const std::vector<Vec3>> cloud;
  std::shared_ptr<const std::vector<double>> point_volumes;

  // Inside or on the boundary (boxes are closed so that a region on a grid line catches it).
  // A point cloud has no inside: false.
  bool contains(const Vec3& x) const;
  // Axis-aligned bounds of the shape.
  void bounds(Vec3& lo, Vec3& hi) const;
  // Area (2D) or volume (3D) of the shape, exact for boxes, balls, polygons and closed meshes;
  // for a point cloud, the sum of its point volumes (0 when the file gives none).
  double measure() const;
};

// The part of an axis-aligned cell (centre, sides `size`; the first `dimension` axes) that lies in
// a shape: its share of the cell's measure and its centroid. MPM fills a body with one particle per
// such part (`mpm.particle_fill: clipped`), so a curved or oblique surface is carried by particles
// of the cut cells' volumes at their centroids instead of a staircase of whole cells.
// A cell whose centre and 2^dimension corners are all inside counts as whole (fraction exactly 1,
// centroid exactly the centre), one with none of them inside as empty; any other is sampled at
// kClippedSamples[dimension - 2] points per side (the midpoints of a regular subdivision), so the
// fraction and centroid of a cut cell are exact to 1 / samples of its side. A feature thinner than
// a cell that misses all its corners and its centre is not seen (as by the centre rule): a sharp
// tip, or the sliver by which a disk's edge bulges past a cell side (h^2 / 8R, more than a
// sample's spacing only for radii under a few cells).
// 4 per side in 3D (64 tests a cut cell): an STL body's tests cast rays, and 6 per side cost 30%
// more start-up for no difference a test sees (an STL sphere's volume -0.008% at 4, +0.001% at 6).
inline constexpr int kClippedSamples[2] = {16, 4};
struct CellOverlap {
  double fraction = 0.0;
  Vec3 centroid = Vec3::Zero();
};
CellOverlap cell_overlap(const Shape& shape, const Vec3& centre, const Vec3& size);
// cell_overlap(...).fraction > 0, decided the same way but stopping at the first sample inside
// (the particle counts of deck_limits.cpp, made for every deck read).
bool cell_overlaps(const Shape& shape, const Vec3& centre, const Vec3& size);

}  // namespace tribo
