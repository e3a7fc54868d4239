#pragma once
// What the run driver (app/), the output writers (io/) and the validation tests need of a solver.
// Virtual calls happen once per step or per output, never per particle.
#include <stdexcept>
#include <string>
#include <vector>

#include "tribo/core/particles.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/core/types.hpp"

namespace tribo {

struct EnergyBreakdown {
  double kinetic = 0.0;     // J, deformable bodies
  double strain = 0.0;      // J, stored elastic energy
  double potential = 0.0;   // J, gravitational, -m g.x relative to the initial state
  double frictional = 0.0;  // J, cumulative work dissipated by contact friction
  // For a closed system that only loses energy to friction, total stays constant.
  double total() const { return kinetic + strain + potential + frictional; }
};

// A set of line segments or triangles, in 3D coordinates, for extra VTK pieces (crack surfaces,
// PD contact pairs).
struct SurfaceMesh {
  std::string name;            // file stem, e.g. "cracks"
  std::vector<Vec3> points;
  std::vector<std::vector<int>> cells;  // each a polyline/triangle (point indices)
};

template <int Dim>
class Simulation {
 public:
  virtual ~Simulation() = default;

  virtual void step() = 0;  // advance by dt()
  virtual double time() const = 0;
  virtual long step_count() const = 0;
  virtual double dt() const = 0;
  virtual const Particles<Dim>& particles() const = 0;
  // Write access before the first step, for initial fields a deck cannot express (a vibration
  // mode's velocity in a test) and for restarts. Solvers that keep derived per-particle state must
  // only be changed in position-independent fields (velocity) through this.
  virtual Particles<Dim>& mutable_particles() {
    throw std::logic_error("this solver does not allow changing its particles");
  }
  virtual const SimulationSpec& spec() const = 0;

  virtual EnergyBreakdown energy() const = 0;
  // Contact force on the particles of material a from those of material b over the last step (N);
  // zero when they never touched.
  virtual Vec3 contact_force(int material_a, int material_b) const = 0;
  // Throws SimulationError naming the step, time and particle when the state is not finite or has
  // left the domain.
  virtual void check_health() const = 0;
  // Extra geometry to write beside the particles each frame (cracks, contact pairs).
  virtual std::vector<SurfaceMesh> surfaces() const { return {}; }
};

}  // namespace tribo
