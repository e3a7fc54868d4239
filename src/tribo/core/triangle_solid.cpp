#include "tribo/core/triangle_solid.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace tribo {

namespace {

// orient2d(a, b, q) and the sign of orient2d(a, b, q + delta), delta = (eps, eps^2) with
// eps -> 0+: the point moved off every line through two vertices. The endpoints are put in
// lexicographic order first (and the signs flipped back), so the two triangles of a shared edge
// get bit-identical determinants.
struct EdgeSide {
  double exact;   // the determinant at q itself (0 on the edge's line)
  int perturbed;  // its sign at q + delta, never 0 for a proper edge
};
EdgeSide edge_side(Vec2 a, Vec2 b, const Vec2& q) {
  bool swapped = false;
  if (b.x() < a.x() || (b.x() == a.x() && b.y() < a.y())) {
    std::swap(a, b);
    swapped = true;
  }
  const double du = b.x() - a.x(), dv = b.y() - a.y();
  const double s = du * (q.y() - a.y()) - dv * (q.x() - a.x());
  int sign;
  if (s != 0.0)
    sign = s > 0.0 ? 1 : -1;
  else if (dv != 0.0)
    sign = dv < 0.0 ? 1 : -1;  // the eps term, -dv eps
  else
    sign = du > 0.0 ? 1 : (du < 0.0 ? -1 : 0);  // the eps^2 term, du eps^2
  return swapped ? EdgeSide{-s, -sign} : EdgeSide{s, sign};
}

int bucket_of(double c, double origin, double inverse, int count) {
  const int i = static_cast<int>(std::floor((c - origin) * inverse));
  return std::clamp(i, 0, count - 1);
}

}  // namespace

TriangleSolid::TriangleSolid(std::vector<Triangle> triangles) : triangles_(std::move(triangles)) {
  if (!triangles_.empty()) {
    lower_ = upper_ = triangles_.front()[0];
    for (const Triangle& t : triangles_)
      for (const Vec3& p : t) {
        lower_ = lower_.cwiseMin(p);
        upper_ = upper_.cwiseMax(p);
      }
  }
  for (int axis = 0; axis < 3; ++axis) build_buckets(axis);
}

void TriangleSolid::build_buckets(int axis) {
  AxisBuckets& g = buckets_[axis];
  g.u = (axis + 1) % 3;
  g.v = (axis + 2) % 3;
  // About two triangles of a closed surface per bucket per side of it; capped so that the grid
  // stays small next to the mesh.
  const int side = std::clamp(static_cast<int>(2.0 * std::sqrt(static_cast<double>(triangles_.size()))) + 1, 1, 1024);
  auto setup = [&](int c, double& origin, double& inverse, int& count) {
    const double extent = upper_[c] - lower_[c];
    origin = lower_[c];
    count = extent > 0.0 ? side : 1;
    inverse = extent > 0.0 ? count / extent : 0.0;
  };
  setup(g.u, g.origin_u, g.inverse_u, g.count_u);
  setup(g.v, g.origin_v, g.inverse_v, g.count_v);

  auto range = [&](const Triangle& t, int& u0, int& u1, int& v0, int& v1) {
    const double lo_u = std::min({t[0][g.u], t[1][g.u], t[2][g.u]});
    const double hi_u = std::max({t[0][g.u], t[1][g.u], t[2][g.u]});
    const double lo_v = std::min({t[0][g.v], t[1][g.v], t[2][g.v]});
    const double hi_v = std::max({t[0][g.v], t[1][g.v], t[2][g.v]});
    u0 = bucket_of(lo_u, g.origin_u, g.inverse_u, g.count_u);
    u1 = bucket_of(hi_u, g.origin_u, g.inverse_u, g.count_u);
    v0 = bucket_of(lo_v, g.origin_v, g.inverse_v, g.count_v);
    v1 = bucket_of(hi_v, g.origin_v, g.inverse_v, g.count_v);
  };
  g.start.assign(static_cast<std::size_t>(g.count_u) * g.count_v + 1, 0);
  for (const Triangle& t : triangles_) {
    int u0, u1, v0, v1;
    range(t, u0, u1, v0, v1);
    for (int i = u0; i <= u1; ++i)
      for (int j = v0; j <= v1; ++j) ++g.start[static_cast<std::size_t>(i) * g.count_v + j + 1];
  }
  for (std::size_t b = 1; b < g.start.size(); ++b) g.start[b] += g.start[b - 1];
  g.items.resize(g.start.back());
  std::vector<int> next(g.start.begin(), g.start.end() - 1);
  for (std::size_t n = 0; n < triangles_.size(); ++n) {
    int u0, u1, v0, v1;
    range(triangles_[n], u0, u1, v0, v1);
    for (int i = u0; i <= u1; ++i)
      for (int j = v0; j <= v1; ++j)
        g.items[next[static_cast<std::size_t>(i) * g.count_v + j]++] = static_cast<int>(n);
  }
}

TriangleSolid::Ray TriangleSolid::cast(int axis, const Vec3& x, int& above, int& below) const {
  above = below = 0;
  const AxisBuckets& g = buckets_[axis];
  const Vec2 q(x[g.u], x[g.v]);
  const std::size_t bucket =
      static_cast<std::size_t>(bucket_of(q.x(), g.origin_u, g.inverse_u, g.count_u)) * g.count_v +
      bucket_of(q.y(), g.origin_v, g.inverse_v, g.count_v);
  for (int k = g.start[bucket]; k < g.start[bucket + 1]; ++k) {
    const Triangle& t = triangles_[g.items[k]];
    const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]);
    if (n[axis] == 0.0) continue;  // parallel to the ray: its neighbours count the crossing
    const Vec2 a(t[0][g.u], t[0][g.v]), b(t[1][g.u], t[1][g.v]), c(t[2][g.u], t[2][g.v]);
    const EdgeSide e0 = edge_side(a, b, q), e1 = edge_side(b, c, q), e2 = edge_side(c, a, q);
    const bool crossed = e0.perturbed != 0 && e0.perturbed == e1.perturbed &&
                         e1.perturbed == e2.perturbed;
    // On the closed triangle in projection (edges included): a point on its edge may lie on the
    // surface even when the perturbed ray passes beside it.
    const bool touches = (e0.exact >= 0.0 && e1.exact >= 0.0 && e2.exact >= 0.0) ||
                         (e0.exact <= 0.0 && e1.exact <= 0.0 && e2.exact <= 0.0);
    if (!crossed && !touches) continue;
    // Where the ray meets the triangle's plane n . (X - t0) = 0.
    const double hit =
        t[0][axis] - (n[g.u] * (q.x() - t[0][g.u]) + n[g.v] * (q.y() - t[0][g.v])) / n[axis];
    if (hit == x[axis]) return Ray::OnSurface;
    if (!crossed) continue;
    if (hit > x[axis])
      ++above;
    else
      ++below;
  }
  return Ray::Parity;
}

bool TriangleSolid::contains(const Vec3& x) const {
  if (triangles_.empty()) return false;
  for (int d = 0; d < 3; ++d)
    if (x[d] < lower_[d] || x[d] > upper_[d]) return false;
  int votes = 0;
  for (int axis = 0; axis < 3; ++axis) {
    int above = 0, below = 0;
    if (cast(axis, x, above, below) == Ray::OnSurface) return true;
    votes += (above & 1) + (below & 1);
  }
  if (votes != 3) return votes > 3;
  return std::abs(winding_number(x)) > 0.5;
}

double TriangleSolid::winding_number(const Vec3& x) const {
  double total = 0.0;
  for (const Triangle& t : triangles_) {
    const Vec3 a = t[0] - x, b = t[1] - x, c = t[2] - x;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    // Solid angle of the triangle seen from x (Van Oosterom & Strackee 1983): tan(omega / 2).
    const double numerator = a.dot(b.cross(c));
    const double denominator = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
    total += 2.0 * std::atan2(numerator, denominator);
  }
  return total / (4.0 * std::numbers::pi);
}

double TriangleSolid::volume() const {
  double six_v = 0.0;
  for (const Triangle& t : triangles_) six_v += t[0].dot(t[1].cross(t[2]));
  return std::abs(six_v) / 6.0;
}

}  // namespace tribo
