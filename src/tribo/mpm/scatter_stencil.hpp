#pragma once
// The stencil of stencil.hpp (same nodes, weights and gradients, same layout), computed for the hot
// particle loops: the 1D factors in closed form (uGIMP by the three cases of the particle's place
// in its middle cell, instead of a general piecewise evaluation per node) and the tensor product
// unrolled per dimension. Weights agree with Stencil to round-off (tested in
// tests/mpm/scatter_stencil_test.cpp).
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/shape_function.hpp"
#include "tribo/mpm/stencil.hpp"

namespace tribo::mpm {

// 1D factors of a shape: weights w[k] and derivatives dw[k] (per cell) of the `support` nodes from
// the returned first node. The general case is the shape's own rule.
template <class Shape>
struct ShapeFactors {
  static inline int compute(double xi, double half_width, double* w, double* dw) {
    return Shape::weights(xi, half_width, w, dw);
  }
};

// uGIMP (Bardenhagen & Kober 2004, eq. for the linear tent convolved with a particle of
// half-width lp <= 1/2, in cells). With f = xi - (first node + 1) in [-1/2, 1/2), the particle's
// offset from the middle node of its stencil:
//   f >= lp:       S = (0, 1 - f, f),                     dS = (0, -1, 1)
//   f <= -lp:      S = (-f, 1 + f, 0),                    dS = (-1, 1, 0)
//   |f| < lp:      S = ((lp - f)^2, 4 lp - 2 (f^2 + lp^2), (lp + f)^2) / (4 lp),
//                  dS = (-(lp - f), -2 f, lp + f) / (2 lp)
// which are GimpShape::value/derivative at the three nodes, without their per-node branches.
template <>
struct ShapeFactors<GimpShape> {
  static inline int compute(double xi, double lp, double* w, double* dw) {
    const int base = static_cast<int>(std::floor(xi + 0.5)) - 1;
    const double f = xi - (base + 1);
    if (f >= lp) {
      w[0] = 0.0, w[1] = 1.0 - f, w[2] = f;
      dw[0] = 0.0, dw[1] = -1.0, dw[2] = 1.0;
    } else if (f <= -lp) {
      w[0] = -f, w[1] = 1.0 + f, w[2] = 0.0;
      dw[0] = -1.0, dw[1] = 1.0, dw[2] = 0.0;
    } else {
      const double a = lp - f, b = lp + f;
      const double q = 0.25 / lp;
      w[0] = a * a * q;
      w[1] = 1.0 - (f * f + lp * lp) * (2.0 * q);
      w[2] = b * b * q;
      dw[0] = -a * (2.0 * q);
      dw[1] = -f * (4.0 * q);
      dw[2] = b * (2.0 * q);
    }
    return base;
  }
};

// The per-axis factors of one particle's stencil: the first node along each axis and the 1D
// weights and derivatives (per metre) of its `support` nodes, all that ScatterStencil::compute()
// derives from the position. The passes of one step that see the same positions (MUSL: the
// particle-to-grid, the grid-to-particle, the re-extrapolation and the stress update) keep these
// per particle and expand() them again, bit for bit the stencil compute() would give: 2 + 12
// doubles in 2D where the whole stencil is 36. Sized for the widest shape (3 nodes per axis).
template <int Dim>
struct StencilFactors {
  static constexpr int kMaxSupport = 3;
  int base[Dim];
  double w[Dim][kMaxSupport], dw[Dim][kMaxSupport];
};

template <int Dim, class Shape>
struct ScatterStencil {
  static constexpr int support = Shape::support;
  static_assert(support <= StencilFactors<Dim>::kMaxSupport);
  static constexpr int size = stencil_size<Dim, support>();
  long node[size];
  double weight[size];
  Vec<Dim> gradient[size];  // 1/m

  // Node n = k0 + S k1 (+ S^2 k2), k_d the offset along axis d, as in Stencil. The caller
  // guarantees the stencil lies inside the grid.
  [[gnu::always_inline]] inline void compute(const Grid<Dim>& grid, const Vec<Dim>& x, double half_width) {
    StencilFactors<Dim> f;
    factors(grid, x, half_width, f);
    expand(grid, f);
  }

  [[gnu::always_inline]] static inline void factors(const Grid<Dim>& grid, const Vec<Dim>& x, double half_width,
                                                    StencilFactors<Dim>& f) {
    constexpr int S = support;
    for (int d = 0; d < Dim; ++d) {
      // The same division as Stencil, so that both pick the same first node.
      const double xi = grid.coordinate(x[d], d);
      f.base[d] = ShapeFactors<Shape>::compute(xi, half_width, f.w[d], f.dw[d]);
      const double inverse = 1.0 / grid.cell[d];
      for (int k = 0; k < S; ++k) f.dw[d][k] *= inverse;
    }
  }

  // The tensor product of the factors: nodes, weights and gradients.
  [[gnu::always_inline]] inline void expand(const Grid<Dim>& grid, const StencilFactors<Dim>& f) {
    constexpr int S = support;
    const int* base = f.base;
    const auto& w = f.w;
    const auto& dw = f.dw;
    if constexpr (Dim == 2) {
      const long row = grid.nodes[0];
      const long first = base[0] + row * base[1];
      for (int j = 0; j < S; ++j)
        for (int i = 0; i < S; ++i) {
          const int n = i + S * j;
          node[n] = first + i + row * j;
          weight[n] = w[0][i] * w[1][j];
          gradient[n][0] = dw[0][i] * w[1][j];
          gradient[n][1] = w[0][i] * dw[1][j];
        }
    } else {
      const long row = grid.nodes[0];
      const long plane = row * grid.nodes[1];
      const long first = base[0] + row * base[1] + plane * base[2];
      for (int l = 0; l < S; ++l)
        for (int j = 0; j < S; ++j) {
          const double wjl = w[1][j] * w[2][l];
          const double dwj_wl = dw[1][j] * w[2][l];
          const double wj_dwl = w[1][j] * dw[2][l];
          for (int i = 0; i < S; ++i) {
            const int n = i + S * (j + S * l);
            node[n] = first + i + row * j + plane * l;
            weight[n] = w[0][i] * wjl;
            gradient[n][0] = dw[0][i] * wjl;
            gradient[n][1] = w[0][i] * dwj_wl;
            gradient[n][2] = w[0][i] * wj_dwl;
          }
        }
    }
  }
};

}  // namespace tribo::mpm
