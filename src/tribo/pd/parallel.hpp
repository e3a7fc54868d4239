#pragma once
// When an OpenMP loop is worth its threads. A parallel region costs microseconds on an idle
// machine but up to a scheduler time slice when the cores are shared or oversubscribed, and a
// PD step opens several; small bodies run serially (2^18 bonds, about a millisecond). Work is
// counted in loop iterations: points for the per-point loops, bonds for the bond loops. The
// result does not depend on the choice: every loop is owner-computes.
#include <cstdint>

#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {

inline constexpr std::int64_t min_parallel_work = std::int64_t{1} << 18;

inline bool worth_threads(std::int64_t work) { return work >= min_parallel_work; }

// Bonds owned by the points of `range`.
inline std::int64_t bond_work(const BondFamilies& bonds, PointRange range) {
  return range.size() == 0 ? 0 : bonds.offset[range.end] - bonds.offset[range.begin];
}

}  // namespace tribo::pd
