#pragma once
#include <algorithm>
// The MPM solver: particles, a background grid with one velocity field per contacting material,
// and the USL / USF / MUSL time step of ../../../shared/DESIGN.md ("One MPM time step").
#include <memory>
#include <string>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/node_fields.hpp"
#include "tribo/parallel/communicator.hpp"

namespace tribo::mpm {

template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec);

// The same solver on the processes of `processes` (docs/parallel.md): each owns the particles of
// one box of a recursive coordinate bisection and works on the part of the grid they reach; nodal
// sums are completed across processes before contact, particles migrate after the move, and
// energy(), contact_force(), external_impulse(), check_health() and time_step_limit() are
// collective (every process calls them, in the same order) and return the values of the whole
// run. particles() holds this process's particles only. On one process it is make_simulation(spec).
template <int Dim>
std::unique_ptr<Simulation<Dim>> make_simulation(const SimulationSpec& spec, const parallel::Communicator& processes);

// Why this deck cannot run across processes yet (the option that stops it, in words that name its
// key), or "" when it can: make_simulation(spec, processes) refuses it on more than one process,
// and `tribo validate` under mpirun runs it whole on every process instead (docs/parallel.md).
std::string unsupported_across_processes(const SimulationSpec& spec);

// Which velocity field each material uses, and the contact law between each pair of fields.
struct FieldLayout {
  int fields = 1;
  std::vector<int> field_of_material;        // per material
  std::vector<bool> rigid_field;             // per field
  std::vector<ContactLawSpec> pair_law;      // fields x fields
  std::vector<bool> pair_has_law;            // false: the fields bond (stick), as one field would
  // Per field: the smallest bulk modulus of its deformable materials (Pa; 0 for a rigid field),
  // the stiffness scale of the penalty normal law.
  std::vector<double> bulk_modulus;

  static FieldLayout from(const SimulationSpec& spec);
  const ContactLawSpec& law(int a, int b) const { return pair_law[a * fields + b]; }
  // The penalty law's modulus for fields a and b (Pa): penalty_scale times the softer deformable
  // field's bulk modulus (a rigid field has none); 0 with the impulse law.
  double penalty_modulus(const MpmContactSpec& contact, int a, int b) const {
    if (contact.normal_law != ContactNormalLaw::Penalty) return 0.0;
    const double ka = rigid_field[a] ? 0.0 : bulk_modulus[a], kb = rigid_field[b] ? 0.0 : bulk_modulus[b];
    const double softer = ka > 0.0 && kb > 0.0 ? std::min(ka, kb) : std::max(ka, kb);
    return contact.penalty_scale * softer;
  }
};

// The contact arrays of NodeFields (ContactDataBits) that the contact of this deck and layout
// reads, so that the particle-to-grid pass fills and clears only those (a 3D block on a rigid
// floor spent half of its scatter on arrays its contact never read). Returns a set the scatter has
// an instance for: 0, volume, volume + displacement, volume + position, or all.
// tests/mpm/contact_data_test.cpp checks that contact gives the same momenta bit for bit with the
// other arrays zeroed, for every normal method, position check and law.
unsigned contact_data_needed(const SimulationSpec& spec, const FieldLayout& layout);

// Stable explicit step: cfl * (smallest cell) / (fastest dilatational wave + fastest particle).
template <int Dim>
double stable_time_step(const SimulationSpec& spec, const std::vector<Vec<Dim>>& velocities, double cfl);

}  // namespace tribo::mpm
