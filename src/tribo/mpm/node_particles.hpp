#pragma once
// The particles around each contact node (a node with two or more velocity fields), for the
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

  template <class Shape>
  void build(const Grid<Dim>& grid, const NodeFields<Dim>& nodes, const Particles<Dim>& particles,
             const std::vector<int>& particle_field, double half_width) {
    const long N = nodes.nodes;
    const int F = nodes.fields;
    double heaviest = 0.0;
    for (double m : nodes.mass) heaviest = std::max(heaviest, m);
    const double dust = 1e-10 * heaviest;  // the same screen as the contact pass
    contact_node.assign(N, 0);
    for (long n = 0; n < N; ++n) {
      int present = 0;
      for (int f = 0; f < F; ++f) present += nodes.mass[n * F + f] > dust;
      contact_node[n] = present >= 2;
    }
    offset.assign(N + 1, 0);
    Stencil<Dim, Shape> s;
    for (std::size_t p = 0; p < particles.size(); ++p) {
      s.compute(grid, particles.position[p], half_width);
      for (int k = 0; k < s.size; ++k)
        if (contact_node[s.node[k]] && s.weight[k] > 0.0) ++offset[s.node[k] + 1];
    }
    for (long n = 0; n < N; ++n) offset[n + 1] += offset[n];
    const std::size_t total = static_cast<std::size_t>(offset[N]);
    relative_position.resize(total);
    field.resize(total);
    weight.resize(total);
    std::vector<long>& cursor = scratch_;
    cursor.assign(offset.begin(), offset.end() - 1);
    for (std::size_t p = 0; p < particles.size(); ++p) {
      s.compute(grid, particles.position[p], half_width);
      for (int k = 0; k < s.size; ++k) {
        const long n = s.node[k];
        if (!contact_node[n] || !(s.weight[k] > 0.0)) continue;
        const long slot = cursor[n]++;
        relative_position[slot] = particles.position[p] - grid.node_position(n);
        field[slot] = particle_field[p];
        weight[slot] = s.weight[k];
      }
    }
  }

 private:
  std::vector<long> scratch_;
};

}  // namespace tribo::mpm
