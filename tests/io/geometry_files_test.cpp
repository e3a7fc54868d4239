// Geometry files (io/geometry_files.hpp): STL in both encodings and CSV point clouds are read as
// written, and each kind of malformed file is an error naming the file and the line or triangle.
#include "tribo/io/geometry_files.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace tribo::io {
namespace {

namespace fs = std::filesystem;

fs::path write(const std::string& name, const std::string& bytes) {
  const fs::path dir = fs::temp_directory_path() / "tribo-geometry-files-test";
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file, std::ios::binary) << bytes;
  return file;
}

std::string error_of(auto&& read) {
  try {
    read();
  } catch (const GeometryFileError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string binary_stl(const std::string& header, std::uint32_t count, int triangles) {
  std::string bytes = header;
  bytes.resize(80, ' ');
  bytes.append(reinterpret_cast<const char*>(&count), 4);
  for (int t = 0; t < triangles; ++t) {
    const float v[12] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, static_cast<float>(t)};
    bytes.append(reinterpret_cast<const char*>(v), sizeof(v));
    bytes.append(2, '\0');
  }
  return bytes;
}

TEST(GeometryFiles, BinaryStlWhoseHeaderStartsWithSolidIsReadAsBinary) {
  // Some CAD programs write "solid" into a binary header: the size decides.
  const auto t = read_stl(write("solid_header.stl", binary_stl("solid by a CAD program", 2, 2)));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1][2], Vec3(0, 1, 1));
}

TEST(GeometryFiles, AsciiStlWithTwoSolids) {
  const std::string facet =
      "facet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 1 0\n endloop\nendfacet\n";
  const auto t = read_stl(write("two.stl", "solid a\n" + facet + "endsolid a\nsolid b\n" + facet + facet + "endsolid b\n"));
  EXPECT_EQ(t.size(), 3u);
  const std::string cut = "solid a\n" + facet.substr(0, facet.find("endloop"));
  EXPECT_NE(error_of([&] { read_stl(write("cut.stl", cut)); }).find("cut.stl:7: the file ends inside triangle 1"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_stl(write("empty.stl", "")); }).find("empty.stl: 0 bytes: too short"), std::string::npos);
}

TEST(GeometryFiles, CsvColumnsByHeaderOrByCount) {
  const auto a = read_point_cloud(write("a.csv", "# comment\n\nvolume, y, x\n2e-6, 0.2, 0.1\n3e-6, 0.2, 0.3\n"), 2);
  ASSERT_EQ(a.positions.size(), 2u);
  EXPECT_EQ(a.positions[1], Vec3(0.3, 0.2, 0));
  EXPECT_EQ(a.volumes, (std::vector<double>{2e-6, 3e-6}));
  const auto b = read_point_cloud(write("b.csv", "0.1, 0.2, 0.3, 1e-9\r\n0.1, 0.2, 0.4, 1e-9\r\n"), 3);
  EXPECT_EQ(b.positions[1], Vec3(0.1, 0.2, 0.4));
  EXPECT_EQ(b.volumes.size(), 2u);
  const auto c = read_point_cloud(write("c.csv", "0.1 , 0.2 , 0.3\n"), 3);
  EXPECT_TRUE(c.volumes.empty());
}

TEST(GeometryFiles, CsvErrorsNameTheFileAndLine) {
  auto error = [](const std::string& name, const std::string& text, int dim) {
    return error_of([&] { read_point_cloud(write(name, text), dim); });
  };
  EXPECT_NE(error("dup.csv", "0,0\n1,0\n0,0\n", 2).find("dup.csv:3: the point (0, 0) is given twice (first at line 1)"),
            std::string::npos);
  EXPECT_NE(error("z2d.csv", "x,y,z\n", 2).find("z2d.csv:1: column 3: a z column in a 2D deck"), std::string::npos);
  EXPECT_NE(error("noz.csv", "x,y\n", 3).find("noz.csv:1: the header has no 'z' column"), std::string::npos);
  EXPECT_NE(error("vol.csv", "0,0,1\n1,0,-1\n", 2).find("vol.csv:2: column 3 (volume): must be > 0"), std::string::npos);
  EXPECT_NE(error("nan.csv", "0,nan\n", 2).find("nan.csv:1: column 2 (y): nan is not finite"), std::string::npos);
  EXPECT_NE(error("none.csv", "# nothing\n", 2).find("none.csv:1: no point in the file"), std::string::npos);
  EXPECT_NE(error("name.csv", "x,y,w\n", 2).find("name.csv:1: column 3: unknown column name 'w'"), std::string::npos);
}

}  // namespace
}  // namespace tribo::io
