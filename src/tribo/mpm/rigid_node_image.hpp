#pragma once
// The nodal values of rigid fields that do not move, recorded once and restored every step instead
// of being scattered again (issue 17: a rigid floor costs about as much per particle as the
// particle-to-grid pass of a deformable body, every step, for values that never change).
//
// A field qualifies when all its particles are rigid with zero velocity: its mass, volume, volume
// and mass gradients and mass-weighted position at each node are then the same sums of the same
// particle terms at every step, and its momentum and mass-weighted displacement are zero. The
// image is taken from the first particle-to-grid pass, so the values restored are the ones that
// pass summed, bit for bit.
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/mpm/node_fields.hpp"

namespace tribo::mpm {

template <int Dim>
struct RigidNodeImage {
  bool recorded = false;
  std::vector<long> entry;  // flat node entries of the recorded fields that hold mass
  std::vector<double> mass, volume;
  std::vector<Vec<Dim>> momentum, volume_gradient, mass_gradient, mass_displacement, mass_position;

  // Copies every entry of the fields marked in `recorded_field` (per field of a node) that holds
  // mass after a full particle-to-grid pass.
  void record(const NodeFields<Dim>& nodes, const std::vector<char>& recorded_field) {
    *this = RigidNodeImage{};
    const long entries = static_cast<long>(nodes.mass.size());
    for (long i = 0; i < entries; ++i) {
      if (!recorded_field[i % nodes.fields] || !(nodes.mass[i] > 0.0)) continue;
      entry.push_back(i);
      mass.push_back(nodes.mass[i]);
      volume.push_back(nodes.volume[i]);
      momentum.push_back(nodes.momentum[i]);
      volume_gradient.push_back(nodes.volume_gradient[i]);
      mass_gradient.push_back(nodes.mass_gradient[i]);
      mass_displacement.push_back(nodes.mass_displacement[i]);
      mass_position.push_back(nodes.mass_position[i]);
    }
    recorded = true;
  }

  // The nodes restore() writes (entries ascend: the first's node to the last's).
  NodeRange nodes(int fields) const {
    if (entry.empty()) return NodeRange{};
    return NodeRange{entry.front() / fields, entry.back() / fields + 1};
  }

  // Writes the recorded entries into nodes just cleared, whose recorded fields got nothing else.
  void restore(NodeFields<Dim>& nodes) const {
    const long n = static_cast<long>(entry.size());
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n; ++k) {
      const long i = entry[k];
      nodes.mass[i] = mass[k];
      nodes.volume[i] = volume[k];
      nodes.momentum[i] = momentum[k];
      nodes.volume_gradient[i] = volume_gradient[k];
      nodes.mass_gradient[i] = mass_gradient[k];
      nodes.mass_displacement[i] = mass_displacement[k];
      nodes.mass_position[i] = mass_position[k];
    }
  }
};

}  // namespace tribo::mpm
