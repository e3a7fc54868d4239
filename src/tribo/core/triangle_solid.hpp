#pragma once
// A solid bounded by a triangle surface (an STL body), with an inside test that tolerates small
// gaps in the surface and costs O(triangles in one bucket), not O(triangles), per query.
//
// Inside test: six half-rays from the point, along +-x, +-y, +-z; each votes "inside" when it
// crosses the surface an odd number of times (Jordan-Brouwer parity). On a closed surface all six
// agree; a gap or a hole lets only the rays that pass through it vote wrong, so the majority
// decides, and a 3-3 tie is broken by the generalized winding number (Jacobson, Kavan & Sorkine-
// Hornung 2013, with the solid angle of a triangle from Van Oosterom & Strackee 1983), which is
// robust to gaps by construction but costs O(triangles).
// Rays through an edge or a vertex are decided by a symbolic perturbation of the point (it is
// moved by (eps, eps^2) in the plane across the ray), evaluated with the edge's endpoints in a
// fixed order, so two triangles sharing an edge never both count, nor both miss, the crossing.
// Each axis has a bucket grid over the plane across it, holding the triangles whose projected
// bounding box touches each bucket: a ray visits only its bucket's triangles.
#include <array>
#include <cstddef>
#include <vector>

#include "tribo/core/types.hpp"

namespace tribo {

class TriangleSolid {
 public:
  using Triangle = std::array<Vec3, 3>;

  // `triangles` in any orientation (the parity test needs none); degenerate ones are allowed.
  explicit TriangleSolid(std::vector<Triangle> triangles);

  // Inside, or on the surface.
  bool contains(const Vec3& x) const;
  // Generalized winding number at x: 1 inside a closed outward surface, 0 outside (-1 inward).
  double winding_number(const Vec3& x) const;
  // |sum of signed tetrahedron volumes| (divergence theorem): exact for a closed surface.
  double volume() const;
  const Vec3& lower() const { return lower_; }
  const Vec3& upper() const { return upper_; }
  std::size_t size() const { return triangles_.size(); }
  const std::vector<Triangle>& triangles() const { return triangles_; }

 private:
  // Triangles in buckets over the plane (u, v) across axis k, in compressed rows.
  struct AxisBuckets {
    int u = 0, v = 0;
    double origin_u = 0.0, origin_v = 0.0, inverse_u = 0.0, inverse_v = 0.0;
    int count_u = 1, count_v = 1;
    std::vector<int> start;  // count_u * count_v + 1 offsets into `items`
    std::vector<int> items;  // triangle indices
  };
  enum class Ray { Miss, Parity, OnSurface };
  void build_buckets(int axis);
  // Crossings of the line through x along `axis`, above and below x.
  Ray cast(int axis, const Vec3& x, int& above, int& below) const;

  std::vector<Triangle> triangles_;
  Vec3 lower_ = Vec3::Zero(), upper_ = Vec3::Zero();
  std::array<AxisBuckets, 3> buckets_;
};

}  // namespace tribo
