#pragma once
// The output folder of a run (DESIGN.md): frames, history.csv and run.pvd, written at output times.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/io/atomic_file.hpp"
#include "tribo/io/deck_writer.hpp"
#include "tribo/io/history.hpp"
#include "tribo/io/pvd_writer.hpp"
#include "tribo/io/vtk_writer.hpp"

namespace tribo::app {

// Writes frames, history and the PVD at output times. On a restart the history and the PVD are
// cut back to the checkpoint's time and frame numbering goes on from the checkpoint's count, so
// the frames redone overwrite those the interrupted run wrote past it.
template <int Dim>
class OutputFolder {
 public:
  // rank, processes: this process among those of the run (0 of 1 on one process).
  OutputFolder(const SimulationSpec& spec, const std::filesystem::path& dir, bool frames, std::optional<double> resume_at,
               int frame, int rank = 0, int processes = 1)
      : spec_(spec),
        dir_(dir),
        frames_(frames),
        // Process 0 alone cuts the history and the PVD back on a restart (the others write neither).
        pvd_(resume_at && rank == 0 ? io::PvdWriter::reload(dir / "run.pvd", *resume_at) : io::PvdWriter(dir / "run.pvd")),
        recorder_(spec.output.history, spec),
        csv_(resume_at && rank == 0 ? io::HistoryCsv::reload(dir / "history.csv", recorder_.columns(), *resume_at)
                       : io::HistoryCsv(dir / "history.csv", recorder_.columns())),
        frame_(frame),
        rank_(rank),
        processes_(processes) {
    if (rank_ == 0) {
      std::filesystem::create_directories(dir / "frames");
      io::write_file_atomically(dir / "deck.yaml", io::write_deck(spec));
    }
    for (const MaterialSpec& m : spec.materials) material_names_.push_back(m.name);
  }

  // Collective on several processes (the history's sums): every process calls it at the same
  // steps. Each writes its piece of the frame; process 0 the history row, the piece index and the
  // PVD entry (docs/parallel.md).
  void write(const Simulation<Dim>& sim) {
    recorder_.sample(sim, row_);
    last_time_ = row_.empty() ? last_time_ : row_[0];
    if (rank_ == 0) csv_.append(row_);
    if (!frames_) return;
    const std::string stem = fmt::format("frame_{:06d}", frame_);
    if (processes_ > 1) {
      std::vector<std::string> pieces;
      for (int r = 0; r < processes_; ++r) pieces.push_back(fmt::format("{}_p{}.vtu", stem, r));
      io::write_particle_frame<Dim>(dir_ / "frames" / pieces[static_cast<std::size_t>(rank_)], sim.particles(),
                                    spec_.output.fields, material_names_);
      // surfaces() is collective (PD gathers its pairs in contact on process 0; every process
      // holds the whole of every MPM crack): every process asks, process 0 writes them.
      const std::vector<SurfaceMesh> meshes = sim.surfaces();
      if (rank_ == 0) {
        io::write_particle_frame_index<Dim>(dir_ / "frames" / (stem + ".pvtu"), pieces, spec_.output.fields);
        pvd_.add(sim.time(), "frames/" + stem + ".pvtu", 0);
        write_surfaces(sim.time(), meshes);
      }
      ++frame_;
      return;
    }
    io::write_particle_frame<Dim>(dir_ / "frames" / (stem + ".vtu"), sim.particles(), spec_.output.fields,
                                  material_names_);
    pvd_.add(sim.time(), "frames/" + stem + ".vtu", 0);
    write_surfaces(sim.time(), sim.surfaces());
    ++frame_;
  }
  int frames() const { return frame_; }

  // The frame's surface meshes (cracks), parts 1, 2, ... of its PVD entry.
  void write_surfaces(double time, const std::vector<SurfaceMesh>& meshes) {
    int part = 1;
    for (const SurfaceMesh& mesh : meshes) {
      const std::string name = fmt::format("{}_{:06d}.vtu", mesh.name, frame_);
      io::write_surface_mesh(dir_ / "frames" / name, mesh);
      pvd_.add(time, "frames/" + name, part++);
    }
  }
  // The history rows so far made durable, with the checkpoint that covers them.
  void sync() {
    if (rank_ == 0) csv_.sync();
  }
  // Time of the last history row (NaN when none), the same on every process.
  double last_time() const {
    if (!std::isnan(last_time_)) return last_time_;
    return csv_.last_row().empty() ? std::numeric_limits<double>::quiet_NaN() : csv_.last_row()[0];
  }

 private:
  const SimulationSpec& spec_;
  std::filesystem::path dir_;
  bool frames_;
  io::PvdWriter pvd_;
  io::HistoryRecorder<Dim> recorder_;
  io::HistoryCsv csv_;
  std::vector<double> row_;
  std::vector<std::string> material_names_;
  int frame_ = 0;
  int rank_ = 0;
  int processes_ = 1;
  double last_time_ = std::numeric_limits<double>::quiet_NaN();  // of the rows this run wrote
};

}  // namespace tribo::app
