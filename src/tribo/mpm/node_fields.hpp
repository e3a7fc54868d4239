#pragma once
// Grid data per node and per velocity field, structure-of-arrays, flat index node * fields + field.
// A velocity field is a material named in a contact pair, a rigid material, or field 0 shared by all
// other materials. The contact arrays are allocated only when there are two or more fields.
#include <algorithm>
#include <vector>

#include "tribo/core/types.hpp"

namespace tribo::mpm {

// The contact arrays a particle-to-grid pass fills, as bits of NodeFields::contact_data. Volume
// and volume gradient go with every contact (Vmin screen, contact area, every gradient normal);
// the others only where the deck's contact reads them (MpmSimulation's contact_data_needed()).
// An array left out is still allocated and stays zero.
enum ContactDataBits : unsigned {
  kContactVolume = 1,         // volume, volume_gradient
  kContactMassGradient = 2,   // mass_gradient
  kContactDisplacement = 4,   // mass_displacement
  kContactPosition = 8,       // mass_position
  kContactAll = 15,
};

// A range of nodes [begin, end) of the flat node index (entries begin * fields .. end * fields).
struct NodeRange {
  long begin = 0, end = 0;
  bool empty() const { return end <= begin; }
  // The smallest range holding both (an empty one adds nothing).
  NodeRange hull(const NodeRange& other) const {
    if (other.empty()) return *this;
    if (empty()) return other;
    return {begin < other.begin ? begin : other.begin, end > other.end ? end : other.end};
  }
};

// The nodes within `spread` node layers of nodes first..last (inclusive) along the last axis,
// the flat node index's slowest (`layer` nodes a layer, `layers` layers), clipped to `within`.
// A particle whose stencil holds node n writes only nodes within Shape::support - 1 layers of n.
inline NodeRange layers_around(long first, long last, long layer, long layers, long spread, NodeRange within) {
  const long first_layer = std::max(first / layer - spread, 0L);
  const long last_layer = std::min(last / layer + spread, layers - 1);
  return NodeRange{std::max(first_layer * layer, within.begin), std::min((last_layer + 1) * layer, within.end)};
}

template <int Dim>
struct NodeFields {
  int fields = 1;
  long nodes = 0;
  bool with_contact_data = false;
  unsigned contact_data = 0;  // ContactDataBits filled by the particle-to-grid pass and cleared

  std::vector<double> mass;                // kg
  std::vector<Vec<Dim>> momentum;          // kg m/s, updated in the step
  std::vector<Vec<Dim>> momentum_flip_base;  // as extrapolated from the particles (FLIP base)
  std::vector<Vec<Dim>> momentum_start;    // after boundary conditions and the first contact
  std::vector<Vec<Dim>> force;             // N, internal + external
  // For contact (Nairn et al. 2018): volume, gradients and mass-weighted displacement/position.
  std::vector<double> volume;
  std::vector<Vec<Dim>> volume_gradient;
  std::vector<Vec<Dim>> mass_gradient;
  std::vector<Vec<Dim>> mass_displacement;  // sum S m_p u_p
  std::vector<Vec<Dim>> mass_position;      // sum S m_p x_p

  void allocate(long node_count, int field_count) {
    nodes = node_count;
    fields = field_count;
    with_contact_data = field_count > 1;
    contact_data = with_contact_data ? unsigned{kContactAll} : 0u;
    const std::size_t n = static_cast<std::size_t>(node_count) * field_count;
    mass.assign(n, 0.0);
    momentum.assign(n, Vec<Dim>::Zero());
    momentum_start.assign(n, Vec<Dim>::Zero());
    momentum_flip_base.assign(n, Vec<Dim>::Zero());
    force.assign(n, Vec<Dim>::Zero());
    if (with_contact_data) {
      volume.assign(n, 0.0);
      volume_gradient.assign(n, Vec<Dim>::Zero());
      mass_gradient.assign(n, Vec<Dim>::Zero());
      mass_displacement.assign(n, Vec<Dim>::Zero());
      mass_position.assign(n, Vec<Dim>::Zero());
    }
  }

  void clear() { clear(NodeRange{0, nodes}); }
  // Zeroes the entries of the nodes in `range` (every entry the scatter wrote, when the range
  // holds them: MpmSimulation's touched nodes).
  void clear(NodeRange range) { clear(range, range); }
  // The same, with the contact arrays zeroed over `contact_range` instead: the nodes where they
  // were written, when that is less (the two-pass scatter fills them near contact only).
  void clear(NodeRange range, NodeRange contact_range) {
    // Each loop split as the node loops that follow split their range.
    const long first = range.begin * fields, last = range.end * fields;
    const long contact_first = contact_range.begin * fields, contact_last = contact_range.end * fields;
    const unsigned contact = with_contact_data ? contact_data : 0;
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
      for (long i = first; i < last; ++i) {
        mass[i] = 0.0;
        momentum[i].setZero();
        force[i].setZero();
      }
      if (contact != 0) {
#pragma omp for schedule(static)
        for (long i = contact_first; i < contact_last; ++i) {
          if (contact & kContactVolume) {
            volume[i] = 0.0;
            volume_gradient[i].setZero();
          }
          if (contact & kContactMassGradient) mass_gradient[i].setZero();
          if (contact & kContactDisplacement) mass_displacement[i].setZero();
          if (contact & kContactPosition) mass_position[i].setZero();
        }
      }
    }
  }
};

}  // namespace tribo::mpm
