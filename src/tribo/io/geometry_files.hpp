#pragma once
// Body geometry read from files named in a deck (docs/deck.md, "shapes"): closed triangle
// surfaces in STL (ASCII or binary) and point clouds in CSV. A malformed file is a
// GeometryFileError whose message starts with the file and the place in it,
// "FILE:LINE: ..." (ASCII STL, CSV) or "FILE: triangle N: ..." (binary STL), so that the deck
// reader can report it at the deck's key as well.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "tribo/core/triangle_solid.hpp"

namespace tribo::io {

class GeometryFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The triangles of an STL file. Binary when the file's size is 84 + 50 N for the N of its header,
// ASCII when it starts with "solid" and holds no NUL byte; anything else is an error. Vertices
// must be finite; at least one triangle.
std::vector<TriangleSolid::Triangle> read_stl(const std::filesystem::path& file);

// Points of a CSV file: one point per line, comma-separated. An optional header line names the
// columns (x, y, z, volume, in any order; x and y required, z required in 3D and refused in 2D);
// without one the columns are x, y[, z][, volume] by their count. '#' starts a comment line.
// Numbers finite, volumes > 0, no position given twice, at least one point.
struct PointCloudFile {
  std::vector<Vec3> positions;  // z = 0 in 2D
  std::vector<double> volumes;  // empty when the file has no volume column
};
PointCloudFile read_point_cloud(const std::filesystem::path& file, int dimension);

// The whole of a regular file (not a device or a folder, which could block or never end), or a
// GeometryFileError naming it.
std::string read_geometry_file(const std::filesystem::path& file);

}  // namespace tribo::io
