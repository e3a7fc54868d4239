#pragma once
// Pre-cracks: bonds whose reference segment crosses a given polyline start broken, the usual way
// to put a notch into a PD body (Silling & Askari 2005, the pre-cracked plate). Tested
// in the x-y plane; in 3D the polyline cuts through every z.
#include <span>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"

namespace tribo::pd {

// True when the open segments ab and cd cross (touching at an end does not count).
bool segments_cross(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d);

// Breaks every bond that crosses one of the polylines: weight 0, beta V_j added to the owner's
// broken volume. Returns the number of (directed) bonds broken.
template <int Dim>
long break_precrack_bonds(const std::vector<std::vector<Vec3>>& polylines,
                          std::span<const Vec<Dim>> reference_position, const BondFamilies& bonds,
                          std::span<double> weight, std::span<double> broken_volume);

}  // namespace tribo::pd
