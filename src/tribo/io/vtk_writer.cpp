#include "tribo/io/vtk_writer.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "tribo/io/atomic_file.hpp"

namespace tribo::io {

// The files say byte_order="LittleEndian" and values are copied as they lie in memory.
static_assert(std::endian::native == std::endian::little,
              "vtk_writer copies values in native order and labels them LittleEndian");

namespace {

constexpr std::uint8_t kVtkVertex = 1;
constexpr std::uint8_t kVtkPolyLine = 4;
constexpr std::uint8_t kVtkTriangle = 5;

// Copies one value into the buffer at p and advances p; memcpy because the appended block has no
// alignment (blocks follow 8-byte headers at arbitrary offsets).
template <typename T>
inline void put(char*& p, T value) {
  std::memcpy(p, &value, sizeof(T));
  p += sizeof(T);
}

// One block of the appended section: the XML element that describes it and a function that fills
// exactly `bytes` bytes. The fill functions run once per array (never per particle), so the
// std::function indirection costs nothing measurable.
struct AppendedArray {
  std::string element;     // "DataArray" or (field data) "Array"
  std::string attributes;  // type, Name, NumberOfComponents / NumberOfTuples
  std::size_t bytes = 0;
  std::function<void(char*)> fill;
};

// Collects the arrays of one UnstructuredGrid piece, then lays the file out in one buffer: the XML
// header with every offset known, '_', and for each array a UInt64 byte count followed by the raw
// values (VTK XML "appended raw" encoding, header_type UInt64).
class VtuBuilder {
 public:
  VtuBuilder(std::size_t points, std::size_t cells) : points_(points), cells_(cells) {}

  std::vector<AppendedArray> field_data, point_data, cell_data, cells;
  AppendedArray point_coordinates;

  std::string build() const {
    std::uint64_t offset = 0;
    std::string xml;
    xml.reserve(4096);
    auto declare = [&](std::string_view indent, const AppendedArray& a) {
      fmt::format_to(std::back_inserter(xml), "{}<{} {} format=\"appended\" offset=\"{}\"/>\n",
                     indent, a.element, a.attributes, offset);
      offset += sizeof(std::uint64_t) + a.bytes;
    };
    xml +=
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
        "header_type=\"UInt64\">\n"
        "  <UnstructuredGrid>\n";
    if (!field_data.empty()) {
      xml += "    <FieldData>\n";
      for (const auto& a : field_data) declare("      ", a);
      xml += "    </FieldData>\n";
    }
    fmt::format_to(std::back_inserter(xml),
                   "    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n", points_, cells_);
    xml += "      <PointData>\n";
    for (const auto& a : point_data) declare("        ", a);
    xml += "      </PointData>\n";
    if (!cell_data.empty()) {
      xml += "      <CellData>\n";
      for (const auto& a : cell_data) declare("        ", a);
      xml += "      </CellData>\n";
    }
    xml += "      <Points>\n";
    declare("        ", point_coordinates);
    xml += "      </Points>\n      <Cells>\n";
    for (const auto& a : cells) declare("        ", a);
    xml +=
        "      </Cells>\n"
        "    </Piece>\n"
        "  </UnstructuredGrid>\n"
        "  <AppendedData encoding=\"raw\">\n   _";
    constexpr std::string_view footer = "\n  </AppendedData>\n</VTKFile>\n";

    // One allocation for the whole file; each array is written in place.
    std::string file(xml.size() + offset + footer.size(), '\0');
    std::memcpy(file.data(), xml.data(), xml.size());
    // Each array's place is known from the sizes alone, so the arrays are filled in parallel
    // (a frame is written while the steps wait: 2.6 MB for the oblique disks' 15 720 particles,
    // about a tenth of their run on 2 threads; issue 17). The bytes are those of a serial fill.
    char* p = file.data() + xml.size();
    std::vector<std::pair<const AppendedArray*, char*>> places;
    auto append = [&](const AppendedArray& a) {
      put<std::uint64_t>(p, a.bytes);
      if (a.bytes > 0) places.emplace_back(&a, p);
      p += a.bytes;
    };
    for (const auto& a : field_data) append(a);
    for (const auto& a : point_data) append(a);
    for (const auto& a : cell_data) append(a);
    append(point_coordinates);
    for (const auto& a : cells) append(a);
    std::memcpy(p, footer.data(), footer.size());
    const long count = static_cast<long>(places.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (long k = 0; k < count; ++k) places[k].first->fill(places[k].second);
    return file;
  }

 private:
  std::size_t points_, cells_;
};

AppendedArray data_array(std::string_view name, std::string_view type, int components,
                         std::size_t bytes, std::function<void(char*)> fill) {
  AppendedArray a;
  a.element = "DataArray";
  a.attributes = components == 1 ? fmt::format("type=\"{}\" Name=\"{}\"", type, name)
                                 : fmt::format("type=\"{}\" Name=\"{}\" NumberOfComponents=\"{}\"",
                                               type, name, components);
  a.bytes = bytes;
  a.fill = std::move(fill);
  return a;
}

// VTK string arrays in appended raw form: the strings back to back, each ending in '\0'.
AppendedArray string_field_array(std::string_view name, const std::vector<std::string>& values) {
  AppendedArray a;
  a.element = "Array";
  a.attributes =
      fmt::format("type=\"String\" Name=\"{}\" NumberOfTuples=\"{}\"", name, values.size());
  for (const auto& v : values) a.bytes += v.size() + 1;
  a.fill = [&values](char* p) {
    for (const auto& v : values) {
      std::memcpy(p, v.data(), v.size());
      p += v.size();
      *p++ = '\0';
    }
  };
  return a;
}

template <int Dim>
AppendedArray vector_array(std::string_view name, const std::vector<Vec<Dim>>& values) {
  return data_array(name, "Float64", 3, values.size() * 3 * sizeof(double), [&values](char* p) {
    for (const auto& v : values) {
      const Vec3 v3 = to_vec3<Dim>(v);
      put(p, v3.x());
      put(p, v3.y());
      put(p, v3.z());
    }
  });
}

AppendedArray scalar_array(std::string_view name, const std::vector<double>& values) {
  return data_array(name, "Float64", 1, values.size() * sizeof(double), [&values](char* p) {
    std::memcpy(p, values.data(), values.size() * sizeof(double));
  });
}

AppendedArray int_array(std::string_view name, const std::vector<int>& values) {
  return data_array(name, "Int32", 1, values.size() * sizeof(std::int32_t), [&values](char* p) {
    for (int v : values) put<std::int32_t>(p, v);
  });
}

// von Mises equivalent stress sqrt(3 J2), J2 = s:s / 2 with s the deviator of sigma.
double von_mises(const Mat3& s) {
  const double dxy = s(0, 0) - s(1, 1), dyz = s(1, 1) - s(2, 2), dzx = s(2, 2) - s(0, 0);
  const double shear = s(0, 1) * s(0, 1) + s(1, 2) * s(1, 2) + s(0, 2) * s(0, 2);
  return std::sqrt(0.5 * (dxy * dxy + dyz * dyz + dzx * dzx) + 3.0 * shear);
}

// connectivity 0..n-1, offsets 1..n, types VERTEX: one vertex cell per particle.
void add_vertex_cells(VtuBuilder& b, std::size_t n) {
  b.cells.push_back(data_array("connectivity", "Int64", 1, n * sizeof(std::int64_t), [n](char* p) {
    for (std::size_t i = 0; i < n; ++i) put<std::int64_t>(p, static_cast<std::int64_t>(i));
  }));
  b.cells.push_back(data_array("offsets", "Int64", 1, n * sizeof(std::int64_t), [n](char* p) {
    for (std::size_t i = 0; i < n; ++i) put<std::int64_t>(p, static_cast<std::int64_t>(i + 1));
  }));
  b.cells.push_back(
      data_array("types", "UInt8", 1, n, [n](char* p) { std::memset(p, kVtkVertex, n); }));
}

// Each array is written into space sized from particles.size(): a shorter array would overrun the
// buffer, so a mismatch is a programming error reported before anything is written. Every array of
// Particles::arrays() is checked, written or not.
template <int Dim>
void check_sizes(const Particles<Dim>& particles, const std::filesystem::path& file) {
  const std::size_t n = particles.size();
  for_each_array(Particles<Dim>::arrays(particles), [&](std::string_view name, const auto& values) {
    if (values.size() != n)
      throw std::invalid_argument(fmt::format(
          "cannot write '{}': particle arrays differ in length ({} positions, {} {})", file.string(), n,
          values.size(), name));
  });
}

// The point arrays of a particle frame (write_particle_frame's list, in its order); also the
// declarations of the frame index of a run across processes, built from an empty set.
template <int Dim>
void add_particle_point_data(VtuBuilder& b, const Particles<Dim>& particles, const std::vector<std::string>& fields) {
  const std::size_t n = particles.size();
  b.point_data.push_back(int_array("body", particles.body));
  b.point_data.push_back(scalar_array("mass", particles.mass));
  for (const std::string& field : fields) {
    if (field == "velocity") {
      b.point_data.push_back(vector_array<Dim>("velocity", particles.velocity));
    } else if (field == "displacement") {
      b.point_data.push_back(data_array(
          "displacement", "Float64", 3, n * 3 * sizeof(double), [&particles, n](char* p) {
            for (std::size_t i = 0; i < n; ++i) {
              const Vec3 u = to_vec3<Dim>(particles.position[i] - particles.reference_position[i]);
              put(p, u.x());
              put(p, u.y());
              put(p, u.z());
            }
          }));
    } else if (field == "stress") {
      const auto& stress = particles.stress;
      b.point_data.push_back(
          data_array("stress", "Float64", 6, n * 6 * sizeof(double), [&stress](char* p) {
            for (const Mat3& s : stress) {
              put(p, s(0, 0));
              put(p, s(1, 1));
              put(p, s(2, 2));
              put(p, s(0, 1));
              put(p, s(1, 2));
              put(p, s(0, 2));
            }
          }));
      b.point_data.push_back(
          data_array("von_mises", "Float64", 1, n * sizeof(double), [&stress](char* p) {
            for (const Mat3& s : stress) put(p, von_mises(s));
          }));
    } else if (field == "material") {
      b.point_data.push_back(int_array("material", particles.material));
    } else if (field == "damage") {
      b.point_data.push_back(scalar_array("damage", particles.damage));
    }
    // Other names: ignored here, the deck reader rejects unknown fields with their location.
  }
}

}  // namespace

template <int Dim>
void write_particle_frame(const std::filesystem::path& file, const Particles<Dim>& particles,
                          const std::vector<std::string>& fields,
                          const std::vector<std::string>& material_names) {
  check_sizes(particles, file);
  const std::size_t n = particles.size();
  VtuBuilder b(n, n);
  if (!material_names.empty())
    b.field_data.push_back(string_field_array("material_names", material_names));
  add_particle_point_data<Dim>(b, particles, fields);
  b.point_coordinates = vector_array<Dim>("Points", particles.position);
  add_vertex_cells(b, n);
  write_file_deferred(file, b.build());
}

template <int Dim>
void write_particle_frame_index(const std::filesystem::path& file, const std::vector<std::string>& pieces,
                                const std::vector<std::string>& fields) {
  // The declarations are those of an empty frame's arrays: the same names, types and components
  // as every piece, by construction.
  VtuBuilder b(0, 0);
  const Particles<Dim> none;
  add_particle_point_data<Dim>(b, none, fields);
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\">\n"
      "  <PUnstructuredGrid GhostLevel=\"0\">\n"
      "    <PPointData>\n";
  for (const auto& a : b.point_data) fmt::format_to(std::back_inserter(xml), "      <PDataArray {}/>\n", a.attributes);
  xml +=
      "    </PPointData>\n"
      "    <PPoints>\n"
      "      <PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n"
      "    </PPoints>\n";
  for (const auto& piece : pieces) fmt::format_to(std::back_inserter(xml), "    <Piece Source=\"{}\"/>\n", piece);
  xml +=
      "  </PUnstructuredGrid>\n"
      "</VTKFile>\n";
  write_file_atomically(file, xml);
}

void write_surface_mesh(const std::filesystem::path& file, const SurfaceMesh& mesh) {
  std::size_t connectivity = 0;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    const auto& cell = mesh.cells[c];
    if (cell.empty())
      throw std::invalid_argument(
          fmt::format("surface mesh '{}': cell {} has no points", mesh.name, c));
    for (int index : cell)
      if (index < 0 || static_cast<std::size_t>(index) >= mesh.points.size())
        throw std::invalid_argument(
            fmt::format("surface mesh '{}': cell {} refers to point {} of {}", mesh.name, c, index,
                        mesh.points.size()));
    connectivity += cell.size();
  }
  for (const auto& [name, values] : mesh.cell_data)
    if (values.size() != mesh.cells.size())
      throw std::invalid_argument(fmt::format("surface mesh '{}': cell data '{}' has {} values for {} cells",
                                              mesh.name, name, values.size(), mesh.cells.size()));
  const auto& cells = mesh.cells;
  VtuBuilder b(mesh.points.size(), cells.size());
  // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
  for (const auto& entry : mesh.cell_data) {
    const auto& values = entry.second;
    b.cell_data.push_back(data_array(entry.first, "Int32", 1, values.size() * sizeof(std::int32_t),
                                     [&values](char* p) {
                                       for (int v : values) put<std::int32_t>(p, v);
                                     }));
  }
  b.point_coordinates = vector_array<3>("Points", mesh.points);
  b.cells.push_back(data_array("connectivity", "Int64", 1, connectivity * sizeof(std::int64_t),
                               [&cells](char* p) {
                                 for (const auto& cell : cells)
                                   for (int index : cell) put<std::int64_t>(p, index);
                               }));
  b.cells.push_back(
      data_array("offsets", "Int64", 1, cells.size() * sizeof(std::int64_t), [&cells](char* p) {
        std::int64_t end = 0;
        for (const auto& cell : cells)
          put<std::int64_t>(p, end += static_cast<std::int64_t>(cell.size()));
      }));
  b.cells.push_back(data_array("types", "UInt8", 1, cells.size(), [&cells](char* p) {
    for (const auto& cell : cells)
      put<std::uint8_t>(p, cell.size() == 1   ? kVtkVertex
                           : cell.size() == 3 ? kVtkTriangle
                                              : kVtkPolyLine);
  }));
  write_file_deferred(file, b.build());
}

template void write_particle_frame<2>(const std::filesystem::path&, const Particles<2>&,
                                      const std::vector<std::string>&,
                                      const std::vector<std::string>&);
template void write_particle_frame<3>(const std::filesystem::path&, const Particles<3>&,
                                      const std::vector<std::string>&,
                                      const std::vector<std::string>&);
template void write_particle_frame_index<2>(const std::filesystem::path&, const std::vector<std::string>&,
                                            const std::vector<std::string>&);
template void write_particle_frame_index<3>(const std::filesystem::path&, const std::vector<std::string>&,
                                            const std::vector<std::string>&);

}  // namespace tribo::io
