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
                                          // (only for the nodes of the range build() was given)
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
  // [first_node, last_node) (last_node < 0: every node) holds every node a particle's stencil
  // reaches (MpmSimulation's active nodes): only those are listed, and only those are read.
  template <class Shape>
  void build(const Grid<Dim>& grid, const NodeFields<Dim>& nodes, const Particles<Dim>& particles,
             const std::vector<int>& particle_field, double half_width, double dust,
             const std::vector<Vec<Dim>>& ghost_position = {}, const std::vector<int>& ghost_field = {},
             const std::vector<bool>& rigid_field = {}, long first_node = 0, long last_node = -1) {
    const long N = nodes.nodes;
    const int F = nodes.fields;
    const long first = first_node, last = last_node < 0 ? N : last_node;
    contact_node.resize(static_cast<std::size_t>(N));
    fitted.resize(static_cast<std::size_t>(N) * F);
    fitted_normal.resize(static_cast<std::size_t>(N) * F);
    std::fill(fitted.begin() + first * F, fitted.begin() + last * F, 0);
    // The fields' roles as bytes: a std::vector<bool> read per node entry made this serial loop
    // an eighth of a step (issue 17).
    deformable_.assign(static_cast<std::size_t>(F), 1);
    for (int f = 0; f < F && !rigid_field.empty(); ++f) deformable_[static_cast<std::size_t>(f)] = !rigid_field[f];
    const char* deformable = deformable_.data();
    const double* mass = nodes.mass.data();
    char* contact = contact_node.data();
    int any = 0;
#pragma omp parallel for schedule(static) reduction(|| : any)
    for (long n = first; n < last; ++n) {
      int present = 0;
      for (int f = 0; f < F; ++f) present += deformable[f] && mass[n * F + f] > dust;
      contact[n] = present >= 2;
      any = any || present >= 2;
    }
    offset.resize(static_cast<std::size_t>(N) + 1);
    std::fill(offset.begin() + first, offset.begin() + last + 1, 0);
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
    // Which particles reach a contact node at all, in parallel: the two listing passes below are
    // serial (they append to the nodes' lists in particle order), and most particles of two
    // bodies in contact are far from their interface (an elastic block on an elastic floor: a
    // quarter of its step walked every particle twice; issue 17).
    candidate_.resize(all);
    const long count = static_cast<long>(all);
#pragma omp parallel for schedule(static)
    for (long p = 0; p < count; ++p) {
      const std::size_t q = static_cast<std::size_t>(p);
      candidate_[q] = reaches_contact_node<Shape>(grid, position(q), half_width);
    }
    for (std::size_t p = 0; p < all; ++p)
      if (candidate_[p])
        for_each_node_inside<Shape>(grid, position(p), half_width, [&](long n, double) { ++offset[n + 1]; });
    for (long n = first; n < last; ++n) offset[n + 1] += offset[n];
    const std::size_t total = static_cast<std::size_t>(offset[last]);
    relative_position.resize(total);
    field.resize(total);
    weight.resize(total);
    std::vector<long>& cursor = scratch_;
    cursor.resize(static_cast<std::size_t>(N));
    std::copy(offset.begin() + first, offset.begin() + last, cursor.begin() + first);
    for (std::size_t p = 0; p < all; ++p)
      if (candidate_[p])
        for_each_node_inside<Shape>(grid, position(p), half_width, [&](long n, double w) {
          const long slot = cursor[n]++;
          relative_position[slot] = position(p) - grid.node_position(n);
          field[slot] = p < owned ? particle_field[p] : ghost_field[p - owned];
          weight[slot] = w;
        });
  }

 private:
  // visit(node, weight) for the nodes of x's stencil inside the grid, in the order and with the
  // products of Stencil::compute(), until visit returns true; returns whether it did. A ghost near
  // the edge of this process's sub-grid has stencil nodes beyond it: those are skipped (a flat
  // index would wrap onto another node).
  template <class Shape, class Visit>
  static bool walk_stencil(const Grid<Dim>& grid, const Vec<Dim>& x, double half_width, Visit&& visit) {
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
      if (inside && visit(grid.node_index(ijk), value)) return true;
    }
    return false;
  }

  // fn(node, weight) for the contact nodes of x's stencil with a positive weight.
  template <class Shape, class Fn>
  void for_each_node_inside(const Grid<Dim>& grid, const Vec<Dim>& x, double half_width, Fn&& fn) const {
    walk_stencil<Shape>(grid, x, half_width, [&](long node, double value) {
      if (contact_node[node] && value > 0.0) fn(node, value);
      return false;
    });
  }

  // Whether a contact node lies in x's stencil (a superset of the nodes for_each_node_inside()
  // gives: the weight is not looked at).
  template <class Shape>
  bool reaches_contact_node(const Grid<Dim>& grid, const Vec<Dim>& x, double half_width) const {
    return walk_stencil<Shape>(grid, x, half_width, [&](long node, double) { return contact_node[node] != 0; });
  }

  std::vector<long> scratch_;
  std::vector<char> candidate_;  // per particle (then ghost) of the step: reaches a contact node
  std::vector<char> deformable_;  // per field
};

}  // namespace tribo::mpm
