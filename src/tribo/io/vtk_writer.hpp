#pragma once
// VTK XML UnstructuredGrid (.vtu) files for ParaView: binary, appended raw encoding (no base64, no
// compression), header_type UInt64, little endian; points are Float64.
// Format: "VTK File Formats", VTK User's Guide 11th ed., section 19.3 (XML formats).
#include <filesystem>
#include <string>
#include <vector>

#include "tribo/core/particles.hpp"
#include "tribo/core/simulation.hpp"

namespace tribo::io {

// One frame of particles: one VTK_VERTEX cell per particle. Point arrays, in this order:
//   body (Int32), mass (Float64, kg), then per requested field
//   velocity     Float64 x3 (m/s; z = 0 in 2D)
//   displacement Float64 x3 (m; position - reference_position)
//   stress       Float64 x6 (Pa; xx, yy, zz, xy, yz, xz: VTK's symmetric-tensor order) and
//   von_mises    Float64    (Pa; sqrt(3 J2))
//   material     Int32
//   damage       Float64
// Unknown field names are skipped: the deck reader validates output.fields. When material_names
// is given it is stored as a String field-data array "material_names" (index = material value).
// Written with write_file_atomically: the file is complete or absent.
template <int Dim>
void write_particle_frame(const std::filesystem::path& file, const Particles<Dim>& particles,
                          const std::vector<std::string>& fields,
                          const std::vector<std::string>& material_names = {});

// The frame of a run across processes (docs/parallel.md): each process writes its particles as a
// piece with write_particle_frame, and one process writes this index (.pvtu, a VTK
// PUnstructuredGrid) naming the pieces (paths relative to the index's folder) and declaring the
// same point arrays as the pieces for the same `fields`. ParaView opens the index as one data set.
// Written with write_file_atomically.
template <int Dim>
void write_particle_frame_index(const std::filesystem::path& file, const std::vector<std::string>& pieces,
                                const std::vector<std::string>& fields);

// Segments and triangles (cracks, PD contact pairs): a cell of 1 point is a VTK_VERTEX, of 3 a
// VTK_TRIANGLE, of 2 or 4+ a VTK_POLY_LINE; mesh.cell_data as Int32 CellData arrays. Throws
// std::invalid_argument for an empty cell, a point index out of range, or cell data of the wrong
// length.
void write_surface_mesh(const std::filesystem::path& file, const SurfaceMesh& mesh);

}  // namespace tribo::io
