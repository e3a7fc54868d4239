#pragma once
// ParaView time series (.pvd): a VTKFile of type "Collection" listing one DataSet per frame and
// part. Rewritten atomically after every frame, so a run killed at any moment leaves a valid .pvd
// that lists exactly the frames written so far.
#include <filesystem>
#include <string>
#include <vector>

namespace tribo::io {

struct PvdEntry {
  double time = 0.0;  // s
  std::string file;   // relative to the .pvd's folder, e.g. "frames/frame_000012.vtu"
  int part = 0;       // 0 = particles; 1, 2, ... = surface meshes of the same frame
};

class PvdWriter {
 public:
  // Starts an empty collection; nothing is written until the first add().
  explicit PvdWriter(std::filesystem::path pvd_file);

  // For restarts: the entries of an existing .pvd with time <= up_to_time (later frames belong to
  // the part of the run that is being redone). A missing file gives an empty collection. When
  // entries were dropped the file is rewritten at once. Throws std::runtime_error for a file that
  // is not a .pvd this writer could have written.
  static PvdWriter reload(std::filesystem::path pvd_file, double up_to_time);

  // Appends one entry and rewrites the .pvd (write_file_atomically).
  void add(double time, const std::string& relative_file, int part = 0);

  const std::vector<PvdEntry>& entries() const { return entries_; }
  const std::filesystem::path& file() const { return file_; }

 private:
  void write() const;

  std::filesystem::path file_;
  std::vector<PvdEntry> entries_;
};

// The DataSet entries of a .pvd, in file order. Throws std::runtime_error naming the file when it
// cannot be read or a DataSet lacks a valid timestep or file attribute.
std::vector<PvdEntry> read_pvd(const std::filesystem::path& pvd_file);

}  // namespace tribo::io
