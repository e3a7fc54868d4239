#pragma once
// Affine particle-in-cell transfers (APIC; Jiang, Schroeder, Selle, Teran & Stomakhin 2015, "The
// affine particle-in-cell method", ACM TOG 34(4), eqs. 8-10, general shape functions):
//   particle to grid   p_I = sum_p S_Ip m_p (v_p + C_p (x_I - x_p)),
//   grid to particle   C_p = B_p D_p^-1,  B_p = sum_I S_Ip v_I (x_I - x_p)^T,
//                      D_p = sum_I S_Ip (x_I - x_p)(x_I - x_p)^T.
// With it a node's field velocity is the particles' velocity field at the node, not at their mass
// centroid, and a nodal impulse dp_I reaches the particles with the moment x_I x dp_I (their
// angular momentum counted with the affine part m_p C_p D_p): the lever of a contact impulse is
// the node's, which a rolling body needs (docs/mpm-contact.md, "Affine transfers").
//
// The stencils here are tensor products of 1D weights that reproduce linear functions
// (sum_k w_k = 1, sum_k w_k (x_k - x) = 0: linear, uGIMP and the quadratic B-spline on a uniform
// grid), so D_p is diagonal: its off-diagonal terms are products of two vanishing first moments.
#include "tribo/mpm/scatter_stencil.hpp"

namespace tribo::mpm {

template <int Dim, class Shape>
struct AffineStencil {
  static constexpr int support = Shape::support;
  double offset[Dim][StencilFactors<Dim>::kMaxSupport] = {};  // x_k - x_p along each axis, m
  Vec<Dim> inverse_spread = Vec<Dim>::Zero();  // 1 / D_p's diagonal, 1/m^2; 0 where D_p vanishes (see below)

  // From the factors of the particle's stencil at x. A linear shape on a node puts all its weight
  // there: that axis's D vanishes and the grid says nothing of the gradient along it, so C_p gets
  // no column for it (1e-8 cell^2 is far below any spread a particle off the node has: a particle
  // 1e-4 cell off a linear node has 1e-4 cell^2).
  [[gnu::always_inline]] inline void compute(const Grid<Dim>& grid, const Vec<Dim>& x,
                                             const StencilFactors<Dim>& f) {
    for (int d = 0; d < Dim; ++d) {
      double spread = 0.0;
      for (int k = 0; k < support; ++k) {
        offset[d][k] = grid.node_coordinate(f.base[d] + k, d) - x[d];
        spread += f.w[d][k] * offset[d][k] * offset[d][k];
      }
      inverse_spread[d] = spread > 1e-8 * grid.cell[d] * grid.cell[d] ? 1.0 / spread : 0.0;
    }
  }

  // x_I - x_p of stencil node n (the node numbering of ScatterStencil::expand()).
  [[gnu::always_inline]] inline Vec<Dim> node_offset(int n) const {
    Vec<Dim> r;
    r[0] = offset[0][n % support];
    r[1] = offset[1][(n / support) % support];
    if constexpr (Dim == 3) r[2] = offset[2][n / (support * support)];
    return r;
  }

  // The diagonal of D_p (m^2), for the kinetic energy of the affine part.
  Vec<Dim> spread() const {
    Vec<Dim> d;
    for (int a = 0; a < Dim; ++a) d[a] = inverse_spread[a] > 0.0 ? 1.0 / inverse_spread[a] : 0.0;
    return d;
  }
};

// Kinetic energy of a particle's affine velocity field, (m / 2) tr(C D C^T) with D diagonal
// (Jiang et al. 2015, sec. 5: the particle's share of the grid's kinetic energy beyond m v^2 / 2).
template <int Dim>
inline double affine_kinetic_energy(double mass, const Mat<Dim>& C, const Vec<Dim>& spread) {
  double sum = 0.0;
  for (int d = 0; d < Dim; ++d) sum += C.col(d).squaredNorm() * spread[d];
  return 0.5 * mass * sum;
}

// Angular momentum about the particle of its affine velocity field, m sum_I S_I r_I x C r_I
// (r_I = x_I - x_p) = m eps_kab C_ba D_aa with D diagonal: the part of the grid's angular momentum
// that sum x_p x m v_p misses (Jiang et al. 2015, sec. 5.3). 2D: the z component.
template <int Dim>
inline Vec3 affine_angular_momentum(double mass, const Mat<Dim>& C, const Vec<Dim>& spread) {
  if constexpr (Dim == 2) return Vec3(0.0, 0.0, mass * (C(1, 0) * spread[0] - C(0, 1) * spread[1]));
  else
    return mass * Vec3(C(2, 1) * spread[1] - C(1, 2) * spread[2], C(0, 2) * spread[2] - C(2, 0) * spread[0],
                       C(1, 0) * spread[0] - C(0, 1) * spread[1]);
}

}  // namespace tribo::mpm
