// Limits and estimates that need the whole deck (deck_limits.hpp). The particle and point counts
// repeat the fill rules of mpm/particle_filling.cpp and pd/lattice.cpp (io does not link the
// solvers): the sub-cells the shape overlaps (MPM, `particle_fill: clipped`) or whose centres lie
// inside it (MPM `centers`, and PD's lattice cells).
#include "tribo/io/deck_limits.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "tribo/core/error.hpp"

namespace tribo::io {

namespace {

// A body whose bounding box holds more candidate points than this is sampled on a coarser lattice
// (the same centres, every s-th in each direction): at most ~5e5 shape tests per body, a few
// milliseconds, so that `tribo check` refuses a deck of 1e10 particles at once. Counts below it
// are exact, so "no particle at all" is decided exactly (small bodies are the ones that get none).
constexpr double kExactCandidates = 5.0e5;

// Bytes per item, measured with /usr/bin/time -v (peak RSS) on `tribo run` of short runs (frames,
// history, the in-memory snapshot and the final checkpoint included; 2 OpenMP threads), at two
// sizes each so that the per-particle and the per-node parts separate (docs/reliability.md has
// the table and the check against three other decks):
//   MPM 2D (oblique disks, 2 contact fields, 63k-251k particles, 65k-1.0M nodes): 1180 B per
//     particle, 515 B per node with 3 field entries (172 B each), 75 B per node with one field;
//   MPM 3D (two spheres on a rigid base, 4 field entries, 58k-239k particles, 133k-531k nodes):
//     1140 B per particle, 1046 B per node (262 B per entry);
//   PD 3D (LPS cube on a rigid plate, 80k-275k points, horizon 3.015 and 4.015 spacings): 750 B
//     per point and 57 B per bond (bonds of deformable points only; rigid points have none).
constexpr double kBaseBytes = 8.0 * 1024 * 1024;  // program, libraries, allocator
constexpr double kMpmParticleBytes[2] = {1180.0, 1140.0};
constexpr double kMpmEntryBytesOneField[2] = {75.0, 115.0};  // 3D: 2D scaled as the contact entries
constexpr double kMpmEntryBytes[2] = {172.0, 262.0};
constexpr double kPdPointBytes = 750.0;
constexpr double kPdBondBytes = 57.0;

// Limits on intervals and step counts: a bound on every loop of the run (the driver advances the
// next output time arithmetically, but a million frames or checkpoints is I/O, not a time series,
// and 1e12 steps is years of computing).
constexpr double kMaxOutputs = 1.0e6;
constexpr double kMaxSteps = 1.0e12;
constexpr std::size_t kMaxCracks = 32;  // mpm/crack_fields.hpp: the node masks are 64 bits

// Candidate centres along one axis: first index and count.
struct Axis {
  double first = 0.0;
  double count = 0.0;
};

// Counts the centres origin + (k + 0.5) * step inside `shape` for k in the box `axes`; exact up to
// kExactCandidates candidates, else sampled every s-th centre per direction and scaled.
// clipped: count the cells the shape overlaps (cell_overlap, mpm.particle_fill: clipped) instead of
// the centres inside it.
template <int Dim>
double count_inside(const Shape& shape, const Vec3& origin, const Vec3& step, const std::array<Axis, 3>& axes,
                    bool* exact, bool clipped = false) {
  double candidates = 1.0;
  for (int d = 0; d < Dim; ++d) candidates *= axes[d].count;
  if (!(candidates > 0.0)) {
    *exact = true;
    return 0.0;
  }
  if (!(candidates <= 1.0e15)) {
    // Far beyond any machine: the fraction of the bounding box the shape fills is close enough.
    *exact = false;
    double box = 1.0;
    for (int d = 0; d < Dim; ++d) box *= axes[d].count * step[d];
    const double fraction = box > 0.0 ? std::clamp(shape.measure() / box, 0.0, 1.0) : 1.0;
    return candidates * (std::isfinite(fraction) ? fraction : 1.0);
  }
  long stride = 1;
  if (candidates > kExactCandidates)
    stride = static_cast<long>(std::ceil(std::pow(candidates / kExactCandidates, 1.0 / Dim)));
  *exact = stride == 1;
  std::array<long, 3> n{1, 1, 1};
  for (int d = 0; d < Dim; ++d)
    n[d] = std::max<long>(1, static_cast<long>((axes[d].count - 1) / static_cast<double>(stride)) + 1);
  const long offset = stride / 2;  // sample the middle of each block of stride^Dim centres
  double hits = 0.0, samples = 0.0;
  Vec3 x = origin;
  for (long i = 0; i < n[0]; ++i)
    for (long j = 0; j < n[1]; ++j)
      for (long k = 0; k < n[2]; ++k) {
        const long index[3] = {i, j, k};
        for (int d = 0; d < Dim; ++d) {
          const double cell = axes[d].first + static_cast<double>(std::min<long>(
                                                  index[d] * stride + (stride > 1 ? offset : 0),
                                                  static_cast<long>(axes[d].count) - 1));
          x[d] = origin[d] + (cell + 0.5) * step[d];
        }
        samples += 1.0;
        if (clipped ? cell_overlaps(shape, x, step) : shape.contains(x)) hits += 1.0;
      }
  return stride == 1 ? hits : hits / samples * candidates;
}

// A point cloud gives its particles (or PD points) one per line of its file, whatever the
// lattice: the count is exact. -1 for every other shape, which is sampled below.
double point_cloud_size(const Shape& shape, bool* exact) {
  if (shape.kind != Shape::Kind::Points || !shape.cloud) return -1.0;
  *exact = true;
  return static_cast<double>(shape.cloud->size());
}

template <int Dim>
double count_mpm_body(const SimulationSpec& spec, const BodySpec& body, bool* exact) {
  if (const double n = point_cloud_size(body.geometry, exact); n >= 0.0) return n;
  // As mpm::fill_bodies: sub-cells of cell / particles_per_cell from the grid's origin.
  const int ppc = spec.mpm.particles_per_cell;
  Vec3 sub = Vec3::Ones();
  for (int d = 0; d < Dim; ++d) sub[d] = spec.mpm.cell[d] / ppc;
  Vec3 lo, hi;
  body.geometry.bounds(lo, hi);
  std::array<Axis, 3> axes{};
  for (int d = 0; d < Dim; ++d) {
    const double first = std::floor((lo[d] - spec.mpm.grid_min[d]) / sub[d]);
    const double last = std::ceil((hi[d] - spec.mpm.grid_min[d]) / sub[d]);
    axes[d] = Axis{first, std::max(last - first, 1.0)};
  }
  Vec3 origin = Vec3::Zero();
  for (int d = 0; d < Dim; ++d) origin[d] = spec.mpm.grid_min[d];
  return count_inside<Dim>(body.geometry, origin, sub, axes, exact,
                           spec.mpm.particle_fill == ParticleFill::Clipped);
}

template <int Dim>
double count_pd_body(const SimulationSpec& spec, const BodySpec& body, bool* exact) {
  if (const double n = point_cloud_size(body.geometry, exact); n >= 0.0) return n;
  // As pd::fill_bodies: lattice cells of the spacing from the body's lower bound.
  const double h = spec.pd.spacing;
  Vec3 lo, hi;
  body.geometry.bounds(lo, hi);
  std::array<Axis, 3> axes{};
  for (int d = 0; d < Dim; ++d) axes[d] = Axis{0.0, std::max(0.0, std::ceil((hi[d] - lo[d]) / h - 1e-9))};
  return count_inside<Dim>(body.geometry, lo, Vec3(h, h, h), axes, exact);
}

// Lattice offsets within the horizon (the family of an interior point): counted for horizons up
// to 30 spacings, else the disk's or ball's area or volume in spacings.
double family_size(double horizon, int dimension) {
  if (horizon > 30.0) return dimension == 2 ? M_PI * horizon * horizon : 4.0 / 3.0 * M_PI * std::pow(horizon, 3);
  const int r = static_cast<int>(std::ceil(horizon));
  const double limit = horizon * horizon;
  long count = 0;
  for (int i = -r; i <= r; ++i)
    for (int j = -r; j <= r; ++j)
      for (int k = (dimension == 3 ? -r : 0); k <= (dimension == 3 ? r : 0); ++k)
        if ((i != 0 || j != 0 || k != 0) && i * i + j * j + k * k <= limit) ++count;
  return static_cast<double>(count);
}

// MPM field entries per node (mpm_simulation.cpp, field_layout): one shared field, one per
// material in a contact pair or rigid; four crack fields of those with cracks.
int mpm_field_entries(const SimulationSpec& spec, int* fields_out) {
  std::vector<bool> own(spec.materials.size(), false);
  for (const ContactPairSpec& pair : spec.mpm.contact.pairs)
    for (int m : pair.material_indices)
      if (m >= 0 && m < static_cast<int>(own.size())) own[m] = true;
  for (std::size_t m = 0; m < spec.materials.size(); ++m)
    if (spec.materials[m].rigid()) own[m] = true;
  int fields = 1;
  for (bool o : own) fields += o ? 1 : 0;
  *fields_out = fields;
  return fields * (spec.mpm.cracks.empty() ? 1 : 4);
}

template <int Dim>
ResourceEstimate estimate(const SimulationSpec& spec) {
  ResourceEstimate e;
  e.base_bytes = kBaseBytes;
  for (const BodySpec& body : spec.bodies) {
    bool exact = true;
    const double n = spec.method == Method::Mpm ? count_mpm_body<Dim>(spec, body, &exact)
                                                : count_pd_body<Dim>(spec, body, &exact);
    e.body_particles.push_back(n);
    e.body_exact.push_back(exact);
    e.particles += n;
  }
  if (spec.method == Method::Mpm) {
    e.grid_nodes = 1.0;
    for (int d = 0; d < Dim; ++d)
      e.grid_nodes *= std::round((spec.mpm.grid_max[d] - spec.mpm.grid_min[d]) / spec.mpm.cell[d]) + 1.0;
    int fields = 1;
    const int entries = mpm_field_entries(spec, &fields);
    e.bytes_per_particle = kMpmParticleBytes[Dim - 2];
    e.bytes_per_node = entries * (fields > 1 ? kMpmEntryBytes[Dim - 2] : kMpmEntryBytesOneField[Dim - 2]);
  } else {
    const double family = family_size(spec.pd.horizon, Dim);
    for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
      const int m = spec.bodies[b].material_index >= 0 ? spec.bodies[b].material_index
                                                       : spec.material_index(spec.bodies[b].material);
      // Bonds join points of one body: no more than the body's other points per point.
      if (m >= 0 && !spec.materials[m].rigid())
        e.bonds += e.body_particles[b] * std::min(family, std::max(e.body_particles[b] - 1.0, 0.0));
    }
    e.bytes_per_particle = kPdPointBytes;
    e.bytes_per_bond = kPdBondBytes;
  }
  return e;
}

std::string count_text(double n) {
  return n < 1e7 ? fmt::format("{:.0f}", n) : fmt::format("{:.2e}", n);
}

[[noreturn]] void fail_at(const std::optional<DeckNode>& node, const DeckNode& fallback, const std::string& message) {
  (node ? *node : fallback).fail(message);
}

// The wave speed sqrt((lambda + 2 mu) / rho) of a deformable material (m/s), which sets the
// stable step of both methods (MPM: cell / c; PD: of the order of spacing / c).
double wave_speed(const MaterialSpec& m) {
  const double modulus = m.youngs_modulus * (1.0 - m.poisson_ratio) /
                         ((1.0 + m.poisson_ratio) * (1.0 - 2.0 * m.poisson_ratio));
  return std::sqrt(modulus / m.density);
}

}  // namespace

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  if (!std::isfinite(bytes)) return "more than anyone has";
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.3g} {}", bytes, units[u]);
}

std::string ResourceEstimate::describe() const {
  std::string s = fmt::format("about {}: {} {} x {:.0f} B", format_bytes(bytes()), count_text(particles),
                              bytes_per_bond > 0.0 ? "points" : "particles", bytes_per_particle);
  if (grid_nodes > 0.0) s += fmt::format(" + {} grid nodes x {:.0f} B", count_text(grid_nodes), bytes_per_node);
  if (bonds > 0.0) s += fmt::format(" + {} bonds x {:.0f} B", count_text(bonds), bytes_per_bond);
  s += fmt::format(" + {}", format_bytes(base_bytes));
  return s;
}

ResourceEstimate estimate_resources(const SimulationSpec& spec) {
  return spec.dimension == 2 ? estimate<2>(spec) : estimate<3>(spec);
}

std::optional<double> available_memory(std::string* source) {
  if (const char* limit = std::getenv("TRIBO_MEMORY_LIMIT"); limit && *limit) {
    char* end = nullptr;
    errno = 0;
    double value = std::strtod(limit, &end);
    if (errno == 0 && end != limit && value > 0.0 && std::isfinite(value)) {
      const std::string suffix(end);
      const double scale = suffix.empty() || suffix == "B" ? 1.0
                           : suffix == "K" || suffix == "KiB" ? 1024.0
                           : suffix == "M" || suffix == "MiB" ? 1024.0 * 1024
                           : suffix == "G" || suffix == "GiB" ? 1024.0 * 1024 * 1024
                           : suffix == "T" || suffix == "TiB" ? 1024.0 * 1024 * 1024 * 1024
                                                              : 0.0;
      if (scale > 0.0) {
        if (source) *source = "TRIBO_MEMORY_LIMIT";
        return value * scale;
      }
    }
  }
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    double kib = 0.0;
    if (fields >> kib && kib > 0.0) {
      if (source) *source = "MemAvailable in /proc/meminfo";
      return kib * 1024.0;
    }
  }
  return std::nullopt;
}

namespace deck {

void check_limits(const DeckNode& root, const SimulationSpec& spec) {
  const std::optional<DeckNode> time = root.find("time");
  const std::optional<DeckNode> output = root.find("output");
  const double end = spec.time.end;

  // Materials whose wave speed is not a finite positive number: the stable step would be 0 (the
  // run would loop at t = 0) or infinite.
  double fastest = 0.0;
  if (auto materials = root.find("materials"); materials && materials->is_sequence()) {
    const std::vector<DeckNode> items = materials->items();
    for (std::size_t i = 0; i < spec.materials.size() && i < items.size(); ++i) {
      const MaterialSpec& m = spec.materials[i];
      if (m.rigid()) continue;
      const double c = wave_speed(m);
      if (!std::isfinite(c) || !(c > 0.0))
        fail_at(items[i].find("youngs_modulus"), items[i],
                fmt::format("the wave speed sqrt(E (1 - nu) / ((1 + nu) (1 - 2 nu)) / density) of material '{}' "
                            "is {} (youngs_modulus {} Pa, density {} kg/m^3): the stable time step would be {}; "
                            "check the units",
                            m.name, c, m.youngs_modulus, m.density, std::isfinite(c) ? "infinite" : "0"));
      fastest = std::max(fastest, c);
    }
  }

  // The run's step count: a fixed step larger than the span takes none; more than kMaxSteps never
  // ends in practice.
  if (spec.time.dt) {
    const double dt = *spec.time.dt;
    if (dt > end)
      fail_at(time ? time->find("dt") : std::nullopt, root,
              fmt::format("the time step {} s is larger than time.end = {} s: the run would end before its first "
                          "step",
                          dt, end));
    if (end / dt > kMaxSteps)
      fail_at(time ? time->find("dt") : std::nullopt, root,
              fmt::format("{:.3g} steps of {} s to reach time.end = {} s: more than {:.0e}; a run that long "
                          "never ends",
                          end / dt, dt, end, kMaxSteps));
  } else if (fastest > 0.0) {
    double h = spec.method == Method::Mpm ? spec.mpm.cell[0] : spec.pd.spacing;
    if (spec.method == Method::Mpm)
      for (int d = 1; d < spec.dimension; ++d) h = std::min(h, spec.mpm.cell[d]);
    // MPM's step also shrinks with the fastest particle (stable_time_step): the bodies' speeds.
    double vmax = 0.0;
    if (spec.method == Method::Mpm)
      for (const BodySpec& body : spec.bodies) vmax = std::max(vmax, body.velocity.norm());
    const double dt = spec.time.cfl.value_or(0.4) * h / (fastest + vmax);
    if (!(end / dt <= kMaxSteps))
      fail_at(time ? time->find("end") : std::nullopt, root,
              fmt::format("about {:.3g} steps of {:.3g} s (cfl x cell / (wave speed {:.3g} m/s + body speed {:.3g} "
                          "m/s)) to reach time.end = {} s: more than {:.0e}; a run that long never ends",
                          end / dt, dt, fastest, vmax, end, kMaxSteps));
  }

  // Output and checkpoint intervals: each write is a loop turn and a file.
  if (spec.output.every > 0.0 && end / spec.output.every > kMaxOutputs)
    fail_at(output ? output->find("every") : std::nullopt, root,
            fmt::format("{} s between outputs over time.end = {} s would write {:.3g} frames and history rows; "
                        "at most {:.0e} (0 gives 100)",
                        spec.output.every, end, end / spec.output.every, kMaxOutputs));
  if (spec.output.checkpoint_every && end / *spec.output.checkpoint_every > kMaxOutputs)
    fail_at(output ? output->find("checkpoint_every") : std::nullopt, root,
            fmt::format("{} s between checkpoints over time.end = {} s would write {:.3g} checkpoints; at most {:.0e}",
                        *spec.output.checkpoint_every, end, end / *spec.output.checkpoint_every, kMaxOutputs));

  const std::optional<DeckNode> section = root.find(spec.method == Method::Mpm ? "mpm" : "pd");
  if (spec.method == Method::Mpm && spec.mpm.cracks.size() > kMaxCracks) {
    std::optional<DeckNode> at;
    if (auto cracks = section ? section->find("cracks") : std::nullopt; cracks && cracks->is_sequence())
      at = cracks->items()[kMaxCracks];
    fail_at(at, root, fmt::format("{} cracks; at most {} are supported (each node keeps a 64-bit mask of two bits "
                                  "per crack)",
                                  spec.mpm.cracks.size(), kMaxCracks));
  }

  const ResourceEstimate e = estimate_resources(spec);
  if (auto bodies = root.find("bodies"); bodies && bodies->is_sequence()) {
    const std::vector<DeckNode> items = bodies->items();
    for (std::size_t b = 0; b < spec.bodies.size() && b < items.size(); ++b) {
      if (!(e.body_exact[b] && e.body_particles[b] == 0.0)) continue;
      const std::string why =
          spec.method == Method::Mpm
              ? fmt::format("{} (cell / particles_per_cell = {:.4g} m); "
                            "make it larger than a sub-cell, refine mpm.grid.cell, or check a polygon's vertices",
                            spec.mpm.particle_fill == ParticleFill::Clipped
                                ? "no sub-cell centre, corner or sample point lies inside its shape"
                                : "no sub-cell centre lies inside its shape",
                            spec.mpm.cell.head(spec.dimension).minCoeff() / spec.mpm.particles_per_cell)
              : fmt::format("no lattice point (spacing {} m) lies inside its shape; make it larger than the spacing "
                            "or refine pd.spacing",
                            spec.pd.spacing);
      const std::string what = spec.method == Method::Mpm ? "material point" : "lattice point";
      fail_at(items[b].find("geometry"), items[b],
              fmt::format("body '{}' would hold no {}: {}", spec.bodies[b].name, what, why));
    }
  }

  std::string source;
  const std::optional<double> available = available_memory(&source);
  if (available && e.bytes() > *available) {
    std::optional<DeckNode> at;
    if (section) {
      if (spec.method == Method::Mpm) {
        if (auto grid = section->find("grid")) at = grid->find("cell");
      } else {
        at = section->find("spacing");
      }
    }
    fail_at(at, root,
            fmt::format("the run would need {}, more than the {} available ({}); coarsen the resolution, shrink "
                        "the bodies or the grid, or run on a larger machine",
                        e.describe(), format_bytes(*available), source));
  }
}

}  // namespace deck

}  // namespace tribo::io
