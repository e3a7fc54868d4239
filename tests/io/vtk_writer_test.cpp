#include "tribo/io/vtk_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "tribo/io/atomic_file.hpp"
#include "tribo/io/pvd_writer.hpp"
#include "../support/scratch_folder.hpp"

namespace fs = std::filesystem;
using tribo::test_support::ScratchFolder;  // a fresh, empty folder per test
using tribo::Mat3;
using tribo::Particles;
using tribo::SurfaceMesh;
using tribo::Vec2;
using tribo::Vec3;
using tribo::io::write_particle_frame;
using tribo::io::write_particle_frame_index;
using tribo::io::write_surface_mesh;

namespace {

// An independent reader of what the VTK XML format says an appended-raw file holds (VTK File
// Formats, "Appended data"): each array's offset counts from the byte after '_', and at that
// offset a UInt64 byte count precedes the values.
struct ParsedArray {
  std::string type;
  int components = 1;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
  std::vector<char> data;
};

struct ParsedVtu {
  std::string xml;  // everything before the appended data
  std::map<std::string, ParsedArray> arrays;
  std::vector<std::string> order;  // names in file order
  long points = -1, cells = -1;

  template <typename T>
  std::vector<T> values(const std::string& name) const {
    const ParsedArray& a = arrays.at(name);
    std::vector<T> out(a.bytes / sizeof(T));
    std::memcpy(out.data(), a.data.data(), a.bytes);
    return out;
  }
};

std::string attribute(const std::string& tag, const std::string& name) {
  std::smatch m;
  if (std::regex_search(tag, m, std::regex("\\s" + name + "=\"([^\"]*)\""))) return m[1];
  return "";
}

ParsedVtu parse_vtu(const fs::path& file) {
  const std::string text = tribo::io::read_file(file);
  ParsedVtu vtu;
  const std::string marker = "<AppendedData encoding=\"raw\">";
  const std::size_t appended_tag = text.find(marker);
  EXPECT_NE(appended_tag, std::string::npos);
  const std::size_t underscore = text.find('_', appended_tag + marker.size());
  EXPECT_NE(underscore, std::string::npos);
  vtu.xml = text.substr(0, appended_tag);
  const std::size_t base = underscore + 1;

  std::smatch m;
  if (std::regex_search(vtu.xml, m,
                        std::regex("NumberOfPoints=\"(\\d+)\" NumberOfCells=\"(\\d+)\""))) {
    vtu.points = std::stol(m[1]);
    vtu.cells = std::stol(m[2]);
  }
  const std::regex array_tag("<(Data)?Array [^>]*>");
  for (auto it = std::sregex_iterator(vtu.xml.begin(), vtu.xml.end(), array_tag);
       it != std::sregex_iterator(); ++it) {
    const std::string tag = it->str();
    ParsedArray a;
    a.type = attribute(tag, "type");
    const std::string components = attribute(tag, "NumberOfComponents");
    a.components = components.empty() ? 1 : std::stoi(components);
    EXPECT_EQ(attribute(tag, "format"), "appended") << tag;
    a.offset = std::stoull(attribute(tag, "offset"));
    EXPECT_LE(base + a.offset + 8, text.size()) << tag;
    std::memcpy(&a.bytes, text.data() + base + a.offset, 8);
    EXPECT_LE(base + a.offset + 8 + a.bytes, text.size()) << tag;
    a.data.assign(text.data() + base + a.offset + 8, text.data() + base + a.offset + 8 + a.bytes);
    const std::string name = attribute(tag, "Name");
    vtu.order.push_back(name);
    vtu.arrays[name] = std::move(a);
  }
  // The blocks tile the appended section with no gap, in declaration order, and the section ends
  // exactly where the closing tags begin.
  std::uint64_t expected = 0;
  for (const auto& name : vtu.order) {
    EXPECT_EQ(vtu.arrays[name].offset, expected) << name;
    expected = vtu.arrays[name].offset + 8 + vtu.arrays[name].bytes;
  }
  EXPECT_EQ(text.substr(base + expected), "\n  </AppendedData>\n</VTKFile>\n");
  return vtu;
}

// Three 2D particles with values chosen so that every component differs.
Particles<2> three_particles() {
  Particles<2> p;
  p.push_back(Vec2(0.1, 0.2), Vec2(1.0, -1.0), 2.0, 0.01, 0, 0);
  p.push_back(Vec2(0.3, 0.4), Vec2(2.0, -2.0), 3.0, 0.01, 1, 1);
  p.push_back(Vec2(0.5, 0.6), Vec2(3.0, -3.0), 4.0, 0.01, 1, 0);
  p.position[0] += Vec2(0.01, -0.02);  // displacement (0.01, -0.02) for particle 0
  Mat3 s;
  s << 1, 4, 6,  //
      4, 2, 5,   //
      6, 5, 3;
  p.stress[1] = s;
  p.stress[2](0, 0) = 100.0;  // uniaxial: von Mises = |sigma_xx|
  p.damage[2] = 0.25;
  return p;
}

}  // namespace

TEST(VtkWriter, ParticleFrameHeaderDeclaresBinaryAppendedUInt64LittleEndian) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  write_particle_frame<2>(folder / "f.vtu", three_particles(), {"velocity"});
  const ParsedVtu vtu = parse_vtu(folder / "f.vtu");
  EXPECT_NE(vtu.xml.find("<VTKFile type=\"UnstructuredGrid\""), std::string::npos);
  EXPECT_NE(vtu.xml.find("header_type=\"UInt64\""), std::string::npos);
  EXPECT_NE(vtu.xml.find("byte_order=\"LittleEndian\""), std::string::npos);
  EXPECT_EQ(vtu.points, 3);
  EXPECT_EQ(vtu.cells, 3);
  EXPECT_EQ(vtu.arrays.at("Points").type, "Float64");
  EXPECT_EQ(vtu.arrays.at("Points").components, 3);
  // Points: 3 particles x 3 components x 8 bytes.
  EXPECT_EQ(vtu.arrays.at("Points").bytes, 72u);
}

TEST(VtkWriter, ParticleValuesReadBackExactly) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  const Particles<2> p = three_particles();
  write_particle_frame<2>(folder / "f.vtu", p,
                          {"velocity", "displacement", "stress", "material", "damage"});
  const ParsedVtu vtu = parse_vtu(folder / "f.vtu");

  const std::vector<std::string> expected_order = {
      "body",     "mass",   "velocity", "displacement", "stress",  "von_mises",
      "material", "damage", "Points",   "connectivity", "offsets", "types"};
  EXPECT_EQ(vtu.order, expected_order);

  EXPECT_EQ(vtu.arrays.at("body").type, "Int32");
  EXPECT_EQ(vtu.values<std::int32_t>("body"), (std::vector<std::int32_t>{0, 1, 1}));
  EXPECT_EQ(vtu.values<double>("mass"), (std::vector<double>{2.0, 3.0, 4.0}));
  EXPECT_EQ(vtu.values<std::int32_t>("material"), (std::vector<std::int32_t>{0, 1, 0}));
  EXPECT_EQ(vtu.values<double>("damage"), (std::vector<double>{0.0, 0.0, 0.25}));
  // 2D vectors are stored with z = 0.
  EXPECT_EQ(vtu.values<double>("velocity"), (std::vector<double>{1, -1, 0, 2, -2, 0, 3, -3, 0}));
  EXPECT_EQ(vtu.values<double>("Points"),
            (std::vector<double>{0.1 + 0.01, 0.2 - 0.02, 0, 0.3, 0.4, 0, 0.5, 0.6, 0}));
  const std::vector<double> u = vtu.values<double>("displacement");
  ASSERT_EQ(u.size(), 9u);
  // Displacement is position - reference; (0.1 + 0.01) - 0.1 is 0.01 to within one rounding.
  EXPECT_NEAR(u[0], 0.01, 1e-16);
  EXPECT_NEAR(u[1], -0.02, 1e-16);
  for (std::size_t k = 2; k < 9; ++k) EXPECT_EQ(u[k], 0.0) << k;
  // Stress in VTK's symmetric-tensor order xx, yy, zz, xy, yz, xz.
  EXPECT_EQ(vtu.arrays.at("stress").components, 6);
  const std::vector<double> s = vtu.values<double>("stress");
  ASSERT_EQ(s.size(), 18u);
  EXPECT_EQ(std::vector<double>(s.begin() + 6, s.begin() + 12),
            (std::vector<double>{1, 2, 3, 4, 5, 6}));
  // von Mises sqrt(((sxx-syy)^2 + (syy-szz)^2 + (szz-sxx)^2)/2 + 3(sxy^2 + syz^2 + sxz^2)):
  // particle 1: sqrt((1 + 1 + 4)/2 + 3 (16 + 25 + 36)) = sqrt(234); particle 2 (uniaxial): 100.
  const std::vector<double> vm = vtu.values<double>("von_mises");
  ASSERT_EQ(vm.size(), 3u);
  EXPECT_EQ(vm[0], 0.0);
  EXPECT_NEAR(vm[1], std::sqrt(234.0), 1e-12);
  EXPECT_NEAR(vm[2], 100.0, 1e-12);
  // One VTK_VERTEX (type 1) cell per particle.
  EXPECT_EQ(vtu.values<std::int64_t>("connectivity"), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(vtu.values<std::int64_t>("offsets"), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(vtu.values<std::uint8_t>("types"), (std::vector<std::uint8_t>{1, 1, 1}));
}

TEST(VtkWriter, UnknownFieldsAreSkippedAndBodyAndMassAlwaysWritten) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  write_particle_frame<2>(folder / "f.vtu", three_particles(), {"no-such-field", "damage"});
  const ParsedVtu vtu = parse_vtu(folder / "f.vtu");
  EXPECT_EQ(vtu.order, (std::vector<std::string>{"body", "mass", "damage", "Points", "connectivity",
                                                 "offsets", "types"}));
}

TEST(VtkWriter, MaterialNamesGoToAStringFieldArray) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  write_particle_frame<2>(folder / "f.vtu", three_particles(), {"material"}, {"block", "floor"});
  const ParsedVtu vtu = parse_vtu(folder / "f.vtu");
  ASSERT_TRUE(vtu.arrays.count("material_names"));
  EXPECT_EQ(vtu.arrays.at("material_names").type, "String");
  const auto& data = vtu.arrays.at("material_names").data;
  EXPECT_EQ(std::string(data.begin(), data.end()), std::string("block\0floor\0", 12));
}

TEST(VtkWriter, ThreeDimensionalFrameKeepsTheZComponents) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  Particles<3> p;
  p.push_back(Vec3(1, 2, 3), Vec3(4, 5, 6), 1.5, 1e-6, 0, 0);
  write_particle_frame<3>(folder / "f.vtu", p, {"velocity"});
  const ParsedVtu vtu = parse_vtu(folder / "f.vtu");
  EXPECT_EQ(vtu.values<double>("Points"), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(vtu.values<double>("velocity"), (std::vector<double>{4, 5, 6}));
}

TEST(VtkWriter, EmptyFrameIsStillAValidFile) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  write_particle_frame<2>(folder / "f.vtu", Particles<2>{}, {"velocity"});
  const ParsedVtu vtu = parse_vtu(folder / "f.vtu");
  EXPECT_EQ(vtu.points, 0);
  EXPECT_EQ(vtu.arrays.at("Points").bytes, 0u);
}

TEST(VtkWriter, MismatchedParticleArraysThrowBeforeWriting) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  Particles<2> p = three_particles();
  p.damage.pop_back();
  EXPECT_THROW(write_particle_frame<2>(folder / "f.vtu", p, {"damage"}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(folder / "f.vtu"));
}

TEST(VtkWriter, SurfaceMeshCellTypesFollowTheirPointCounts) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  SurfaceMesh mesh;
  mesh.name = "cracks";
  mesh.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0.5)};
  mesh.cells = {{0, 1}, {0, 1, 2}, {3}, {0, 1, 2, 3}};
  write_surface_mesh(folder / "cracks.vtu", mesh);
  const ParsedVtu vtu = parse_vtu(folder / "cracks.vtu");
  EXPECT_EQ(vtu.points, 4);
  EXPECT_EQ(vtu.cells, 4);
  EXPECT_EQ(vtu.values<double>("Points"),
            (std::vector<double>{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0.5}));
  EXPECT_EQ(vtu.values<std::int64_t>("connectivity"),
            (std::vector<std::int64_t>{0, 1, 0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(vtu.values<std::int64_t>("offsets"), (std::vector<std::int64_t>{2, 5, 6, 10}));
  // VTK_POLY_LINE = 4, VTK_TRIANGLE = 5, VTK_VERTEX = 1 (vtkCellType.h).
  EXPECT_EQ(vtu.values<std::uint8_t>("types"), (std::vector<std::uint8_t>{4, 5, 1, 4}));
}

TEST(VtkWriter, SurfaceMeshWithABadPointIndexThrowsAndWritesNothing) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  SurfaceMesh mesh;
  mesh.name = "cracks";
  mesh.points = {Vec3(0, 0, 0), Vec3(1, 0, 0)};
  mesh.cells = {{0, 2}};
  EXPECT_THROW(write_surface_mesh(folder / "cracks.vtu", mesh), std::invalid_argument);
  mesh.cells = {{}};
  EXPECT_THROW(write_surface_mesh(folder / "cracks.vtu", mesh), std::invalid_argument);
  EXPECT_FALSE(fs::exists(folder / "cracks.vtu"));
}

// What VTK must read back from a frame of three_particles() with velocities times `scale`, as the
// JSON of tests/io/read_vtu.py; `more` adds its other keys.
std::string three_particles_expected(int scale, const std::string& more) {
  const auto v = [scale](int i) { return std::to_string(i * scale); };
  return R"({"arrays": {"body": [0, 1, 1], "mass": [2, 3, 4], "material": [0, 1, 0], "damage": [0, 0, 0.25],
  "velocity": [[)" + v(1) + ", -" + v(1) + ", 0], [" + v(2) + ", -" + v(2) + ", 0], [" + v(3) + ", -" + v(3) +
         R"(, 0]],
  "stress": [[0, 0, 0, 0, 0, 0], [1, 2, 3, 4, 5, 6], [100, 0, 0, 0, 0, 0]],
  "von_mises": [0, 15.297058540778355, 100]},
  "points": [[0.11, 0.18, 0], [0.3, 0.4, 0], [0.5, 0.6, 0]], )" + more + "}";
}

// tests/io/read_vtu.py on `frame` (3 points) and folder/run.pvd against folder/expected.json.
bool reads_back_with_vtk(const fs::path& frame, const fs::path& folder) {
  const std::string command = std::string("/usr/bin/python3 ") + TRIBO_SOURCE_DIR + "/tests/io/read_vtu.py " +
                              frame.string() + " " + (folder / "run.pvd").string() + " 3 " +
                              (folder / "expected.json").string();
  const bool ok = std::system(command.c_str()) == 0;
  if (!ok) ADD_FAILURE() << command;
  return ok;
}

// The real consumer: VTK's own XML readers (python3-vtk9) must load the frames and the .pvd and
// see the values written. tests/io/read_vtu.py holds the checks; the expected values go in JSON.
TEST(VtkWriter, FramesAndPvdReadBackWithVtkItself) {
  if (std::system("/usr/bin/python3 -c 'import vtkmodules.vtkIOXML' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-vtk9 is not installed under /usr/bin/python3";
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  fs::create_directories(folder / "frames");
  Particles<2> p = three_particles();
  tribo::io::PvdWriter pvd(folder / "run.pvd");
  const std::vector<std::string> fields = {"velocity", "displacement", "stress", "material",
                                           "damage"};
  for (int frame = 0; frame < 3; ++frame) {
    const std::string name = "frames/frame_00000" + std::to_string(frame) + ".vtu";
    write_particle_frame<2>(folder / name, p, fields, {"block", "floor"});
    pvd.add(0.01 * frame, name);
    for (auto& v : p.velocity) v *= 2.0;  // frames differ: velocities 1x, 2x, 4x
  }
  // Expected values of the last frame (velocities x4) and of the collection.
  std::ofstream(folder / "expected.json") << three_particles_expected(
      4, R"("field_strings": {"material_names": ["block", "floor"]}, "pvd_times": [0, 0.01, 0.02])");
  EXPECT_TRUE(reads_back_with_vtk(folder / "frames/frame_000002.vtu", folder));
}

// A frame of a run across processes: two pieces (particles 0-1 and 2 of the frame above, as two
// processes would hold them) and the .pvtu index, listed in a .pvd. VTK's parallel reader must
// assemble 3 points with the same arrays and values as the one-piece frame.
TEST(VtkWriter, APieceWiseFrameReadsBackAsOneWithVtkItself) {
  if (std::system("/usr/bin/python3 -c 'import vtkmodules.vtkIOXML' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-vtk9 is not installed under /usr/bin/python3";
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  fs::create_directories(folder / "frames");
  const Particles<2> all = three_particles();
  Particles<2> first, second;
  for (std::size_t i = 0; i < 3; ++i) {
    Particles<2>& part = i < 2 ? first : second;
    part.push_back(all.reference_position[i], all.velocity[i], all.mass[i], all.volume[i], all.body[i], all.material[i]);
    part.position.back() = all.position[i];
    part.stress.back() = all.stress[i];
    part.damage.back() = all.damage[i];
  }
  const std::vector<std::string> fields = {"velocity", "displacement", "stress", "material", "damage"};
  write_particle_frame<2>(folder / "frames/frame_000000_p0.vtu", first, fields, {"block", "floor"});
  write_particle_frame<2>(folder / "frames/frame_000000_p1.vtu", second, fields, {"block", "floor"});
  write_particle_frame_index<2>(folder / "frames/frame_000000.pvtu", {"frame_000000_p0.vtu", "frame_000000_p1.vtu"},
                                fields);
  tribo::io::PvdWriter pvd(folder / "run.pvd");
  pvd.add(0.0, "frames/frame_000000.pvtu");
  std::ofstream(folder / "expected.json") << three_particles_expected(1, R"("pvd_times": [0])");
  EXPECT_TRUE(reads_back_with_vtk(folder / "frames/frame_000000.pvtu", folder));
}

TEST(VtkWriter, SurfaceMeshReadsBackWithVtkItself) {
  if (std::system("/usr/bin/python3 -c 'import vtkmodules.vtkIOXML' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-vtk9 is not installed under /usr/bin/python3";
  const ScratchFolder scratch;
  SurfaceMesh mesh;
  mesh.name = "cracks";
  mesh.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0.5)};
  mesh.cells = {{0, 1}, {0, 1, 2}, {3}, {0, 1, 2, 3}};
  write_surface_mesh(scratch.path / "cracks.vtu", mesh);
  // VTK's reader must see 4 points and the cell types 4 (poly line), 5 (triangle), 1 (vertex), 4.
  const std::string command =
      "/usr/bin/python3 -c 'import sys; from vtkmodules.vtkIOXML import "
      "vtkXMLUnstructuredGridReader as R; r = R(); r.SetFileName(sys.argv[1]); r.Update(); "
      "g = r.GetOutput(); t = [g.GetCellType(i) for i in range(g.GetNumberOfCells())]; "
      "n = [g.GetCell(i).GetNumberOfPoints() for i in range(g.GetNumberOfCells())]; "
      "sys.exit(0 if g.GetNumberOfPoints() == 4 and t == [4, 5, 1, 4] and n == [2, 3, 1, 4] "
      "and g.GetPoint(3) == (0.0, 1.0, 0.5) else 1)' " +
      (scratch.path / "cracks.vtu").string();
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}
