#pragma once
// The particle-to-grid kernel of scatter_kernels.hpp for a particle near a crack: the same terms,
// but each stencil node's entry is node * fields + field + offset[k], offset[k] = c F the crack
// field the particle uses at that node (crack_fields.hpp).
#include "tribo/mpm/scatter_kernels.hpp"

namespace tribo::mpm {

template <bool WithForce, bool ContactData, int Dim, class Stencil>
[[gnu::always_inline]] inline void scatter_particle_across_cracks(const Stencil& s, long field, long fields,
                                                                  const int* offset, ScatterTargets<Dim> t,
                                                                  const ParticleTerms<Dim>& q) {
  for (int k = 0; k < Stencil::size; ++k) {
    const long i = s.node[k] * fields + field + offset[k];
    const double w = s.weight[k];
    t.mass[i] += w * q.mass;
    t.momentum[i] += w * q.momentum;
    if constexpr (WithForce) t.force[i] += w * q.weight - q.stress_volume * s.gradient[k];
    if constexpr (ContactData) {
      t.volume[i] += w * q.volume;
      t.volume_gradient[i] += q.volume * s.gradient[k];
      t.mass_gradient[i] += q.mass * s.gradient[k];
      t.mass_displacement[i] += w * q.mass_displacement;
      t.mass_position[i] += w * q.mass_position;
    }
  }
}

}  // namespace tribo::mpm
