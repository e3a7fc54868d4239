#include "tribo/core/geometry.hpp"

#include <cmath>
#include <numbers>

namespace tribo {

namespace {
// Even-odd rule: a horizontal ray from p crosses the boundary an odd number of times when inside.
bool polygon_contains(const std::vector<Vec2>& poly, const Vec2& p) {
  bool inside = false;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2& a = poly[i];
    const Vec2& b = poly[j];
    if ((a.y() > p.y()) != (b.y() > p.y())) {
      const double x_cross = a.x() + (p.y() - a.y()) * (b.x() - a.x()) / (b.y() - a.y());
      if (p.x() < x_cross) inside = !inside;
    }
  }
  return inside;
}
}  // namespace

bool Shape::contains(const Vec3& x) const {
  switch (kind) {
    case Kind::Box:
      for (int d = 0; d < dimension; ++d)
        if (x[d] < min[d] || x[d] > max[d]) return false;
      return true;
    case Kind::Ball: {
      Vec3 r = x - center;
      if (dimension == 2) r.z() = 0.0;
      return r.squaredNorm() <= radius * radius;
    }
    case Kind::Polygon:
      return polygon_contains(points, x.head<2>());
    case Kind::Mesh:
      return mesh && mesh->contains(x);
    case Kind::Points:
      return false;
  }
  return false;
}

void Shape::bounds(Vec3& lo, Vec3& hi) const {
  lo = Vec3::Zero();
  hi = Vec3::Zero();
  switch (kind) {
    case Kind::Box:
      lo = min;
      hi = max;
      break;
    case Kind::Ball:
      lo = center - Vec3::Constant(radius);
      hi = center + Vec3::Constant(radius);
      break;
    case Kind::Polygon:
      lo.head<2>() = points.front();
      hi.head<2>() = points.front();
      for (const Vec2& p : points) {
        lo.head<2>() = lo.head<2>().cwiseMin(p);
        hi.head<2>() = hi.head<2>().cwiseMax(p);
      }
      break;
    case Kind::Mesh:
      if (mesh) {
        lo = mesh->lower();
        hi = mesh->upper();
      }
      break;
    case Kind::Points:
      if (cloud && !cloud->empty()) {
        lo = hi = cloud->front();
        for (const Vec3& p : *cloud) {
          lo = lo.cwiseMin(p);
          hi = hi.cwiseMax(p);
        }
      }
      break;
  }
  if (dimension == 2) lo.z() = hi.z() = 0.0;
}

double Shape::measure() const {
  switch (kind) {
    case Kind::Box: {
      double m = 1.0;
      for (int d = 0; d < dimension; ++d) m *= max[d] - min[d];
      return m;
    }
    case Kind::Ball:
      return dimension == 2 ? std::numbers::pi * radius * radius
                            : 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
    case Kind::Polygon: {
      double twice_area = 0.0;  // shoelace formula
      for (std::size_t i = 0, j = points.size() - 1; i < points.size(); j = i++)
        twice_area += points[j].x() * points[i].y() - points[i].x() * points[j].y();
      return std::abs(0.5 * twice_area);
    }
    case Kind::Mesh:
      return mesh ? mesh->volume() : 0.0;
    case Kind::Points: {
      double sum = 0.0;
      if (point_volumes)
        for (double v : *point_volumes) sum += v;
      return sum;
    }
  }
  return 0.0;
}

namespace {

// How many of the cell's centre and 2^dimension corners lie in the shape.
int corners_and_centre_inside(const Shape& shape, const Vec3& centre, const Vec3& size) {
  int inside = shape.contains(centre) ? 1 : 0;
  for (int c = 0; c < (1 << shape.dimension); ++c) {
    Vec3 y = centre;
    for (int d = 0; d < shape.dimension; ++d) y[d] += ((c >> d) & 1 ? 0.5 : -0.5) * size[d];
    inside += shape.contains(y) ? 1 : 0;
  }
  return inside;
}

int samples_per_side(const Shape& shape) { return kClippedSamples[shape.dimension == 2 ? 0 : 1]; }

int sample_count(const Shape& shape) {
  int total = 1;
  for (int d = 0; d < shape.dimension; ++d) total *= samples_per_side(shape);
  return total;
}

// Sample i of a cut cell: the midpoint of one of q^dimension equal sub-boxes, as an offset from the
// centre.
Vec3 sample_offset(const Shape& shape, int i, const Vec3& size) {
  const int q = samples_per_side(shape);
  Vec3 offset = Vec3::Zero();
  for (int d = 0, r = i; d < shape.dimension; ++d, r /= q) offset[d] = ((r % q + 0.5) / q - 0.5) * size[d];
  return offset;
}

// The cell's overlap, decided by its centre and corners when they agree and by its samples when
// they do not; `first_only` stops at the first sample inside (only whether there is any overlap).
CellOverlap overlap_of(const Shape& shape, const Vec3& centre, const Vec3& size, bool first_only) {
  const int inside = corners_and_centre_inside(shape, centre, size);
  if (inside == (1 << shape.dimension) + 1) return {1.0, centre};
  if (inside == 0) return {0.0, centre};
  const int total = sample_count(shape);
  int count = 0;
  Vec3 offset_sum = Vec3::Zero();  // offsets from the centre: no cancellation against |centre|
  for (int i = 0; i < total; ++i) {
    const Vec3 offset = sample_offset(shape, i, size);
    if (!shape.contains(Vec3(centre + offset))) continue;
    ++count;
    offset_sum += offset;
    if (first_only) break;
  }
  if (count == total) return {1.0, centre};
  if (count == 0) return {0.0, centre};
  return {static_cast<double>(count) / total, Vec3(centre + offset_sum / count)};
}

}  // namespace

CellOverlap cell_overlap(const Shape& shape, const Vec3& centre, const Vec3& size) {
  return overlap_of(shape, centre, size, false);
}

bool cell_overlaps(const Shape& shape, const Vec3& centre, const Vec3& size) {
  return overlap_of(shape, centre, size, true).fraction > 0.0;
}

}  // namespace tribo
