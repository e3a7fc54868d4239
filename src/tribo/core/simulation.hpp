#pragma once
// What the run driver (app/), the output writers (io/) and the validation tests need of a solver.
// Virtual calls happen once per step or per output, never per particle.
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
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
  // Optional Int32 cell data, one value per cell in each array (MPM cracks: "crack", "surface").
  std::vector<std::pair<std::string, std::vector<int>>> cell_data;
};

// Checkpoints (docs/reliability.md): a solver writes its state as named entries of plain bytes and
// reads them back. io/checkpoint_file.hpp holds the file format; solvers see only these two
// interfaces, so that they keep depending on core/ alone. One virtual call per array, never per
// particle.
template <class T>
concept PlainCheckpointData =
    std::is_trivially_copyable_v<T> ||
    requires {  // Eigen fixed-size matrices: plain storage, but a user-provided copy constructor
      typename T::Scalar;
      requires T::SizeAtCompileTime > 0;
      requires sizeof(T) == T::SizeAtCompileTime * sizeof(typename T::Scalar);
      requires std::is_trivially_copyable_v<typename T::Scalar>;
    };

// An empty array's data() may be null; the helpers below pass a valid address instead, so that an
// implementation may hand `data` to memcpy even when `size` is 0.
inline void* checkpoint_nonnull(void* data) {
  static char empty = 0;
  return data ? data : &empty;
}
inline const void* checkpoint_nonnull(const void* data) { return data ? data : checkpoint_nonnull(static_cast<void*>(nullptr)); }

class StateWriter {
 public:
  virtual ~StateWriter() = default;
  // Adds one entry; a name may appear once per checkpoint.
  virtual void write_bytes(std::string_view name, const void* data, std::size_t size) = 0;

  template <PlainCheckpointData T>
  void write_value(std::string_view name, const T& value) {
    write_bytes(name, &value, sizeof(T));
  }
  template <PlainCheckpointData T>
  void write_array(std::string_view name, const std::vector<T>& values) {
    write_bytes(name, checkpoint_nonnull(static_cast<const void*>(values.data())), values.size() * sizeof(T));
  }
};

class StateReader {
 public:
  virtual ~StateReader() = default;
  // Size in bytes of entry `name`; throws std::runtime_error naming it when it is missing.
  virtual std::size_t entry_size(std::string_view name) const = 0;
  // Copies entry `name` into data; throws std::runtime_error when it is missing or its size is
  // not `size`.
  virtual void read_bytes(std::string_view name, void* data, std::size_t size) const = 0;

  template <PlainCheckpointData T>
  void read_value(std::string_view name, T& value) const {
    read_bytes(name, &value, sizeof(T));
  }
  // Resizes `values` to the stored length.
  template <PlainCheckpointData T>
  void read_array(std::string_view name, std::vector<T>& values) const {
    const std::size_t bytes = entry_size(name);
    if (bytes % sizeof(T) != 0)
      throw std::runtime_error("checkpoint entry '" + std::string(name) +
                               "' does not hold whole elements of its type");
    values.resize(bytes / sizeof(T));
    read_bytes(name, checkpoint_nonnull(static_cast<void*>(values.data())), bytes);
  }
  // Same, but the stored length must be values.size() (arrays the constructor sized from the
  // deck: a different length means the checkpoint was written for another deck).
  template <PlainCheckpointData T>
  void read_array_of_size(std::string_view name, std::vector<T>& values) const {
    const std::size_t bytes = entry_size(name);
    if (bytes != values.size() * sizeof(T))
      throw std::runtime_error("checkpoint entry '" + std::string(name) + "' holds " +
                               std::to_string(bytes / sizeof(T)) + " elements, the deck makes " +
                               std::to_string(values.size()) +
                               " (the checkpoint was written for another deck)");
    read_bytes(name, checkpoint_nonnull(static_cast<void*>(values.data())), bytes);
  }
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
  // Contact force on the material above crack `crack` (left of its polyline's direction) from the
  // material below, over the last step (N); zero for solvers without cracks (MPM cracks only).
  virtual Vec3 crack_force(int crack) const { return Vec3::Zero(); }
  // Angular momentum about the origin that the particles carry beyond sum x_p x m_p v_p, this
  // process's share over non-rigid particles: MPM's affine velocities (transfer: apic). Zero where
  // a solver's particles are points.
  virtual Vec3 particle_spin() const { return Vec3::Zero(); }
  // Impulse on the deformable material from outside it over the last step (N s): gravity, boundary
  // conditions and rigid bodies, for the summary's momentum balance (docs/reliability.md). NaN
  // when the solver does not record it.
  virtual Vec3 external_impulse() const { return Vec3::Constant(std::numeric_limits<double>::quiet_NaN()); }
  // Throws SimulationError naming the step, time and particle when the state is not finite or has
  // left the domain.
  virtual void check_health() const = 0;
  // Extra geometry to write beside the particles each frame (cracks, contact pairs).
  virtual std::vector<SurfaceMesh> surfaces() const { return {}; }

  // Checkpoints: every part of the state that step() changes or that the outputs read, so that
  // restore_state() on a solver built from the same spec continues exactly as the saved one
  // would have (bitwise on one thread). Solvers without checkpoints keep these defaults.
  virtual void save_state(StateWriter& out) const {
    throw std::logic_error("this solver does not write checkpoints");
  }
  virtual void restore_state(const StateReader& in) {
    throw std::logic_error("this solver does not read checkpoints");
  }
  // A restart on another number of processes (docs/parallel.md): whether this solver takes the
  // pieces of a checkpoint written by another count, and restores from those this process was
  // given (maybe none; `first`, piece 0, read by every process, for what every piece holds alike).
  // Collective.
  virtual bool restores_any_process_count() const { return false; }
  virtual void restore_pieces(std::span<const StateReader* const> /*pieces*/, const StateReader& /*first*/) {
    throw std::logic_error("this solver restarts only on the process count its checkpoints were written by");
  }
  // Called by the driver once a checkpoint has been written to disk (not after an in-memory
  // snapshot): a solver whose restored state is laid out afresh (PD across processes) lays out
  // its running state the same way at its next step, so that a restart repeats the run.
  virtual void checkpoint_written() {}
  // The largest stable time step at the current state (s), for the driver's guard; +inf when the
  // solver has no estimate.
  virtual double time_step_limit() const { return std::numeric_limits<double>::infinity(); }

  // A run on several processes (docs/parallel.md): particles() holds this process's particles;
  // the driver and the writers complete their per-particle sums with these collective calls
  // (every process calls them, in the same order, with the same length). One process: nothing to
  // complete, the values stay as they are.
  virtual int process_count() const { return 1; }
  virtual int process_rank() const { return 0; }
  // This process's wall time exchanging with the others so far (s), waits included.
  virtual double communication_seconds() const { return 0.0; }
  virtual void sum_over_processes(std::span<double> /*values*/) const {}
  virtual void max_over_processes(std::span<double> /*values*/) const {}
};

}  // namespace tribo
