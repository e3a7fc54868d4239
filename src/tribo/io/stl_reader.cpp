// STL files (ASCII and binary) to triangles, with errors at the line (ASCII) or triangle (binary).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "tribo/io/geometry_files.hpp"

namespace tribo::io {

namespace {

// A geometry file larger than this is refused rather than read into memory (binary STL: about
// 40 million triangles).
constexpr std::uintmax_t kMaxGeometryBytes = std::uintmax_t{2} << 30;

[[noreturn]] void fail_at(const std::filesystem::path& file, const std::string& where,
                          const std::string& what) {
  throw GeometryFileError(fmt::format("{}{}: {}", file.string(), where, what));
}

// ---- binary: 80-byte header, uint32 count, then per triangle 12 float32 (normal, 3 vertices)
// and a uint16 attribute, little endian.
std::vector<TriangleSolid::Triangle> read_binary(const std::filesystem::path& file,
                                                 const std::string& bytes, std::uint32_t count) {
  std::vector<TriangleSolid::Triangle> triangles(count);
  const char* p = bytes.data() + 84;
  for (std::uint32_t t = 0; t < count; ++t, p += 50) {
    float values[12];
    std::memcpy(values, p, sizeof(values));
    for (int v = 0; v < 3; ++v) {
      for (int d = 0; d < 3; ++d) {
        const float x = values[3 + 3 * v + d];
        if (!std::isfinite(x))
          fail_at(file, fmt::format(": triangle {}", t + 1),
                  fmt::format("vertex {} has {} = {} (vertices must be finite)", v + 1,
                              "xyz"[d], x));
        triangles[t][v][d] = x;
      }
    }
  }
  return triangles;
}

// ---- ASCII: solid NAME / facet normal n n n / outer loop / vertex x y z (3x) / endloop /
// endfacet / ... / endsolid NAME; several solids may follow one another.
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::vector<TriangleSolid::Triangle> read_ascii(const std::filesystem::path& file,
                                                const std::string& text) {
  enum class State { Solid, Facet, OuterLoop, Vertex, EndLoop, EndFacet };
  State state = State::Solid;
  std::vector<TriangleSolid::Triangle> triangles;
  TriangleSolid::Triangle current;
  int vertex = 0;
  int line_number = 0;
  std::size_t pos = 0;
  auto expected = [&](std::string_view what, std::string_view got) {
    const std::string facet =
        state == State::Solid || state == State::Facet
            ? std::string()
            : fmt::format(" (triangle {})", triangles.size() + 1);
    fail_at(file, fmt::format(":{}", line_number),
            fmt::format("expected {}{}, got '{}'", what, facet, got));
  };
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_number;
    const std::vector<std::string_view> w = words(line);
    if (w.empty()) continue;
    const std::string_view key = w[0];
    switch (state) {
      case State::Solid:
        if (key != "solid") expected("'solid'", line);
        state = State::Facet;
        break;
      case State::Facet:
        if (key == "endsolid") {
          state = State::Solid;
        } else if (key == "facet" && w.size() >= 2 && w[1] == "normal") {
          state = State::OuterLoop;  // the normal is not needed (parity ignores orientation)
        } else {
          expected("'facet normal NX NY NZ' or 'endsolid'", line);
        }
        break;
      case State::OuterLoop:
        if (key != "outer" || w.size() < 2 || w[1] != "loop") expected("'outer loop'", line);
        state = State::Vertex;
        vertex = 0;
        break;
      case State::Vertex: {
        if (key != "vertex" || w.size() != 4) expected("'vertex X Y Z'", line);
        for (int d = 0; d < 3; ++d) {
          double x = 0.0;
          const std::string_view word = w[1 + d];
          const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), x);
          if (ec != std::errc() || ptr != word.data() + word.size())
            fail_at(file, fmt::format(":{}", line_number),
                    fmt::format("vertex {} of triangle {}: '{}' is not a number", vertex + 1,
                                triangles.size() + 1, word));
          if (!std::isfinite(x))
            fail_at(file, fmt::format(":{}", line_number),
                    fmt::format("vertex {} of triangle {} has {} = {} (vertices must be finite)",
                                vertex + 1, triangles.size() + 1, "xyz"[d], word));
          current[vertex][d] = x;
        }
        if (++vertex == 3) state = State::EndLoop;
        break;
      }
      case State::EndLoop:
        if (key != "endloop") expected("'endloop' after 3 vertices", line);
        state = State::EndFacet;
        break;
      case State::EndFacet:
        if (key != "endfacet") expected("'endfacet'", line);
        triangles.push_back(current);
        state = State::Facet;
        break;
    }
  }
  if (state != State::Solid && state != State::Facet)
    fail_at(file, fmt::format(":{}", line_number),
            fmt::format("the file ends inside triangle {} (truncated?)", triangles.size() + 1));
  if (state == State::Facet)
    fail_at(file, fmt::format(":{}", line_number),
            fmt::format("the file ends without 'endsolid' after {} triangle(s) (truncated?)",
                        triangles.size()));
  return triangles;
}

bool looks_ascii(const std::string& bytes) {
  std::size_t i = 0;
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' ||
                              bytes[i] == '\n'))
    ++i;
  return bytes.compare(i, 5, "solid") == 0 && bytes.find('\0') == std::string::npos;
}

}  // namespace

std::string read_geometry_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw GeometryFileError(fmt::format("{}: no such file", file.string()));
  if (!std::filesystem::is_regular_file(file, ec))
    throw GeometryFileError(fmt::format("{}: not a regular file", file.string()));
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec) throw GeometryFileError(fmt::format("{}: cannot read its size: {}", file.string(), ec.message()));
  if (size > kMaxGeometryBytes)
    throw GeometryFileError(fmt::format("{}: {} bytes, more than the {} a geometry file may have",
                                        file.string(), size, kMaxGeometryBytes));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw GeometryFileError(fmt::format("{}: cannot be opened", file.string()));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw GeometryFileError(fmt::format("{}: read error", file.string()));
  return buffer.str();
}

std::vector<TriangleSolid::Triangle> read_stl(const std::filesystem::path& file) {
  const std::string bytes = read_geometry_file(file);
  std::uint32_t count = 0;
  if (bytes.size() >= 84) std::memcpy(&count, bytes.data() + 80, sizeof(count));
  const std::uint64_t binary_size = 84 + 50 * std::uint64_t{count};
  // Some binary files start their header with "solid" too; the size decides first.
  if (bytes.size() >= 84 && bytes.size() == binary_size && !(count == 0 && looks_ascii(bytes))) {
    if (count == 0) fail_at(file, "", "binary STL with 0 triangles");
    return read_binary(file, bytes, count);
  }
  if (looks_ascii(bytes)) {
    std::vector<TriangleSolid::Triangle> triangles = read_ascii(file, bytes);
    if (triangles.empty()) fail_at(file, "", "ASCII STL with no triangle");
    return triangles;
  }
  if (bytes.size() < 84)
    fail_at(file, "",
            fmt::format("{} bytes: too short for a binary STL (84-byte header and count) and not "
                        "an ASCII STL (which starts with 'solid')",
                        bytes.size()));
  if (bytes.size() < binary_size)
    fail_at(file, fmt::format(": triangle {}", (bytes.size() - 84) / 50 + 1),
            fmt::format("binary STL truncated: its header announces {} triangles (84 + 50 x {} = "
                        "{} bytes) but the file has {} bytes, ending in triangle {}",
                        count, count, binary_size, bytes.size(), (bytes.size() - 84) / 50 + 1));
  fail_at(file, "",
          fmt::format("binary STL with a wrong triangle count: its header announces {} triangles "
                      "(84 + 50 x {} = {} bytes) but the file has {} bytes ({} triangles would "
                      "fit)",
                      count, count, binary_size, bytes.size(),
                      (bytes.size() - 84) % 50 == 0 ? fmt::format("{}", (bytes.size() - 84) / 50)
                                                    : std::string("no whole number of")));
}

}  // namespace tribo::io
