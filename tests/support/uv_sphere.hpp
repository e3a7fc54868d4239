#pragma once
// A closed triangulated sphere for the tests of triangle solids and STL filling.
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "tribo/core/types.hpp"

namespace tribo::test_support {

// A UV sphere of centre c and radius r, outward, with nlon x nlat quads (caps as triangles):
// 2 nlon (nlat - 1) triangles.
inline std::vector<std::array<Vec3, 3>> uv_sphere(const Vec3& c, double r, int nlon, int nlat) {
  auto p = [&](int i, int j) {
    const double th = std::numbers::pi * j / nlat, ph = 2.0 * std::numbers::pi * i / nlon;
    return Vec3(c.x() + r * std::sin(th) * std::cos(ph), c.y() + r * std::sin(th) * std::sin(ph),
                c.z() + r * std::cos(th));
  };
  std::vector<std::array<Vec3, 3>> t;
  for (int i = 0; i < nlon; ++i)
    for (int j = 0; j < nlat; ++j) {
      if (j > 0) t.push_back({p(i, j), p(i + 1, j), p(i + 1, j + 1)});
      if (j < nlat - 1) t.push_back({p(i, j), p(i + 1, j + 1), p(i, j + 1)});
    }
  return t;
}

}  // namespace tribo::test_support
