#pragma once
// Contact on the faces of explicit cracks (NairnMPM's CRAMP crack contact; Nairn 2003, CMES 4:649;
// PHYSICS.md "MPM cracks"; the seed "Detecting Contact": the displacement check is always done for
// crack contact). At every node that sees a crack, each pair of crack fields [0]-[1], [0]-[2],
// [1]-[3], [2]-[3] is one contact pair: the centre of mass of each crack field (its material
// fields lumped), the normal of the crack segment nearest the node (oriented from field a to
// field b), the approach and displacement (or position) checks and the crack's law, all through
// resolve_contact_pair; the momentum change of a crack field is shared among its material fields
// in proportion to their masses (one velocity change for all of them).
#include <optional>
#include <vector>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/contact_detection.hpp"
#include "tribo/mpm/crack_fields.hpp"
#include "tribo/mpm/crack_geometry.hpp"
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/node_fields.hpp"
#include "tribo/parallel/communicator.hpp"

namespace tribo::mpm {

// Crack contact impulses of one step (the passes whose changes reach the particles, as
// ContactAccumulator) and the frictional work on the crack faces.
template <int Dim>
struct CrackContactAccumulator {
  std::vector<Vec<Dim>> impulse;  // per crack: on the material above it from the material below, N s
  double frictional_work = 0.0;   // J
  // Across processes, per node: whether this process adds the node's impulses and work (a node
  // shared with lower ranks is counted by the lowest); empty: every node.
  std::vector<char> counted_node;

  void resize(int cracks) { impulse.assign(cracks, Vec<Dim>::Zero()); }
  void clear() {
    std::fill(impulse.begin(), impulse.end(), Vec<Dim>::Zero());
    frictional_work = 0.0;
  }
};

// The node arrays hold kCrackFields crack fields of `material_fields` material fields each
// (flat index n * (4 F) + c F + f). `rigid_field` is per material field. The settings are the
// deck's mpm.contact (normals are not used: the crack gives them; Vmin is); the displacement check
// is forced on, by displacements. `thickness`: 2D, the deck's (in the full node volume of Vmin).
// `processes` (across processes): the dust threshold is the heaviest node entry of every process,
// so that the holders of a shared node decide alike.
template <int Dim>
void apply_crack_contact(NodeFields<Dim>& nodes, const Grid<Dim>& grid, int material_fields,
                         const std::vector<bool>& rigid_field, const std::vector<Crack>& cracks,
                         const CrackFields<Dim>& fields, const MpmContactSpec& settings, double dt,
                         ContactStage stage, CrackContactAccumulator<Dim>* accumulator,  // null: do not record
                         double thickness = 1.0, const parallel::Communicator* processes = nullptr,
                         // node_field_dust() of these nodes when the caller has it (computed otherwise)
                         std::optional<double> dust = std::nullopt);

}  // namespace tribo::mpm
