#include "tribo/pd/precrack.hpp"

#include <algorithm>

#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

namespace {
double orientation(const Vec2& a, const Vec2& b, const Vec2& c) {
  return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}
}  // namespace

bool segments_cross(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const double o1 = orientation(a, b, c), o2 = orientation(a, b, d);
  const double o3 = orientation(c, d, a), o4 = orientation(c, d, b);
  return o1 * o2 < 0.0 && o3 * o4 < 0.0;
}

template <int Dim>
long break_precrack_bonds(const std::vector<std::vector<Vec3>>& polylines,
                          std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                          std::span<double> weight, std::span<double> broken_volume) {
  long broken = 0;
  const int n = bonds.point_count();
#pragma omp parallel for schedule(static) reduction(+ : broken) \
    if (worth_threads(bonds.bond_count()))
  for (int i = 0; i < n; ++i) {
    const Vec2 a = reference_position[i].template head<2>();
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
      if (weight[b] == 0.0) continue;
      const Vec2 p = reference_position[bonds.neighbor[b]].template head<2>();
      bool cut = false;
      for (const auto& line : polylines)
        for (std::size_t k = 0; k + 1 < line.size() && !cut; ++k)
          cut = segments_cross(a, p, line[k].head<2>(), line[k + 1].head<2>());
      if (cut) {
        weight[b] = 0.0;
        broken_volume[i] += bonds.neighbor_volume(b);
        ++broken;
      }
    }
  }
  return broken;
}

template long break_precrack_bonds<2>(const std::vector<std::vector<Vec3>>&,
                                      std::span<const Vec<2>>, const BondFamilies&,
                                      std::span<double>, std::span<double>);
template long break_precrack_bonds<3>(const std::vector<std::vector<Vec3>>&,
                                      std::span<const Vec<3>>, const BondFamilies&,
                                      std::span<double>, std::span<double>);

}  // namespace tribo::pd
