#pragma once
// The nodes a particle talks to, with tensor-product weights and gradients, on the stack.
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/shape_function.hpp"

namespace tribo::mpm {

template <int Dim, int Support>
constexpr int stencil_size() {
  int n = 1;
  for (int d = 0; d < Dim; ++d) n *= Support;
  return n;
}

template <int Dim, class Shape>
struct Stencil {
  static constexpr int size = stencil_size<Dim, Shape::support>();
  long node[size];
  double weight[size];
  Vec<Dim> gradient[size];  // 1/m

  // half_width: particle half-size in cells (GIMP only). The caller guarantees the stencil lies
  // inside the grid (particles are kept one cell from its edge by the health check).
  void compute(const Grid<Dim>& grid, const Vec<Dim>& x, double half_width) {
    constexpr int S = Shape::support;
    int base[Dim];
    double w[Dim][S], dw[Dim][S];
    for (int d = 0; d < Dim; ++d) {
      const double xi = grid.coordinate(x[d], d);
      base[d] = Shape::weights(xi, half_width, w[d], dw[d]);
      for (int k = 0; k < S; ++k) dw[d][k] /= grid.cell[d];
    }
    const IVec<Dim> stride = grid.strides();
    for (int n = 0; n < size; ++n) {
      int rest = n;
      long index = 0;
      double value = 1.0;
      int k[Dim];
      for (int d = 0; d < Dim; ++d) {
        k[d] = rest % S;
        rest /= S;
        index += static_cast<long>(base[d] + k[d]) * stride[d];
        value *= w[d][k[d]];
      }
      node[n] = index;
      weight[n] = value;
      for (int d = 0; d < Dim; ++d) {
        double g = dw[d][k[d]];
        for (int e = 0; e < Dim; ++e)
          if (e != d) g *= w[e][k[e]];
        gradient[n][d] = g;
      }
    }
  }
};

}  // namespace tribo::mpm
