#pragma once
// Checkpoints of a run (docs/reliability.md): the solver's state (Simulation::save_state) plus
// what the time loop keeps (the next output and checkpoint times, the frame count, the initial
// energy and momentum for the summary), in DIR/checkpoints/checkpoint_STEP.bin. `tribo run DECK
// --restart DIR` continues from the newest readable one.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/io/checkpoint_file.hpp"

namespace tribo::app {

// The time loop's own state, saved beside the solver's.
struct DriverState {
  long next_output = 1;      // the next output is at next_output * output interval
  long next_checkpoint = 1;  // the next checkpoint is at next_checkpoint * checkpoint interval
  long frames = 0;           // VTK frames written so far (the next frame's number)
  EnergyBreakdown energy0;   // at t = 0, for the summary's conservation errors
  Vec3 momentum0 = Vec3::Zero();
  // The summary's momentum balance (docs/reliability.md): the sum over steps of
  // Simulation::external_impulse() (N s), the sum of its norms, and sum |m v| at t = 0. NaN in
  // external_impulse when the solver does not record it (or a checkpoint of an older version
  // lacked it).
  Vec3 external_impulse = Vec3::Zero();
  double impulse_flux = 0.0;
  double momentum_abs0 = 0.0;
};

// A hash of the deck as run, leaving out what a restart may change: the title, time.end (a run
// may be extended) and the output section (the history's columns are checked by the CSV reload).
std::string deck_fingerprint(const SimulationSpec& spec);

// The checkpoint of a running solver.
template <int Dim>
io::CheckpointImage make_checkpoint(const SimulationSpec& spec, const Simulation<Dim>& sim,
                                    const DriverState& driver);
// The same, written over `image` in its own buffer, sized exactly before the first byte: the peak
// memory of a snapshot is one image (a PD run's bond weights: 8 B a bond), not the old image
// plus a new one growing by doubling (issue 17).
// `fingerprint`: deck_fingerprint(spec), which a run computes once (it writes and hashes the deck).
template <int Dim>
void fill_checkpoint(io::CheckpointImage& image, const SimulationSpec& spec, const Simulation<Dim>& sim,
                     const DriverState& driver, const std::string& fingerprint);

// Restores the solver and the driver state. Throws std::runtime_error naming the file when the
// checkpoint was written by another deck (fingerprint, method, dimension or particle count).
template <int Dim>
void restore_checkpoint(const io::CheckpointImage& image, const SimulationSpec& spec, Simulation<Dim>& sim,
                        DriverState& driver);

// The same from the pieces of a checkpoint written by another number of processes: `first` (piece
// 0, read by every process) holds the driver state and is checked against the deck; `pieces` are
// the ones this process takes (maybe none). Collective (Simulation::restore_pieces).
template <int Dim>
void restore_checkpoint_pieces(const io::CheckpointImage& first, const std::vector<const io::CheckpointImage*>& pieces,
                               const SimulationSpec& spec, Simulation<Dim>& sim, DriverState& driver);

// The step and time a checkpoint was taken at (for messages), without restoring it.
struct CheckpointPlace {
  long step = 0;
  double time = 0.0;
};
CheckpointPlace checkpoint_place(const io::CheckpointImage& image);

// DIR/checkpoints: written atomically, the newest `keep` kept. A run on several processes
// (docs/parallel.md): process R of N keeps its own in DIR/checkpoints/pR, and process 0 writes
// DIR/checkpoints/manifest.json once every process's file of a step is complete.
class CheckpointFolder {
 public:
  explicit CheckpointFolder(const std::filesystem::path& run_directory, int keep = 2, int rank = 0,
                            int processes = 1);

  const std::filesystem::path& path() const { return folder_; }
  // Writes checkpoint_STEP.bin (creating the folder), then removes all but the newest `keep`.
  std::filesystem::path write(io::CheckpointImage& image, long step) const;
  // A fresh run (not --restart) in a folder that holds another run's checkpoints: they belong to
  // the history.csv and run.pvd this run now overwrites, so they can no longer be continued in
  // place, and left there they would compete with this run's own (the newest two by step are
  // kept). They are moved, not deleted, to DIR/checkpoints.previous (replacing an older set
  // aside there, so that disk use stays bounded); returns how many, 0 when there were none.
  int set_aside_previous_run() const;
  std::filesystem::path previous_path() const;
  // checkpoint_*.bin, newest (highest step) first.
  std::vector<std::filesystem::path> files() const;

  struct Loaded {
    std::filesystem::path file;
    io::CheckpointImage image;
  };
  // The newest file that parses (magic, version, checksum); each one skipped is described in
  // *skipped. Empty when there is none.
  std::optional<Loaded> newest_readable(std::vector<std::string>* skipped = nullptr) const;
  // This folder's readable checkpoint of `step`, if any.
  std::optional<Loaded> readable_at(long step) const;

  // Several processes: the manifest of the newest complete set (process 0, after every process
  // wrote its file of `step`), and a check before a restart that the folder's checkpoints were
  // written by as many processes as this run has (throws std::runtime_error saying how to run).
  void write_manifest(long step, double time) const;
  void check_process_count() const;
  // The manifest's process count and step (0 and -1 without a manifest).
  int written_processes() const;
  long manifest_step() const;
  // A restart on another number of processes (a solver that takes it: PD): the pieces of `step`
  // written by `written` processes that this process takes, p = rank, rank + processes, ...;
  // std::nullopt when one of them does not read whole.
  std::optional<std::vector<Loaded>> pieces_of(long step, int written, int rank) const;

 private:
  std::filesystem::path run_directory_;
  std::filesystem::path folder_;
  int keep_;
  int processes_ = 1;
};

// Removes the temporaries of atomic writes that a kill interrupted (".NAME.tmp.PID.N", see
// io/atomic_file.cpp) from `folder`; they are never complete files. Returns how many.
int remove_interrupted_writes(const std::filesystem::path& folder);

}  // namespace tribo::app
