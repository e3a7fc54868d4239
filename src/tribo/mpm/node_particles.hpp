#pragma once
// The particles around each contact node (a node where two deformable fields hold mass), for the
// regression normals of Nairn et al. 2018 (Comput. Part. Mech.), which fit a separating line or
// plane to the labelled particle positions near the node instead of using grid gradients.
// Built once per step after the particle-to-grid pass, only when a deck asks for
// logistic-regression normals; the buffers keep their capacity from step to step.
#include <algorithm>
#include <vector>

#include "tribo/core/particles.hpp"
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/node_fields.hpp"
#include "tribo/mpm/stencil.hpp"

namespace tribo::mpm {

template <int Dim>
struct NodeParticles {
  std::vector<long> offset;               // nodes + 1 entries: particles of node n are [offset[n], offset[n+1])
  std::vector<Vec<Dim>> relative_position;  // x_p - x_node, m
  std::vector<int> field;                 // the particle's velocity field
  std::vector<double> weight;             // shape function value S_I(x_p)
  std::vector<char> contact_node;         // per node
  // The regression normal of node n for field a (entry n F + a), fitted by the step's first contact
  // pass and reused by the later ones (the post-update pass, MUSL's): the fit reads only the
  // particles above and the node's volumes and gradients, which a contact pass does not change.
  // The fit is most of the cost of these normals (gear-press: 2.8x the run with gradient normals).
  mutable std::vector<Vec<Dim>> fitted_normal;
  mutable std::vector<unsigned char> fitted;

  // ghost_position / ghost_field: other processes' particles near this one's sub-grid (empty on
  // one process), so that a node shared with another process is fitted to every particle around it,
  // as on one process. `dust`: the contact pass's screen (1e-10 of the heaviest node field of the
  // whole grid, across processes), so that every node the contact pass fits is listed here.
  // `rigid_field` (per field, empty: none rigid): the fit is only ever asked for between two
  // deformable fields (a rigid field's gradient is the normal, contact_normal.cpp), so a contact
  // node is one where two deformable fields hold more than dust. Without such a node the particles
  // are not walked at all: a body on a rigid floor with the default normals spent a third of its
  // step listing the particles around nodes whose fit no pass would read (issue 17).
  template <class Shape>
  void build(const Grid<Dim>& grid, const NodeFields<Dim>& nodes, const Particles<Dim>& particles,
             const std::vector<int>& particle_field, double half_width, double dust,
             const std::vector<Vec<Dim>>& ghost_position = {}, const std::vector<int>& ghost_field = {},
             const std::vector<bool>& rigid_field = {}) {
    const long N = nodes.nodes;
    const int F = nodes.fields;
    contact_node.assign(N, 0);
    fitted.assign(static_cast<std::size_t>(N) * F, 0);
    fitted_normal.resize(static_cast<std::size_t>(N) * F);
    const auto deformable = [&](int f) { return rigid_field.empty() || !rigid_field[f]; };
    bool any = false;
    for (long n = 0; n < N; ++n) {
      int present = 0;
      for (int f = 0; f < F; ++f) present += deformable(f) && nodes.mass[n * F + f] > dust;
      contact_node[n] = present >= 2;
      any = any || present >= 2;
    }
    offset.assign(N + 1, 0);
    if (!any) {
      relative_position.clear();
      field.clear();
      weight.clear();
      return;
    }
    const std::size_t owned = particles.size();
    const auto position = [&](std::size_t p) -> const Vec<Dim>& {
      return p < owned ? particles.position[p] : ghost_position[p - owned];
    };
    const std::size_t all = owned + ghost_position.size();
    for (std::size_t p = 0; p < all; ++p)
      for_each_node_inside<Shape>(grid, position(p), half_width, [&](long n, double) { ++offset[n + 1]; });
    for (long n = 0; n < N; ++n) offset[n + 1] += offset[n];
    const std::size_t total = static_cast<std::size_t>(offset[N]);
    relative_position.resize(total);
    field.resize(total);
    weight.resize(total);
    std::vector<long>& cursor = scratch_;
    cursor.assign(offset.begin(), offset.end() - 1);
    for (std::size_t p = 0; p < all; ++p)
      for_each_node_inside<Shape>(grid, position(p), half_width, [&](long n, double w) {
        const long slot = cursor[n]++;
        relative_position[slot] = position(p) - grid.node_position(n);
        field[slot] = p < owned ? particle_field[p] : ghost_field[p - owned];
        weight[slot] = w;
      });
  }

 private:
  // fn(node, weight) for the contact nodes of x's stencil with a positive weight, in the order and
  // with the products of Stencil::compute(). A ghost near the edge of this process's sub-grid has
  // stencil nodes beyond it: those are skipped (a flat index would wrap onto another node).
  template <class Shape, class Fn>
  void for_each_node_inside(const Grid<Dim>& grid, const Vec<Dim>& x, double half_width, Fn&& fn) const {
    constexpr int S = Shape::support;
    constexpr int size = stencil_size<Dim, S>();
    int base[Dim];
    double w[Dim][S], dw[Dim][S];
    for (int d = 0; d < Dim; ++d) base[d] = Shape::weights(grid.coordinate(x[d], d), half_width, w[d], dw[d]);
    for (int n = 0; n < size; ++n) {
      int rest = n;
      IVec<Dim> ijk;
      double value = 1.0;
      bool inside = true;
      for (int d = 0; d < Dim; ++d) {
        const int k = rest % S;
        rest /= S;
        ijk[d] = base[d] + k;
        inside = inside && ijk[d] >= 0 && ijk[d] < grid.nodes[d];
        value *= w[d][k];
      }
      if (!inside) continue;
      const long node = grid.node_index(ijk);
      if (contact_node[node] && value > 0.0) fn(node, value);
    }
  }

  std::vector<long> scratch_;
};

}  // namespace tribo::mpm
