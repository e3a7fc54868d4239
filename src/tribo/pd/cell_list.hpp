#pragma once
// The one uniform cell grid of PD's searches (the bond families of neighbor_search.cpp and the
// contact candidates of contact_neighbor_search.cpp): a counting sort of points by cell over
// their bounding box, and a walk over the 3^Dim cells around a position. Cells are at least the
// search radius wide, so every point within it of a position lies in those cells; a sparse box
// (far-flung fragments) gets coarser cells so the grid never holds more than a few cells per
// point (memory and the build stay O(N)).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "tribo/core/types.hpp"

namespace tribo::pd {

template <int Dim>
class CellList {
 public:
  // Bins the points x[index(k)], k = 0..count-1, in cells of side >= min_cell. The buffers are
  // reused between builds.
  template <class Index>
  void build(std::span<const Vec<Dim>> x, std::int64_t count, Index index, double min_cell) {
    Vec<Dim> lo = x[index(0)], hi = lo;
    for (std::int64_t k = 0; k < count; ++k) {
      lo = lo.cwiseMin(x[index(k)]);
      hi = hi.cwiseMax(x[index(k)]);
    }
    lo_ = lo;
    const double max_cells = 4.0 * static_cast<double>(count) + 64.0;
    cell_ = min_cell;
    while (true) {
      double cells = 1.0;
      for (int d = 0; d < Dim; ++d) cells *= std::floor((hi[d] - lo[d]) / cell_) + 1.0;
      if (cells <= max_cells) break;
      cell_ *= 1.5;
    }
    std::int64_t cells = 1;
    for (int d = 0; d < Dim; ++d) {
      dims_[d] = static_cast<int>(std::floor((hi[d] - lo[d]) / cell_)) + 1;
      cells *= dims_[d];
    }
    start_.assign(static_cast<std::size_t>(cells) + 1, 0);
    cell_of_.resize(static_cast<std::size_t>(count));
    for (std::int64_t k = 0; k < count; ++k) {
      cell_of_[k] = static_cast<int>(linear(coords(x[index(k)])));
      ++start_[cell_of_[k] + 1];
    }
    for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    points_.resize(static_cast<std::size_t>(count));
    fill_.assign(start_.begin(), start_.end() - 1);
    for (std::int64_t k = 0; k < count; ++k) points_[fill_[cell_of_[k]]++] = static_cast<int>(index(k));
  }

  // visit(j) for every binned point j in the cell of `at` (clamped into the grid) and its
  // neighbours: cells with the first axis fastest, points of a cell in binning order.
  template <class Visit>
  void for_each_near(const Vec<Dim>& at, Visit&& visit) const {
    const IVec<Dim> ci = coords(at);
    IVec<Dim> lo, hi;
    for (int d = 0; d < Dim; ++d) {
      lo[d] = std::max(ci[d] - 1, 0);
      hi[d] = std::min(ci[d] + 1, dims_[d] - 1);
    }
    IVec<Dim> c = lo;
    while (true) {
      const std::int64_t k = linear(c);
      for (int s = start_[k]; s < start_[k + 1]; ++s) visit(points_[s]);
      int d = 0;
      for (; d < Dim; ++d) {
        if (++c[d] <= hi[d]) break;
        c[d] = lo[d];
      }
      if (d == Dim) break;
    }
  }

  double cell() const { return cell_; }

 private:
  IVec<Dim> coords(const Vec<Dim>& x) const {
    IVec<Dim> c;
    for (int d = 0; d < Dim; ++d)
      c[d] = std::clamp(static_cast<int>(std::floor((x[d] - lo_[d]) / cell_)), 0, dims_[d] - 1);
    return c;
  }
  std::int64_t linear(const IVec<Dim>& c) const {
    std::int64_t k = 0;
    for (int d = Dim - 1; d >= 0; --d) k = k * dims_[d] + c[d];
    return k;
  }

  Vec<Dim> lo_ = Vec<Dim>::Zero();
  IVec<Dim> dims_ = IVec<Dim>::Ones();
  double cell_ = 1.0;
  std::vector<int> start_, points_, fill_, cell_of_;
};

}  // namespace tribo::pd
