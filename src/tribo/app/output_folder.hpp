#pragma once
// The output folder of a run (DESIGN.md): frames, history.csv and run.pvd, written at output times.
#include <fmt/format.h>

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
  OutputFolder(const SimulationSpec& spec, const std::filesystem::path& dir, bool frames, std::optional<double> resume_at,
               int frame)
      : spec_(spec),
        dir_(dir),
        frames_(frames),
        pvd_(resume_at ? io::PvdWriter::reload(dir / "run.pvd", *resume_at) : io::PvdWriter(dir / "run.pvd")),
        recorder_(spec.output.history, spec),
        csv_(resume_at ? io::HistoryCsv::reload(dir / "history.csv", recorder_.columns(), *resume_at)
                       : io::HistoryCsv(dir / "history.csv", recorder_.columns())),
        frame_(frame) {
    std::filesystem::create_directories(dir / "frames");
    io::write_file_atomically(dir / "deck.yaml", io::write_deck(spec));
    for (const MaterialSpec& m : spec.materials) material_names_.push_back(m.name);
  }

  void write(const Simulation<Dim>& sim) {
    recorder_.sample(sim, row_);
    csv_.append(row_);
    if (!frames_) return;
    const std::string stem = fmt::format("frame_{:06d}", frame_);
    io::write_particle_frame<Dim>(dir_ / "frames" / (stem + ".vtu"), sim.particles(), spec_.output.fields,
                                  material_names_);
    pvd_.add(sim.time(), "frames/" + stem + ".vtu", 0);
    int part = 1;
    for (const SurfaceMesh& mesh : sim.surfaces()) {
      const std::string name = fmt::format("{}_{:06d}.vtu", mesh.name, frame_);
      io::write_surface_mesh(dir_ / "frames" / name, mesh);
      pvd_.add(sim.time(), "frames/" + name, part++);
    }
    ++frame_;
  }
  int frames() const { return frame_; }
  // The history rows so far made durable, with the checkpoint that covers them.
  void sync() { csv_.sync(); }
  // Time of the last history row (NaN when none).
  double last_time() const {
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
};

}  // namespace tribo::app
