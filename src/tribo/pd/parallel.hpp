#pragma once
// When an OpenMP loop is worth its threads. A parallel region costs microseconds on an idle
// machine but up to a scheduler time slice when the cores are shared or oversubscribed, and a
// PD step opens several; small bodies run serially (2^18 bonds, about a millisecond). Work is
// counted in loop iterations: points for the per-point loops, bonds for the bond loops. The
// result does not depend on the choice: every loop is owner-computes.
#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {

inline constexpr std::int64_t min_parallel_work = std::int64_t{1} << 18;

inline bool worth_threads(std::int64_t work) { return work >= min_parallel_work; }

// body(first, last) over [begin, end): each thread one contiguous block (a static schedule) when
// `parallel` and more than one thread may run, else the whole range on this thread without
// opening an OpenMP region. libgomp ends every region, a team of one included (an `if` clause
// that is false, or one thread), with a futex system call that wakes the waiters it does not
// count; in a virtual machine that is about a microsecond, and a small PD run opens a dozen
// regions a step: a tenth of its time in the kernel (issue 17). The body keeps its own loop, so
// that it compiles as the loop it was (a call per index through a closure made the bond kernel
// 10% slower). Every loop here is owner-computes: the blocks do not change the results.
template <class Index, class Body>
inline void for_each_block(Index begin, Index end, bool parallel, Body&& body) {
  if (!(parallel && omp_get_max_threads() > 1)) {
    body(begin, end);
    return;
  }
#pragma omp parallel
  {
    const Index threads = static_cast<Index>(omp_get_num_threads());
    const Index thread = static_cast<Index>(omp_get_thread_num());
    const Index n = end > begin ? end - begin : Index{0};
    const Index share = n / threads, extra = n % threads;
    const Index first = begin + thread * share + std::min(thread, extra);
    body(first, first + share + (thread < extra ? Index{1} : Index{0}));
  }
}

// Bonds owned by the points of `range`.
inline std::int64_t bond_work(const BondFamilies& bonds, PointRange range) {
  return range.size() == 0 ? 0 : bonds.offset[range.end] - bonds.offset[range.begin];
}

}  // namespace tribo::pd
