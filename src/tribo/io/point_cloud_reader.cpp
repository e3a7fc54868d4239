// Point clouds in CSV (one point per line) to positions and optional volumes, with errors at the
// line and column.
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "tribo/io/geometry_files.hpp"

namespace tribo::io {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    out.push_back(trim(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

bool parse_number(std::string_view s, double& x) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

[[noreturn]] void fail_line(const std::string& file, int line, const std::string& what) {
  throw GeometryFileError(fmt::format("{}:{}: {}", file, line, what));
}

enum Column { X = 0, Y = 1, Z = 2, Volume = 3, Unused = -1 };

}  // namespace

PointCloudFile read_point_cloud(const std::filesystem::path& file, int dimension) {
  const std::string text = read_geometry_file(file);
  const std::string name = file.string();
  PointCloudFile cloud;
  std::vector<Column> columns;  // meaning of each field, from the header or the first row
  int columns_line = 0;         // the line that set them
  std::map<std::array<double, 3>, int> seen;  // position -> line: a repeated point has no bond length
  int line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = trim(std::string_view(text).substr(pos, end - pos));
    pos = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> f = fields(line);
    double probe = 0.0;
    if (columns.empty() && !parse_number(f[0], probe)) {
      // A header: names the columns.
      bool has[4] = {false, false, false, false};
      for (std::size_t c = 0; c < f.size(); ++c) {
        Column col = Unused;
        if (f[c] == "x") col = X;
        else if (f[c] == "y") col = Y;
        else if (f[c] == "z") col = Z;
        else if (f[c] == "volume") col = Volume;
        else
          fail_line(name, line_number, fmt::format("column {}: unknown column name '{}'; expected x, y, z, "
                                        "volume",
                                        c + 1, f[c]));
        if (has[col]) fail_line(name, line_number, fmt::format("column {}: '{}' named twice", c + 1, f[c]));
        if (col == Z && dimension == 2)
          fail_line(name, line_number, fmt::format("column {}: a z column in a 2D deck", c + 1));
        has[col] = true;
        columns.push_back(col);
        columns_line = line_number;
      }
      for (Column need : {X, Y, Z}) {
        if (need == Z && dimension == 2) continue;
        if (!has[need])
          fail_line(name, line_number, fmt::format("the header has no '{}' column", "xyz"[need]));
      }
      continue;
    }
    if (columns.empty()) {
      // No header: x, y[, z][, volume] by the count of the first row.
      if (f.size() == static_cast<std::size_t>(dimension))
        columns = dimension == 2 ? std::vector<Column>{X, Y} : std::vector<Column>{X, Y, Z};
      else if (f.size() == static_cast<std::size_t>(dimension) + 1)
        columns = dimension == 2 ? std::vector<Column>{X, Y, Volume}
                                 : std::vector<Column>{X, Y, Z, Volume};
      else
        fail_line(name, line_number,
             fmt::format("{} values; a {}D point is {} or, with its volume, {} (or give a header "
                         "line naming the columns)",
                         f.size(), dimension, dimension == 2 ? "x, y" : "x, y, z",
                         dimension == 2 ? "x, y, volume" : "x, y, z, volume"));
      columns_line = line_number;
    }
    if (f.size() != columns.size())
      fail_line(name, line_number, fmt::format("{} values, expected {} (the columns of line {})",
                                                     f.size(), columns.size(), columns_line));
    std::array<double, 3> x{0.0, 0.0, 0.0};
    double volume = 0.0;
    for (std::size_t c = 0; c < f.size(); ++c) {
      double value = 0.0;
      const char* what = columns[c] == Volume ? "volume" : (columns[c] == X ? "x" : (columns[c] == Y ? "y" : "z"));
      if (!parse_number(f[c], value))
        fail_line(name, line_number, fmt::format("column {} ({}): '{}' is not a number", c + 1, what, f[c]));
      if (!std::isfinite(value))
        fail_line(name, line_number, fmt::format("column {} ({}): {} is not finite", c + 1, what, f[c]));
      if (columns[c] == Volume) {
        if (!(value > 0.0))
          fail_line(name, line_number, fmt::format("column {} (volume): must be > 0, got {}", c + 1, f[c]));
        volume = value;
      } else {
        x[columns[c]] = value;
      }
    }
    const auto [where, inserted] = seen.emplace(x, line_number);
    if (!inserted)
      fail_line(name, line_number, fmt::format("the point ({}, {}{}) is given twice (first at line {})", x[0],
                                    x[1], dimension == 3 ? fmt::format(", {}", x[2]) : "",
                                    where->second));
    cloud.positions.emplace_back(x[0], x[1], x[2]);
    bool with_volume = false;
    for (Column c : columns) with_volume = with_volume || c == Volume;
    if (with_volume) cloud.volumes.push_back(volume);
  }
  if (cloud.positions.empty())
    throw GeometryFileError(fmt::format("{}:{}: no point in the file", name, std::max(line_number, 1)));
  return cloud;
}

}  // namespace tribo::io
