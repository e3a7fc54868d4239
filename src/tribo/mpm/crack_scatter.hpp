#pragma once
// The particle-to-grid kernel of scatter_kernels.hpp for a particle near a crack: the same terms,
// but each stencil node's entry is node * fields + field + offset[k], offset[k] = c F the crack
// field the particle uses at that node (crack_fields.hpp).
#include "tribo/mpm/scatter_kernels.hpp"

namespace tribo::mpm {

template <bool WithForce, unsigned ContactData, int Dim, class Stencil>
[[gnu::always_inline]] inline void scatter_particle_across_cracks(const Stencil& s, long field, long fields,
                                                                  const int* offset, ScatterTargets<Dim> t,
                                                                  const ParticleTerms<Dim>& q) {
  for (int k = 0; k < Stencil::size; ++k)
    scatter_to_entry<WithForce, ContactData>(s.node[k] * fields + field + offset[k], s, k, t, q);
}

}  // namespace tribo::mpm
