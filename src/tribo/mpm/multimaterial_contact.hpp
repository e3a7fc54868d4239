#pragma once
// Multimaterial contact over the grid: at every node with two or more velocity fields, each pair
// (or each field against the others lumped, for three or more) goes through the detection and law
// of contact_pair.hpp, and the momentum changes are applied equal and opposite.
#include <optional>
#include <vector>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/contact_moments.hpp"
#include "tribo/mpm/contact_pair.hpp"
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/mpm_simulation.hpp"
#include "tribo/mpm/node_fields.hpp"
#include "tribo/mpm/node_particles.hpp"
#include "tribo/parallel/communicator.hpp"

namespace tribo::mpm {

// Contact impulses of one step and the frictional work, summed over the contact passes whose
// momentum changes reach the particles (after extrapolation and after the momentum update; not the
// MUSL re-extrapolation, which only feeds the velocity gradient).
template <int Dim>
struct ContactAccumulator {
  int fields = 0;
  std::vector<Vec<Dim>> pair_impulse;  // fields x fields: on a from b, N s
  double frictional_work = 0.0;        // J
  // J, the work done on the penalty law's springs since the start (their energy, part of the
  // strain energy of the balance; added by each momentum-update pass, kept across steps).
  double stored_energy = 0.0;

  // Scratch of apply_multimaterial_contact: what the parallel node pass leaves for the serial one
  // to add in node order (so the sums above are the serial loop's, bit for bit), one list per
  // thread. Each thread's nodes are its static block, in increasing order, and thread t's block
  // precedes thread t + 1's (OpenMP's static schedule): the lists in thread order are node order.
  struct NodeRecord {
    long node = 0;
    int kind = 0;  // 1 one pair (below), 2 three fields or more (done in the serial pass)
    int a = 0, b = 0;
    Vec<Dim> impulse_a = Vec<Dim>::Zero();
    double work = 0.0;
    double stored = 0.0;  // work done on the penalty spring (PairContactResult::interface_energy)
  };
  std::vector<std::vector<NodeRecord>> records_by_thread;
  // Across processes (docs/parallel.md): per node of this process's sub-grid, whether its impulses
  // and work go into the sums above. Shared nodes are resolved identically by every process that
  // holds them, and counted by the lowest of those ranks only; empty: every node counts.
  std::vector<char> counted_node;

  void resize(int f) {
    fields = f;
    pair_impulse.assign(f * f, Vec<Dim>::Zero());
  }
  void clear() {
    std::fill(pair_impulse.begin(), pair_impulse.end(), Vec<Dim>::Zero());
    frictional_work = 0.0;
  }
  const Vec<Dim>& impulse(int a, int b) const { return pair_impulse[a * fields + b]; }
};

// Slip of each deformable field against its partner at each node since the two last stuck, m
// (node * fields + field): the state of slip-weakening static friction (docs/mpm-contact.md). It
// grows by the tangential slip of each step after the momentum update and returns to zero when the
// node sticks or the fields are not in contact. Nodes are Eulerian, so for a body sliding over
// another it is the slip since the material now at the node came into contact there.
struct SlipHistory {
  std::vector<double> slip;
  // Where slip may be non-zero: at `nodes` (ascending), the nodes the last advancing pass visited
  // from a candidate list, or `anywhere` (at the start, after a restore or a move of the grid, or
  // after a pass over every node). A pass over candidates zeroes the slip of the nodes it leaves out.
  std::vector<long> nodes;
  bool anywhere = true;
  void resize(long nodes_count, int fields) {
    slip.assign(static_cast<std::size_t>(nodes_count) * fields, 0.0);
    nodes.clear();
    nodes.reserve(static_cast<std::size_t>(nodes_count));  // no allocation in a step
    anywhere = true;
  }
};

// Below this mass a node field is numerical dust at the edge of a body's support: 1e-10 of the
// heaviest node field of the grid, across `processes` (null: one) so that every holder of a shared
// node sees one threshold. The contact pass and the regression normals' neighbourhoods
// (NodeParticles) screen with it, so that every node the pass fits between two deformable fields
// has its particles listed.
template <int Dim>
double node_field_dust(const NodeFields<Dim>& nodes, const parallel::Communicator* processes);
// The same threshold from the heaviest node entry of every process.
inline double node_dust_of(double heaviest_node) { return 1e-10 * heaviest_node; }

template <int Dim>
void apply_multimaterial_contact(NodeFields<Dim>& nodes, const Grid<Dim>& grid, const FieldLayout& layout,
                                 const MpmContactSpec& settings, double dt, ContactStage stage,
                                 ContactAccumulator<Dim>* accumulator,  // null: do not record
                                 const NodeParticles<Dim>* around = nullptr,  // for regression normals
                                 SlipHistory* history = nullptr,  // null: a sharp static-kinetic drop
                                 const NodeMoments<Dim>* moments = nullptr,  // null: slip at the node
                                 // the processes sharing the grid (null: one): the dust threshold
                                 // is the heaviest node of all, so shared nodes see one threshold
                                 const parallel::Communicator* processes = nullptr,
                                 // 2D: the deck's thickness, in the particle volumes and so in the
                                 // full node volume that Vmin and the penalty law compare them with
                                 double thickness = 1.0,
                                 // node_field_dust() of these nodes, when the caller has it (a
                                 // solver takes it once a step: the masses do not change between
                                 // its passes); otherwise computed here
                                 std::optional<double> dust = std::nullopt,
                                 // the nodes where two fields or more hold mass, ascending, when
                                 // the caller has them: only those are visited (null: every node)
                                 const std::vector<long>* candidates = nullptr);

}  // namespace tribo::mpm
