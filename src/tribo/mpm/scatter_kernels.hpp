#pragma once
// The particle-to-grid kernels of one particle: its terms (mass, momentum, force, contact
// quantities; DESIGN.md "One MPM time step", step 1) added to the node-field entries of its
// stencil. The grid arrays are passed as a small struct of pointers by value, so that after
// inlining they live in registers: Eigen's SSE stores may alias anything, and pointers read from
// memory (a closure, `this`) would be reloaded after every store.
#include "tribo/core/types.hpp"
#include "tribo/mpm/node_fields.hpp"

namespace tribo::mpm {

template <int Dim>
struct ScatterTargets {
  double* mass;
  Vec<Dim>* momentum;
  Vec<Dim>* force;
  double* volume;
  Vec<Dim>* volume_gradient;
  Vec<Dim>* mass_gradient;
  Vec<Dim>* mass_displacement;
  Vec<Dim>* mass_position;

  static ScatterTargets of(NodeFields<Dim>& nodes) {
    return {nodes.mass.data(),   nodes.momentum.data(),        nodes.force.data(),
            nodes.volume.data(), nodes.volume_gradient.data(), nodes.mass_gradient.data(),
            nodes.mass_displacement.data(), nodes.mass_position.data()};
  }
};

// What one particle gives its nodes, before the shape function weights.
template <int Dim>
struct ParticleTerms {
  double mass;                    // m_p, kg
  double volume;                  // V_p, m^3
  Vec<Dim> momentum;              // m_p v_p
  Vec<Dim> weight;                // m_p g, N
  Mat<Dim> stress_volume;         // V_p sigma_p, N m
  Vec<Dim> mass_position;         // m_p x_p
  Vec<Dim> mass_displacement;     // m_p (x_p - X_p)
};

// Entry i = node * fields + field of every stencil node k:
//   mass += S m, momentum += S m v, (WithForce) force += S m g - V sigma grad S,
//   and the contact arrays of ContactData (bits of node_fields.hpp's ContactDataBits):
//   volume += S V and volume_gradient += V grad S, mass_gradient += m grad S,
//   mass_displacement += S m u, mass_position += S m x.
// The terms of stencil node k added to entry i (shared with crack_scatter.hpp, whose entries
// also carry the crack field). Basic = false: the contact arrays alone (the second pass of
// MpmSimulation::extrapolate_to_grid()).
template <bool WithForce, unsigned ContactData, bool Basic = true, int Dim, class Stencil>
[[gnu::always_inline]] inline void scatter_to_entry(long i, const Stencil& s, int k, const ScatterTargets<Dim>& t,
                                                    const ParticleTerms<Dim>& q) {
  const double w = s.weight[k];
  if constexpr (Basic) {
    t.mass[i] += w * q.mass;
    t.momentum[i] += w * q.momentum;
    if constexpr (WithForce) t.force[i] += w * q.weight - q.stress_volume * s.gradient[k];
  }
  if constexpr ((ContactData & kContactVolume) != 0) {
    t.volume[i] += w * q.volume;
    t.volume_gradient[i] += q.volume * s.gradient[k];
  }
  if constexpr ((ContactData & kContactMassGradient) != 0) t.mass_gradient[i] += q.mass * s.gradient[k];
  if constexpr ((ContactData & kContactDisplacement) != 0) t.mass_displacement[i] += w * q.mass_displacement;
  if constexpr ((ContactData & kContactPosition) != 0) t.mass_position[i] += w * q.mass_position;
}

template <bool WithForce, unsigned ContactData, bool Basic = true, int Dim, class Stencil>
[[gnu::always_inline]] inline void scatter_particle(const Stencil& s, long field, long fields, ScatterTargets<Dim> t,
                                                    const ParticleTerms<Dim>& q) {
  for (int k = 0; k < Stencil::size; ++k)
    scatter_to_entry<WithForce, ContactData, Basic>(s.node[k] * fields + field, s, k, t, q);
}

}  // namespace tribo::mpm
