#include "tribo/io/history.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "tribo/core/error.hpp"
#include "tribo/io/atomic_file.hpp"

namespace tribo::io {

namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};

void add_components(std::vector<std::string>& columns, const std::string& stem, int count) {
  for (int d = 0; d < count; ++d) columns.push_back(fmt::format("{}.{}", stem, kAxes[d]));
}

DeckError history_error(const SimulationSpec& spec, std::size_t i, const std::string& key,
                        const std::string& what) {
  return DeckError({spec.source_file, 0, 0, fmt::format("output.history[{}].{}", i, key)}, what);
}

// A contact-force name is a material, or a body standing for its material.
int contact_material(const SimulationSpec& spec, const std::string& name, std::size_t i) {
  if (int m = spec.material_index(name); m >= 0) return m;
  if (int b = spec.body_index(name); b >= 0) {
    const BodySpec& body = spec.bodies[static_cast<std::size_t>(b)];
    if (body.material_index >= 0) return body.material_index;
    if (int m = spec.material_index(body.material); m >= 0) return m;
  }
  throw history_error(spec, i, "materials", fmt::format("no material or body named '{}'", name));
}

}  // namespace

template <int Dim>
HistoryRecorder<Dim>::HistoryRecorder(const std::vector<HistorySpec>& history,
                                      const SimulationSpec& spec) {
  columns_.push_back("time");
  for (std::size_t i = 0; i < history.size(); ++i) {
    const HistorySpec& h = history[i];
    Entry e{};
    switch (h.quantity) {
      case HistoryQuantity::Centroid:
      case HistoryQuantity::Velocity: {
        const bool centroid = h.quantity == HistoryQuantity::Centroid;
        e.kind = centroid ? Kind::Centroid : Kind::Velocity;
        e.body = spec.body_index(h.body);
        if (e.body < 0)
          throw history_error(spec, i, "body", fmt::format("no body named '{}'", h.body));
        add_components(columns_, fmt::format("{}.{}", centroid ? "centroid" : "velocity", h.body),
                       Dim);
        needs_body_sums_ = true;
        break;
      }
      case HistoryQuantity::ContactForce:
        e.kind = Kind::ContactForce;
        e.material_a = contact_material(spec, h.materials[0], i);
        e.material_b = contact_material(spec, h.materials[1], i);
        add_components(columns_, fmt::format("contact-force.{}.{}", h.materials[0], h.materials[1]),
                       Dim);
        break;
      case HistoryQuantity::CrackForce:
        e.kind = Kind::CrackForce;
        e.crack = h.crack;
        if (h.crack < 0 || h.crack >= static_cast<int>(spec.mpm.cracks.size()))
          throw history_error(spec, i, "crack", fmt::format("no crack {} in mpm.cracks", h.crack));
        add_components(columns_, fmt::format("crack-force.{}", h.crack), Dim);
        break;
      case HistoryQuantity::Energy:
        e.kind = Kind::Energy;
        for (const char* part : {"kinetic", "strain", "potential", "frictional", "total"})
          columns_.push_back(fmt::format("energy.{}", part));
        break;
      case HistoryQuantity::Momentum:
        e.kind = Kind::Momentum;
        add_components(columns_, "momentum", Dim);
        needs_momentum_ = true;
        break;
      case HistoryQuantity::AngularMomentum:
        e.kind = Kind::AngularMomentum;
        // In 2D the angular momentum of in-plane motion has only a z component.
        if (Dim == 2)
          columns_.push_back("angular-momentum.z");
        else
          add_components(columns_, "angular-momentum", 3);
        needs_momentum_ = true;
        break;
    }
    entries_.push_back(e);
  }
  for (const MaterialSpec& m : spec.materials) rigid_material_.push_back(m.rigid() ? 1 : 0);
  body_mass_.assign(spec.bodies.size(), 0.0);
  body_moment_.assign(spec.bodies.size(), Vec<Dim>::Zero());
  body_momentum_.assign(spec.bodies.size(), Vec<Dim>::Zero());
}

template <int Dim>
std::vector<double> HistoryRecorder<Dim>::sample(const Simulation<Dim>& sim) const {
  std::vector<double> row;
  sample(sim, row);
  return row;
}

template <int Dim>
void HistoryRecorder<Dim>::sample(const Simulation<Dim>& sim, std::vector<double>& row) const {
  const Particles<Dim>& p = sim.particles();
  const std::size_t n = p.size();

  // One pass over the particles gathers every per-body sum and the system momenta.
  Vec<Dim> momentum = Vec<Dim>::Zero();
  Vec3 angular = Vec3::Zero();
  if (needs_body_sums_ || needs_momentum_) {
    std::fill(body_mass_.begin(), body_mass_.end(), 0.0);
    std::fill(body_moment_.begin(), body_moment_.end(), Vec<Dim>::Zero());
    std::fill(body_momentum_.begin(), body_momentum_.end(), Vec<Dim>::Zero());
    const std::size_t bodies = body_mass_.size(), materials = rigid_material_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const double m = p.mass[i];
      const Vec<Dim> mv = m * p.velocity[i];
      const auto b = static_cast<std::size_t>(p.body[i]);
      if (b < bodies) {
        body_mass_[b] += m;
        body_moment_[b] += m * p.position[i];
        body_momentum_[b] += mv;
      }
      const auto mat = static_cast<std::size_t>(p.material[i]);
      if (mat >= materials || !rigid_material_[mat]) {
        momentum += mv;
        angular += cross_moment<Dim>(p.position[i], mv);
      }
    }
    if (needs_momentum_) angular += sim.particle_spin();
    if (sim.process_count() > 1) {
      // Each process summed its own particles: complete the sums over the processes, in one call.
      reduced_.clear();
      for (std::size_t b = 0; b < bodies; ++b) {
        reduced_.push_back(body_mass_[b]);
        for (int d = 0; d < Dim; ++d) reduced_.push_back(body_moment_[b][d]);
        for (int d = 0; d < Dim; ++d) reduced_.push_back(body_momentum_[b][d]);
      }
      for (int d = 0; d < Dim; ++d) reduced_.push_back(momentum[d]);
      for (int d = 0; d < 3; ++d) reduced_.push_back(angular[d]);
      sim.sum_over_processes(reduced_);
      std::size_t k = 0;
      for (std::size_t b = 0; b < bodies; ++b) {
        body_mass_[b] = reduced_[k++];
        for (int d = 0; d < Dim; ++d) body_moment_[b][d] = reduced_[k++];
        for (int d = 0; d < Dim; ++d) body_momentum_[b][d] = reduced_[k++];
      }
      for (int d = 0; d < Dim; ++d) momentum[d] = reduced_[k++];
      for (int d = 0; d < 3; ++d) angular[d] = reduced_[k++];
    }
  }

  row.resize(columns_.size());
  std::size_t c = 0;
  row[c++] = sim.time();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Entry& e : entries_) {
    switch (e.kind) {
      case Kind::Centroid:
      case Kind::Velocity: {
        const auto b = static_cast<std::size_t>(e.body);
        const double mass = body_mass_[b];
        const Vec<Dim>& sum = e.kind == Kind::Centroid ? body_moment_[b] : body_momentum_[b];
        for (int d = 0; d < Dim; ++d) row[c++] = mass > 0.0 ? sum[d] / mass : nan;
        break;
      }
      case Kind::ContactForce: {
        const Vec3 f = sim.contact_force(e.material_a, e.material_b);
        for (int d = 0; d < Dim; ++d) row[c++] = f[d];
        break;
      }
      case Kind::CrackForce: {
        const Vec3 f = sim.crack_force(e.crack);
        for (int d = 0; d < Dim; ++d) row[c++] = f[d];
        break;
      }
      case Kind::Energy: {
        const EnergyBreakdown energy = sim.energy();
        row[c++] = energy.kinetic;
        row[c++] = energy.strain;
        row[c++] = energy.potential;
        row[c++] = energy.frictional;
        row[c++] = energy.total();
        break;
      }
      case Kind::Momentum:
        for (int d = 0; d < Dim; ++d) row[c++] = momentum[d];
        break;
      case Kind::AngularMomentum:
        if (Dim == 2) {
          row[c++] = angular.z();
        } else {
          for (int d = 0; d < 3; ++d) row[c++] = angular[d];
        }
        break;
    }
  }
}

template class HistoryRecorder<2>;
template class HistoryRecorder<3>;

// ---------------------------------------------------------------------------------------------
// CSV

namespace {

// RFC 4180 quoting, needed only when a body or material name holds a comma or a quote.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

// Splits one line into fields, undoing csv_field's quoting.
std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        fields.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  return fields;
}

// The rows of a history CSV's text; row_ends (when not null) gets the offset just past each
// row's newline.
std::vector<std::vector<double>> parse_history_text(const std::string& text, const std::filesystem::path& file,
                                                    std::vector<std::string>* columns,
                                                    std::vector<std::size_t>* row_ends);

std::string header_line(const std::vector<std::string>& columns) {
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(columns[i]);
  }
  return line + '\n';
}

}  // namespace

HistoryCsv::HistoryCsv(std::filesystem::path file, std::vector<std::string> columns)
    : file_(std::move(file)), columns_(std::move(columns)) {}

HistoryCsv::HistoryCsv(HistoryCsv&& other) noexcept
    : file_(std::move(other.file_)),
      columns_(std::move(other.columns_)),
      row_count_(other.row_count_),
      last_row_(std::move(other.last_row_)),
      line_(std::move(other.line_)),
      fd_(std::exchange(other.fd_, -1)),
      bytes_(other.bytes_) {}

HistoryCsv& HistoryCsv::operator=(HistoryCsv&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    file_ = std::move(other.file_);
    columns_ = std::move(other.columns_);
    row_count_ = other.row_count_;
    last_row_ = std::move(other.last_row_);
    line_ = std::move(other.line_);
    fd_ = std::exchange(other.fd_, -1);
    bytes_ = other.bytes_;
  }
  return *this;
}

HistoryCsv::~HistoryCsv() {
  if (fd_ >= 0) ::close(fd_);
}

void HistoryCsv::open_for_append() {
  fd_ = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) {
    const int error = errno;
    throw std::runtime_error(fmt::format("cannot append to '{}': {}", file_.string(), std::strerror(error)));
  }
}

HistoryCsv HistoryCsv::reload(std::filesystem::path file, std::vector<std::string> columns,
                              double up_to_time) {
  HistoryCsv csv(std::move(file), std::move(columns));
  if (!std::filesystem::exists(csv.file_)) return csv;
  std::string text = read_file(csv.file_);
  // A line without its newline is a row a crash cut short (a write(2) that did not finish): it
  // was never whole, so it is not kept (nor parsed).
  const std::size_t whole = text.rfind('\n');
  text.resize(whole == std::string::npos ? 0 : whole + 1);
  std::vector<std::string> found;
  std::vector<std::size_t> row_ends;
  const auto rows = parse_history_text(text, csv.file_, &found, &row_ends);
  if (found != csv.columns_)
    throw std::runtime_error(
        fmt::format("cannot continue '{}': its columns ({}) differ from the deck's history ({})",
                    csv.file_.string(), fmt::join(found, ","), fmt::join(csv.columns_, ",")));
  // Rows are in time order: keep the prefix up to the checkpoint's time.
  std::size_t keep = 0;
  while (keep < rows.size() && !rows[keep].empty() && rows[keep][0] <= up_to_time) ++keep;
  const std::size_t header_end = text.find('\n') + 1;
  const std::size_t size = keep > 0 ? row_ends[keep - 1] : header_end;
  // One truncate(2): a reader sees the old file or the cut one, each ending at a row's end.
  if (std::filesystem::file_size(csv.file_) != size) {
    if (::truncate(csv.file_.c_str(), static_cast<off_t>(size)) != 0) {
      const int error = errno;
      throw std::runtime_error(fmt::format("cannot cut '{}' back to the checkpoint's time: {}",
                                           csv.file_.string(), std::strerror(error)));
    }
  }
  csv.row_count_ = keep;
  if (keep > 0) csv.last_row_ = rows[keep - 1];
  csv.bytes_ = static_cast<long long>(size);
  csv.open_for_append();
  return csv;
}

void HistoryCsv::append(const std::vector<double>& row) {
  if (row.size() != columns_.size())
    throw std::invalid_argument(fmt::format("history row of {} values for {} columns of '{}'",
                                            row.size(), columns_.size(), file_.string()));
  format_row(row);
  if (fd_ < 0) {
    // The first row: the file appears with its header and this row, or not at all.
    const std::string first = header_line(columns_) + line_;
    write_file_atomically(file_, first);
    bytes_ = static_cast<long long>(first.size());
    open_for_append();
  } else {
    // One write(2) of the whole line; the loop only runs again after a short write (a full disk),
    // and a failure cuts the partial row back off so that the file ends at a whole row.
    const char* data = line_.data();
    std::size_t left = line_.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int error = n < 0 ? errno : ENOSPC;
        if (::ftruncate(fd_, static_cast<off_t>(bytes_)) != 0) {
          // Nothing more to do: the message below names the file.
        }
        throw std::runtime_error(fmt::format("cannot append to '{}': {}", file_.string(), std::strerror(error)));
      }
      data += n;
      left -= static_cast<std::size_t>(n);
    }
    bytes_ += static_cast<long long>(line_.size());
  }
  ++row_count_;
  last_row_.assign(row.begin(), row.end());
}

void HistoryCsv::sync() {
  if (fd_ >= 0) ::fdatasync(fd_);
}

void HistoryCsv::format_row(const std::vector<double>& row) {
  line_.clear();
  auto out = std::back_inserter(line_);
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i > 0) line_ += ',';
    // "{}": the shortest decimal that reads back to the same double (round trip, no %.17g noise).
    fmt::format_to(out, "{}", row[i]);
  }
  line_ += '\n';
}

std::vector<std::vector<double>> read_history_csv(const std::filesystem::path& file,
                                                  std::vector<std::string>* columns) {
  return parse_history_text(read_file(file), file, columns, nullptr);
}

namespace {

std::vector<std::vector<double>> parse_history_text(const std::string& text, const std::filesystem::path& file,
                                                    std::vector<std::string>* columns,
                                                    std::vector<std::size_t>* row_ends) {
  std::vector<std::vector<double>> rows;
  std::vector<std::string> header;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (header.empty()) {
      header = split_csv_line(line);
      continue;
    }
    std::vector<double> row;
    row.reserve(header.size());
    for (std::size_t begin = 0; begin <= line.size();) {
      std::size_t comma = line.find(',', begin);
      if (comma == std::string_view::npos) comma = line.size();
      const std::string_view field = line.substr(begin, comma - begin);
      double value = 0.0;
      const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
      if (ec != std::errc() || ptr != field.data() + field.size() || field.empty())
        throw std::runtime_error(
            fmt::format("{}:{}: '{}' is not a number", file.string(), line_number, field));
      row.push_back(value);
      begin = comma + 1;
    }
    if (row.size() != header.size())
      throw std::runtime_error(fmt::format("{}:{}: {} values for {} columns", file.string(),
                                           line_number, row.size(), header.size()));
    rows.push_back(std::move(row));
    if (row_ends) row_ends->push_back(start);
  }
  if (header.empty())
    throw std::runtime_error(fmt::format("'{}' has no header row", file.string()));
  if (columns) *columns = std::move(header);
  return rows;
}

}  // namespace

}  // namespace tribo::io
