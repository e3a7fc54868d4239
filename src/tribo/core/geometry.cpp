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

}  // namespace tribo
