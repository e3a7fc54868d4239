// cell_overlap (core/geometry.hpp): the share of a cell inside a shape and its centroid, which the
// MPM fill (`mpm.particle_fill: clipped`) gives each particle of a cut sub-cell.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "tribo/core/geometry.hpp"
#include "../support/shapes.hpp"
#include "../support/uv_sphere.hpp"

namespace tribo {
namespace {

using test_support::ball_shape;
using test_support::box_shape;

TEST(CellOverlap, WholeAndEmptyCellsAreExact) {
  const Shape d = ball_shape(2, Vec3(0.3, 0.2, 0), 0.1);
  const Vec3 size(0.01, 0.01, 0);
  const CellOverlap inside = cell_overlap(d, Vec3(0.31, 0.21, 0), size);
  EXPECT_EQ(inside.fraction, 1.0);
  EXPECT_EQ(inside.centroid, Vec3(0.31, 0.21, 0));  // bit for bit: the centre rule's particle
  EXPECT_EQ(cell_overlap(d, Vec3(0.5, 0.5, 0), size).fraction, 0.0);
}

TEST(CellOverlap, ABoxFaceAcrossTheCellGivesItsExactShareAndCentroid) {
  // The face at a quarter of the cell (a multiple of the 1/16 sampling step): 4 of 16 sample rows
  // lie inside, so the share is 1/4 exactly and the centroid the middle of that quarter; any
  // sampling error would show as a multiple of 1/16.
  const Vec3 size(0.04, 0.04, 0);
  const Shape b = box_shape(2, Vec3(0, 0, 0), Vec3(1, 0.11, 0));  // cell [0.10, 0.14] in y: 0.01 inside
  const CellOverlap part = cell_overlap(b, Vec3(0.5, 0.12, 0), size);
  EXPECT_NEAR(part.fraction, 0.25, 1e-15);
  EXPECT_NEAR(part.centroid.x(), 0.5, 1e-15);
  EXPECT_NEAR(part.centroid.y(), 0.105, 1e-15);
}

TEST(CellOverlap, CutCellsOfADiskSumToItsAreaAndCentre) {
  // A disk of radius 10.37 cells at an arbitrary offset to the lattice: the parts of the cells
  // sum to the disk's area and their first moment to its centre. Each cut cell's share is exact
  // to about one sample row (1/16 of the cell) and the errors of neighbouring cells cancel in
  // part. The bound is a fiftieth of the worst case (every cut cell off by a whole sample row,
  // 77 cut cells * h^2 / 16): 9.6e-6 m^2, where 1.1e-6 was measured (3e-5 of the area); the
  // centre rule's staircase misses by 8.4e-5.
  const double h = 0.01, radius = 0.1037;
  const Vec3 centre(0.30123, 0.20345, 0);
  const Shape d = ball_shape(2, centre, radius);
  double area = 0.0, centre_area = 0.0;
  Vec3 moment = Vec3::Zero();
  int cut = 0;
  for (int i = 0; i < 60; ++i)
    for (int j = 0; j < 60; ++j) {
      const Vec3 x((i + 0.5) * h, (j + 0.5) * h, 0);
      const CellOverlap part = cell_overlap(d, x, Vec3(h, h, 0));
      area += part.fraction * h * h;
      moment += part.fraction * h * h * part.centroid;
      if (part.fraction > 0.0 && part.fraction < 1.0) ++cut;
      if (d.contains(x)) centre_area += h * h;
    }
  const double exact = std::numbers::pi * radius * radius;
  const double bound = 0.02 * cut * h * h / 16;
  EXPECT_NEAR(area, exact, bound);
  EXPECT_NEAR((moment / area - centre).norm(), 0.0, 1e-3 * h);
  // The centre rule's staircase misses by far more (a control: the test can tell the two apart).
  EXPECT_GT(std::abs(centre_area - exact), 5 * bound);
}

TEST(CellOverlap, ClippedCellsOfATriangulatedSphereHoldItsExactVolume) {
  // 3D, 4 samples per side: a UV sphere (exact polyhedral volume from its triangles) cut by a
  // lattice of cells 1/8 of its radius. Bound: a fifth of one sample layer over every cut cell.
  const double h = 0.0125, radius = 0.1;
  Shape s;
  s.kind = Shape::Kind::Mesh;
  s.dimension = 3;
  s.mesh = std::make_shared<TriangleSolid>(test_support::uv_sphere(Vec3(0.2, 0.2, 0.2), radius, 48, 24));
  double volume = 0.0;
  int cut = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 32; ++k) {
        const CellOverlap part = cell_overlap(s, Vec3((i + 0.5) * h, (j + 0.5) * h, (k + 0.5) * h), Vec3::Constant(h));
        volume += part.fraction * h * h * h;
        if (part.fraction > 0.0 && part.fraction < 1.0) ++cut;
      }
  EXPECT_NEAR(volume, s.mesh->volume(), 0.2 * cut * h * h * h / 4);
}

}  // namespace
}  // namespace tribo
