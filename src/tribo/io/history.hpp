#pragma once
// Time histories (DIR/history.csv): which columns a deck's output.history asks for, how each is
// sampled from a running Simulation, and the CSV file that holds the rows.
// Column names are the contract of DESIGN.md "Output folder": `time`, then QUANTITY.NAME.COMPONENT.
#include <filesystem>
#include <string>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/core/types.hpp"

namespace tribo::io {

// Per history entry, in deck order (components x, y and, in 3D, z):
//   centroid        centroid.BODY.x ...          mass-weighted mean position of BODY's particles
//   velocity        velocity.BODY.x ...          mass-weighted mean velocity (momentum / mass)
//   contact-force   contact-force.A.B.x ...      Simulation::contact_force on A by B; A and B are
//                                                material names, or body names (-> their material)
//   energy          energy.kinetic, energy.strain, energy.potential, energy.frictional,
//                   energy.total                 Simulation::energy()
//   crack-force     crack-force.C.x ...          Simulation::crack_force(C): on the material above
//                                                crack C (left of its polyline) from the material below
//   momentum        momentum.x ...               sum m v over particles of non-rigid materials
//   angular-momentum angular-momentum.z (2D) / .x .y .z (3D): sum x cross m v about the origin,
//                                                non-rigid materials only
// A body with no particles has a NaN centroid and velocity.
template <int Dim>
class HistoryRecorder {
 public:
  // Resolves every name once; throws tribo::DeckError with key output.history[i] for an unknown
  // body or material.
  HistoryRecorder(const std::vector<HistorySpec>& history, const SimulationSpec& spec);

  const std::vector<std::string>& columns() const { return columns_; }

  // One row, aligned with columns(); row[0] = sim.time().
  std::vector<double> sample(const Simulation<Dim>& sim) const;
  // Same, into `row` (resized to columns().size(); no allocation once it has that capacity).
  void sample(const Simulation<Dim>& sim, std::vector<double>& row) const;

 private:
  enum class Kind { Centroid, Velocity, ContactForce, Energy, Momentum, AngularMomentum, CrackForce };
  struct Entry {
    Kind kind;
    int body = -1;                         // centroid, velocity
    int material_a = -1, material_b = -1;  // contact-force
    int crack = -1;                        // crack-force
  };

  std::vector<std::string> columns_;
  std::vector<Entry> entries_;
  std::vector<char> rigid_material_;  // per material index: excluded from (angular) momentum
  bool needs_body_sums_ = false;
  bool needs_momentum_ = false;
  // Per-body sums of one sample, sized at construction so that sampling does not allocate.
  // mutable: scratch space, not state; sample() is logically const.
  mutable std::vector<double> body_mass_;
  mutable std::vector<Vec<Dim>> body_moment_;    // sum m x
  mutable std::vector<Vec<Dim>> body_momentum_;  // sum m v
  mutable std::vector<double> reduced_;         // the sums above, packed for the processes' sum
};

// history.csv: a header row, then one row per sample, every value written with the shortest
// decimal form that reads back to the same double (fmt "{}"; nan/inf as "nan", "inf", "-inf").
// Complete or absent, without rewriting the file at each row (issue 17: that cost grew with the
// square of the rows):
//   - the first append() creates the file atomically (temporary + rename) with the header and
//     the first row, so the name never shows an empty or header-less file;
//   - every later row is appended with one write(2) of the whole line (O_APPEND), so a reader or a
//     kill -9 sees whole rows; a short write (disk full) is cut back off with ftruncate and thrown;
//   - sync() (called when a checkpoint is written) fsyncs the rows so far;
//   - reload() (restart) cuts the file back, with one truncate(2), to the end of the last row at
//     or before the checkpoint's time, dropping a trailing line without its newline if a crash
//     left one. Cost per row is O(row), independent of the rows before it.
class HistoryCsv {
 public:
  // Starts with no rows; nothing is written until the first append().
  HistoryCsv(std::filesystem::path file, std::vector<std::string> columns);
  HistoryCsv(HistoryCsv&& other) noexcept;
  HistoryCsv& operator=(HistoryCsv&& other) noexcept;
  HistoryCsv(const HistoryCsv&) = delete;
  HistoryCsv& operator=(const HistoryCsv&) = delete;
  ~HistoryCsv();

  // For restarts: keeps the rows of an existing file with time (column 0) <= up_to_time and
  // appends after them. A missing file gives no rows. Throws std::runtime_error when the file's
  // header differs from `columns` (the deck's history changed) or it cannot be parsed.
  static HistoryCsv reload(std::filesystem::path file, std::vector<std::string> columns,
                           double up_to_time);

  // Throws std::invalid_argument when row.size() != columns().size(), std::runtime_error when
  // the file cannot be written (the file then ends at the previous row).
  void append(const std::vector<double>& row);
  // Makes the rows written so far durable (fsync); no-op before the first row.
  void sync();

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t row_count() const { return row_count_; }
  // The last row written or kept (empty when none).
  const std::vector<double>& last_row() const { return last_row_; }
  const std::filesystem::path& file() const { return file_; }

 private:
  void format_row(const std::vector<double>& row);  // into line_
  void open_for_append();

  std::filesystem::path file_;
  std::vector<std::string> columns_;
  std::size_t row_count_ = 0;
  std::vector<double> last_row_;
  std::string line_;       // one formatted row, reused so that an append does not allocate
  int fd_ = -1;            // O_APPEND descriptor once the file exists
  long long bytes_ = 0;    // the file's size after the last whole row
};

// Reads a history CSV: the rows, and the header into *columns when columns is not null. Throws
// std::runtime_error naming the file and line for a row of the wrong length or a value that is
// not a number.
std::vector<std::vector<double>> read_history_csv(const std::filesystem::path& file,
                                                  std::vector<std::string>* columns = nullptr);

}  // namespace tribo::io
