#include "tribo/mpm/crack_contact.hpp"

#include <algorithm>

#include "tribo/mpm/contact_pair.hpp"
#include "tribo/mpm/multimaterial_contact.hpp"
#include "tribo/mpm/node_contact_field.hpp"

namespace tribo::mpm {

namespace {

// One crack field at a node: its material fields lumped into their centre of mass. A crack
// field holding a rigid material moves with it (its velocity is imposed).
template <int Dim>
ContactField<Dim> lumped_crack_field(const NodeFields<Dim>& nodes, long base, int F,
                                     const std::vector<bool>& rigid_field, double dust) {
  FieldLump<Dim> lump;
  for (int f = 0; f < F; ++f) {
    const long i = base + f;
    if (!(nodes.mass[i] > dust)) continue;
    // The rigid material's own entries: its imposed velocity and position stand for the field.
    if (rigid_field[f]) return contact_field_at(nodes, i, true);
    lump.add(nodes, i);
  }
  return lump.field();
}

// Shares dp among the deformable material fields of a crack field in proportion to their mass:
// each gets the same velocity change dp / m (NairnMPM changes a crack field's materials alike).
template <int Dim>
void share_momentum_change(NodeFields<Dim>& nodes, long base, int F, const std::vector<bool>& rigid_field,
                           double dust, double mass, const Vec<Dim>& dp) {
  if (!(mass > 0.0)) return;
  const Vec<Dim> dv = dp / mass;
  for (int f = 0; f < F; ++f) {
    const long i = base + f;
    if (rigid_field[f] || !(nodes.mass[i] > dust)) continue;
    nodes.momentum[i] += nodes.mass[i] * dv;
  }
}

}  // namespace

template <int Dim>
void apply_crack_contact(NodeFields<Dim>& nodes, const Grid<Dim>& grid, int material_fields,
                         const std::vector<bool>& rigid_field, const std::vector<Crack>& cracks,
                         const CrackFields<Dim>& fields, const MpmContactSpec& settings, double dt,
                         ContactStage stage, CrackContactAccumulator<Dim>* accumulator, double thickness,
                         const parallel::Communicator* processes, std::optional<double> given_dust) {
  if constexpr (Dim != 2) {
    return;  // cracks are 2D polylines (the deck reader rejects them in 3D)
  } else {
    const int F = material_fields;
    const int stride = kCrackFields * F;
    // The seed: "the displacement check is ... always done for crack contact". The two faces of a
    // crack start coincident, so the jump of the displacements across it is the opening itself;
    // `position.method` (material contact, whose bodies start apart) does not apply here: the
    // position method's cutoff would read coincident faces as 0.8 cell apart.
    MpmContactSpec detection = settings;
    detection.displacement_check = true;
    detection.position_method = ContactPositionMethod::Displacement;
    const NodeContext<Dim> context{grid.cell, grid.cell_volume() * thickness, dt};
    // As multimaterial contact: dust is no field.
    const double dust = given_dust ? *given_dust : node_field_dust(nodes, processes);
    const char* counted = accumulator && !accumulator->counted_node.empty() ? accumulator->counted_node.data() : nullptr;

    // The pairs of NairnMPM, and which field's (crack, side) tells the crack between them: [0]-[1]
    // and [0]-[2] differ by the crack of [1] and [2]; [1]-[3] by the second crack, that of [2],
    // and [2]-[3] by that of [1].
    constexpr int kPairs[4][3] = {{0, 1, 1}, {0, 2, 2}, {1, 3, 2}, {2, 3, 1}};
    // Sweeps of the pairs at a node with two or more of them (16 converge the layer half a cell
    // thick between two cracks of tests/validation/mpm/crack_two_cracks_test.cpp: 4 leave its
    // reaction 1.3% low, 1 sweep 90% low).
    constexpr int kMaxSweeps = 16;
    const long node_count = grid.node_count();
    for (long n = 0; n < node_count; ++n) {
      if (!fields.node_sees_crack(n)) continue;
      const long node_base = n * stride;
      ContactField<Dim> lumped[kCrackFields];
      for (int c = 0; c < kCrackFields; ++c)
        lumped[c] = lumped_crack_field(nodes, node_base + c * F, F, rigid_field, dust);
      // A field between two others (a layer between two cracks at one node) is in two pairs; one
      // pass of the pairs leaves the first out of balance after the second has acted, so the
      // pairs are swept again until none acts (each acting pair leaves its fields without
      // approach, so a converged sweep changes nothing). Imperfect-interface springs act in every
      // call whatever the state: they act in the first sweep only.
      int pairs_present = 0;
      for (const auto& pair : kPairs) pairs_present += lumped[pair[0]].mass > dust && lumped[pair[1]].mass > dust;
      const int sweeps = pairs_present > 1 ? kMaxSweeps : 1;
      for (int sweep = 0; sweep < sweeps; ++sweep) {
        bool acted = false;
        for (const auto& pair : kPairs) {
          const int a = pair[0], b = pair[1];
          if (!(lumped[a].mass > dust) || !(lumped[b].mass > dust)) continue;
          if (lumped[a].rigid && lumped[b].rigid) continue;
          const int combination = fields.combination_of_field(n, pair[2]);
          if (combination < 0) continue;
          const int crack = combination / 2;
          if (sweep > 0 && cracks[crack].law.law == ContactLaw::ImperfectInterface) continue;
          const bool b_above = combination % 2 == static_cast<int>(CrackSide::Above);
          // The particles of b crossed the crack from b's side: the normal out of a toward b is the
          // crack's normal (pointing above) when b is above.
          const Vec2 normal_above = crack_normal_near(cracks[crack], grid.node_position(n));
          const Vec<Dim> normal = b_above ? normal_above : Vec2(-normal_above);
          const PairContactResult<Dim> r = resolve_contact_pair<Dim>(lumped[a], lumped[b], normal,
                                                                     cracks[crack].law, detection, context, stage);
          if (!r.in_contact) continue;
          acted = true;
          share_momentum_change(nodes, node_base + a * F, F, rigid_field, dust, lumped[a].mass, r.momentum_change_a);
          share_momentum_change(nodes, node_base + b * F, F, rigid_field, dust, lumped[b].mass, r.momentum_change_b);
          lumped[a].momentum += r.momentum_change_a;
          lumped[b].momentum += r.momentum_change_b;
          if (accumulator && (counted == nullptr || counted[n])) {
            // The impulse on b (its reaction when b is rigid), then on the material above.
            const Vec<Dim> on_b = lumped[b].rigid ? Vec<Dim>(-r.momentum_change_a) : r.momentum_change_b;
            accumulator->impulse[crack] += b_above ? on_b : Vec<Dim>(-on_b);
            // Only a sliding node dissipates (as multimaterial contact's slip_work).
            if (!r.sticking) accumulator->frictional_work += r.frictional_work;
          }
        }
        if (!acted) break;
      }
    }
  }
}

template void apply_crack_contact<2>(NodeFields<2>&, const Grid<2>&, int, const std::vector<bool>&,
                                     const std::vector<Crack>&, const CrackFields<2>&, const MpmContactSpec&, double,
                                     ContactStage, CrackContactAccumulator<2>*, double, const parallel::Communicator*,
                                     std::optional<double>);
template void apply_crack_contact<3>(NodeFields<3>&, const Grid<3>&, int, const std::vector<bool>&,
                                     const std::vector<Crack>&, const CrackFields<3>&, const MpmContactSpec&, double,
                                     ContactStage, CrackContactAccumulator<3>*, double, const parallel::Communicator*,
                                     std::optional<double>);

}  // namespace tribo::mpm
