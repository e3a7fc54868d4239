#include "tribo/app/checkpoint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <limits>
#include <regex>
#include <stdexcept>

#include "tribo/app/run_summary.hpp"
#include "tribo/io/atomic_file.hpp"
#include "tribo/io/deck_writer.hpp"

namespace tribo::app {

namespace fs = std::filesystem;

namespace {

const std::regex& checkpoint_name() {
  static const std::regex name(R"(checkpoint_([0-9]+)\.bin)");
  return name;
}

}  // namespace

std::string deck_fingerprint(const SimulationSpec& spec) {
  SimulationSpec physics = spec;
  physics.title.clear();
  physics.source_file.clear();
  physics.time.end = 0.0;
  physics.output = OutputSpec{};
  return fmt::format("{:016x}", io::fnv1a64(io::write_deck(physics)));
}

namespace {

// Adds up what the entries will take, without copying them.
class EntrySizer final : public StateWriter {
 public:
  void write_bytes(std::string_view name, const void*, std::size_t size) override {
    total += io::CheckpointImage::entry_bytes(name, size);
  }
  std::size_t total = 0;
};

template <int Dim>
void write_entries(StateWriter& out, const std::string& fingerprint, const SimulationSpec& spec,
                   const Simulation<Dim>& sim, const DriverState& driver) {
  out.write_bytes("run.deck_fingerprint", fingerprint.data(), fingerprint.size());
  out.write_value("run.method", static_cast<int>(spec.method));
  out.write_value("run.dimension", Dim);
  out.write_value("run.particles", total_particles(sim));
  out.write_value("run.step", sim.step_count());
  out.write_value("run.time", sim.time());
  out.write_value("run.next_output", driver.next_output);
  out.write_value("run.next_checkpoint", driver.next_checkpoint);
  out.write_value("run.frames", driver.frames);
  out.write_value("run.energy0", driver.energy0);
  out.write_value("run.momentum0", driver.momentum0);
  out.write_value("run.external_impulse", driver.external_impulse);
  out.write_value("run.impulse_flux", driver.impulse_flux);
  out.write_value("run.momentum_abs0", driver.momentum_abs0);
  sim.save_state(out);
}

}  // namespace

template <int Dim>
void fill_checkpoint(io::CheckpointImage& image, const SimulationSpec& spec, const Simulation<Dim>& sim,
                     const DriverState& driver, const std::string& fingerprint) {
  EntrySizer sizer;
  write_entries(sizer, fingerprint, spec, sim, driver);
  image.reset();
  image.reserve(sizer.total);
  write_entries(image, fingerprint, spec, sim, driver);
}

template <int Dim>
io::CheckpointImage make_checkpoint(const SimulationSpec& spec, const Simulation<Dim>& sim,
                                    const DriverState& driver) {
  io::CheckpointImage image;
  fill_checkpoint(image, spec, sim, driver, deck_fingerprint(spec));
  return image;
}

template <int Dim>
void restore_driver_state(const io::CheckpointImage& image, const SimulationSpec& spec, const Simulation<Dim>& sim,
                          DriverState& driver) {
  const auto mismatch = [&](const std::string& what) {
    return std::runtime_error(fmt::format(
        "the checkpoint was written for another deck ({}); run from the start without --restart, or "
        "restore the deck it was written with",
        what));
  };
  int method = -1, dimension = 0;
  long particles = 0;
  image.read_value("run.method", method);
  image.read_value("run.dimension", dimension);
  image.read_value("run.particles", particles);
  if (method != static_cast<int>(spec.method)) throw mismatch("another method");
  if (dimension != Dim) throw mismatch(fmt::format("dimension {}, the deck's is {}", dimension, Dim));
  if (particles != total_particles(sim))
    throw mismatch(fmt::format("{} particles, the deck makes {}", particles, total_particles(sim)));
  if (image.read_string("run.deck_fingerprint") != deck_fingerprint(spec))
    throw mismatch("materials, bodies, time step or solver options differ");
  image.read_value("run.next_output", driver.next_output);
  image.read_value("run.next_checkpoint", driver.next_checkpoint);
  image.read_value("run.frames", driver.frames);
  image.read_value("run.energy0", driver.energy0);
  image.read_value("run.momentum0", driver.momentum0);
  try {  // absent from checkpoints written before the momentum balance: the balance is unknown
    image.read_value("run.external_impulse", driver.external_impulse);
    image.read_value("run.impulse_flux", driver.impulse_flux);
    image.read_value("run.momentum_abs0", driver.momentum_abs0);
  } catch (const std::runtime_error&) {
    driver.external_impulse = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
  }
}

template <int Dim>
void restore_checkpoint(const io::CheckpointImage& image, const SimulationSpec& spec, Simulation<Dim>& sim,
                        DriverState& driver) {
  restore_driver_state(image, spec, sim, driver);
  sim.restore_state(image);
}

template <int Dim>
void restore_checkpoint_pieces(const io::CheckpointImage& first, const std::vector<const io::CheckpointImage*>& pieces,
                               const SimulationSpec& spec, Simulation<Dim>& sim, DriverState& driver) {
  restore_driver_state(first, spec, sim, driver);
  std::vector<const StateReader*> readers(pieces.begin(), pieces.end());
  sim.restore_pieces(readers, first);
}

CheckpointPlace checkpoint_place(const io::CheckpointImage& image) {
  CheckpointPlace place;
  image.read_value("run.step", place.step);
  image.read_value("run.time", place.time);
  return place;
}

CheckpointFolder::CheckpointFolder(const fs::path& run_directory, int keep, int rank, int processes)
    : run_directory_(run_directory),
      folder_(processes > 1 ? run_directory / "checkpoints" / fmt::format("p{}", rank) : run_directory / "checkpoints"),
      keep_(std::max(keep, 1)),
      processes_(processes) {}

namespace {

fs::path manifest_path(const fs::path& run_directory) { return run_directory / "checkpoints" / "manifest.json"; }

// The process count a manifest names, 0 when there is none or it does not parse.
int manifest_processes(const fs::path& run_directory) {
  std::ifstream in(manifest_path(run_directory));
  if (!in) return 0;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::regex processes(R"re("processes"\s*:\s*([0-9]+))re");
  std::smatch match;
  if (!std::regex_search(text, match, processes)) return 0;
  return std::stoi(match[1].str());
}

}  // namespace

void CheckpointFolder::write_manifest(long step, double time) const {
  std::string pieces;
  for (int r = 0; r < processes_; ++r)
    pieces += fmt::format("{}\"p{}/checkpoint_{:09d}.bin\"", r > 0 ? ", " : "", r, step);
  io::write_file_atomically(manifest_path(run_directory_),
                            fmt::format("{{\n  \"processes\": {},\n  \"step\": {},\n  \"time\": {:.17g},\n  "
                                        "\"pieces\": [{}]\n}}\n",
                                        processes_, step, time, pieces));
}

int CheckpointFolder::written_processes() const { return manifest_processes(run_directory_); }

long CheckpointFolder::manifest_step() const {
  std::ifstream in(manifest_path(run_directory_));
  if (!in) return -1;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::regex step(R"re("step"\s*:\s*([0-9]+))re");
  std::smatch match;
  if (!std::regex_search(text, match, step)) return -1;
  return std::stol(match[1].str());
}

std::optional<std::vector<CheckpointFolder::Loaded>> CheckpointFolder::pieces_of(long step, int written,
                                                                                 int rank) const {
  std::vector<Loaded> taken;
  for (int p = rank; p < written; p += std::max(processes_, 1)) {
    auto piece = CheckpointFolder(run_directory_, keep_, p, written).readable_at(step);
    if (!piece) return std::nullopt;
    taken.push_back(std::move(*piece));
  }
  return taken;
}

void CheckpointFolder::check_process_count() const {
  const int written = manifest_processes(run_directory_);
  const CheckpointFolder single(run_directory_);
  const bool one_process_files = !single.files().empty();
  if (processes_ > 1 && written == 0 && one_process_files)
    throw std::runtime_error(fmt::format(
        "--restart {}: its checkpoints were written by one process; continue it on one (without mpirun)",
        run_directory_.string()));
  if (written > 0 && written != processes_ && !(processes_ == 1 && one_process_files))
    throw std::runtime_error(fmt::format(
        "--restart {}: its checkpoints were written by {} processes; continue it on as many (mpirun -np {}), "
        "not on {}",
        run_directory_.string(), written, written, processes_));
}

fs::path CheckpointFolder::write(io::CheckpointImage& image, long step) const {
  fs::create_directories(folder_);
  const fs::path file = folder_ / fmt::format("checkpoint_{:09d}.bin", step);
  io::write_checkpoint(file, image);
  // Older ones go only after the new one is complete and renamed into place.
  // Only this run's own files are pruned (a fresh run sets an older run's aside first, see
  // set_aside_previous_run), and never the one just written, whatever the numbers of the others.
  const std::vector<fs::path> all = files();
  std::size_t kept = 0;
  for (const fs::path& other : all) {
    if (other == file || kept < static_cast<std::size_t>(keep_) - 1) {
      if (other != file) ++kept;
      continue;
    }
    std::error_code ignored;
    fs::remove(other, ignored);
  }
  return file;
}

fs::path CheckpointFolder::previous_path() const {
  return folder_.parent_path() / (folder_.filename().string() + ".previous");
}

int CheckpointFolder::set_aside_previous_run() const {
  const std::size_t count = files().size();
  if (count == 0) return 0;
  const fs::path aside = previous_path();
  fs::remove_all(aside);
  fs::rename(folder_, aside);
  return static_cast<int>(count);
}

std::vector<fs::path> CheckpointFolder::files() const {
  std::vector<std::pair<long, fs::path>> found;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder_, error)) {
    std::smatch match;
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !std::regex_match(name, match, checkpoint_name())) continue;
    // A step that does not fit a long (a stray name such as checkpoint_99999999999999999999.bin)
    // is no checkpoint of Tribo's: ignored, as any other foreign file.
    const std::string digits = match[1].str();
    long step = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), step);
    if (error == std::errc() && end == digits.data() + digits.size()) found.emplace_back(step, entry.path());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<fs::path> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

std::optional<CheckpointFolder::Loaded> CheckpointFolder::newest_readable(std::vector<std::string>* skipped) const {
  for (const fs::path& file : files()) {
    try {
      return Loaded{file, io::read_checkpoint(file)};
    } catch (const std::exception& e) {
      if (skipped) skipped->push_back(e.what());
    }
  }
  return std::nullopt;
}

std::optional<CheckpointFolder::Loaded> CheckpointFolder::readable_at(long step) const {
  const fs::path file = folder_ / fmt::format("checkpoint_{:09d}.bin", step);
  try {
    return Loaded{file, io::read_checkpoint(file)};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

int remove_interrupted_writes(const fs::path& folder) {
  static const std::regex temporary(R"(\..+\.tmp\.[0-9]+\.[0-9]+)");
  int removed = 0;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, temporary)) {
      std::error_code ignored;
      if (fs::remove(entry.path(), ignored)) ++removed;
    }
  }
  return removed;
}

template void fill_checkpoint<2>(io::CheckpointImage&, const SimulationSpec&, const Simulation<2>&,
                                 const DriverState&, const std::string&);
template void fill_checkpoint<3>(io::CheckpointImage&, const SimulationSpec&, const Simulation<3>&,
                                 const DriverState&, const std::string&);
template io::CheckpointImage make_checkpoint<2>(const SimulationSpec&, const Simulation<2>&, const DriverState&);
template io::CheckpointImage make_checkpoint<3>(const SimulationSpec&, const Simulation<3>&, const DriverState&);
template void restore_checkpoint<2>(const io::CheckpointImage&, const SimulationSpec&, Simulation<2>&,
                                    DriverState&);
template void restore_checkpoint<3>(const io::CheckpointImage&, const SimulationSpec&, Simulation<3>&,
                                    DriverState&);
template void restore_checkpoint_pieces<2>(const io::CheckpointImage&, const std::vector<const io::CheckpointImage*>&,
                                           const SimulationSpec&, Simulation<2>&, DriverState&);
template void restore_checkpoint_pieces<3>(const io::CheckpointImage&, const std::vector<const io::CheckpointImage*>&,
                                           const SimulationSpec&, Simulation<3>&, DriverState&);

}  // namespace tribo::app
