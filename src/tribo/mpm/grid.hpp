#pragma once
// A regular background grid: nodes at origin + i * cell, i in [0, nodes_per_axis).
#include <cmath>

#include "tribo/core/types.hpp"

namespace tribo::mpm {

template <int Dim>
struct Grid {
  Vec<Dim> origin = Vec<Dim>::Zero();
  Vec<Dim> cell = Vec<Dim>::Ones();     // m per direction (rectangular cells allowed)
  IVec<Dim> nodes = IVec<Dim>::Ones();  // nodes per axis

  Grid() = default;
  Grid(const Vec<Dim>& lo, const Vec<Dim>& hi, const Vec<Dim>& cell_size) : origin(lo), cell(cell_size) {
    for (int d = 0; d < Dim; ++d)
      nodes[d] = static_cast<int>(std::lround((hi[d] - lo[d]) / cell_size[d])) + 1;
  }

  long node_count() const {
    long n = 1;
    for (int d = 0; d < Dim; ++d) n *= nodes[d];
    return n;
  }
  double cell_volume() const { return cell.prod(); }
  Vec<Dim> upper() const { return origin + cell.cwiseProduct((nodes.array() - 1).matrix().template cast<double>()); }

  long node_index(const IVec<Dim>& ijk) const {
    long index = ijk[Dim - 1];
    for (int d = Dim - 2; d >= 0; --d) index = index * nodes[d] + ijk[d];
    return index;
  }
  IVec<Dim> node_ijk(long index) const {
    IVec<Dim> ijk;
    for (int d = 0; d < Dim; ++d) {
      ijk[d] = static_cast<int>(index % nodes[d]);
      index /= nodes[d];
    }
    return ijk;
  }
  Vec<Dim> node_position(long index) const {
    return origin + cell.cwiseProduct(node_ijk(index).template cast<double>());
  }
  // Strides of the flat node index along each axis.
  IVec<Dim> strides() const {
    IVec<Dim> s;
    s[0] = 1;
    for (int d = 1; d < Dim; ++d) s[d] = s[d - 1] * nodes[d - 1];
    return s;
  }
};

}  // namespace tribo::mpm
