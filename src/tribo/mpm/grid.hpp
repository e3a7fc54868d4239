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
  // A process's sub-grid (node_halo.hpp) keeps the global grid's origin and the global index of its
  // first node, so that node positions and particles' cell coordinates are computed from the
  // global origin, bit for bit as on one process. Its own `origin` is that origin plus first x
  // cell, rounded: coordinates taken from it move every weight by round-off, and put a point
  // exactly on a node line (a crack through a node) on one side or the other by the process
  // count. On the global grid: origin and 0.
  Vec<Dim> global_origin = Vec<Dim>::Zero();
  IVec<Dim> first = IVec<Dim>::Zero();

  Grid() = default;
  Grid(const Vec<Dim>& lo, const Vec<Dim>& hi, const Vec<Dim>& cell_size)
      : origin(lo), cell(cell_size), global_origin(lo) {
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
    return global_origin + cell.cwiseProduct((first + node_ijk(index)).template cast<double>());
  }
  // x along axis d in cells from this grid's first node: (x - global origin) / cell - first, the
  // subtraction of the whole number exact (Sterbenz), so the same as on the global grid.
  double coordinate(double x, int d) const { return (x - global_origin[d]) / cell[d] - first[d]; }
  // The position of this grid's node i along axis d (i may lie off the grid).
  double node_coordinate(long i, int d) const { return global_origin[d] + (first[d] + i) * cell[d]; }
  // Strides of the flat node index along each axis.
  IVec<Dim> strides() const {
    IVec<Dim> s;
    s[0] = 1;
    for (int d = 1; d < Dim; ++d) s[d] = s[d - 1] * nodes[d - 1];
    return s;
  }
};

}  // namespace tribo::mpm
