// Bodies from files (docs/deck.md, "shapes"): an STL sphere (binary) and a rotated STL cube
// (ASCII) filled by MPM at 4 particles per cell side hold the analytic volume within 2%; PD
// lattices of them too; point clouds give one particle or PD point per line, with their volumes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <numeric>
#include <string>

#include <fmt/format.h>
#include <omp.h>

#include "tribo/io/deck_reader.hpp"
#include "tribo/io/deck_writer.hpp"
#include "tribo/mpm/particle_filling.hpp"
#include "tribo/pd/lattice.hpp"
#include "../support/uv_sphere.hpp"

namespace tribo {
namespace {

using tribo::test_support::uv_sphere;

namespace fs = std::filesystem;
using Triangle = std::array<Vec3, 3>;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tribo-geometry-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

// A cube of side `a` centred at c, turned by `angle` about z and then about x.
std::vector<Triangle> turned_cube(const Vec3& c, double a, double angle) {
  const Mat3 turn = (Eigen::AngleAxisd(angle, Vec3::UnitX()) * Eigen::AngleAxisd(angle, Vec3::UnitZ()))
                        .toRotationMatrix();
  auto corner = [&](int i) {
    return Vec3(c + turn * (0.5 * a * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1)));
  };
  const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::vector<Triangle> t;
  for (const auto& f : faces) {
    t.push_back({corner(f[0]), corner(f[1]), corner(f[2])});
    t.push_back({corner(f[0]), corner(f[2]), corner(f[3])});
  }
  return t;
}

void write_binary_stl(const fs::path& file, const std::vector<Triangle>& triangles) {
  std::ofstream out(file, std::ios::binary);
  const std::string header(80, ' ');
  out.write(header.data(), 80);
  const auto count = static_cast<std::uint32_t>(triangles.size());
  out.write(reinterpret_cast<const char*>(&count), 4);
  for (const Triangle& t : triangles) {
    float v[12] = {0, 0, 0};
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) v[3 + 3 * k + d] = static_cast<float>(t[k][d]);
    out.write(reinterpret_cast<const char*>(v), sizeof(v));
    out.write("\0\0", 2);
  }
}

void write_ascii_stl(const fs::path& file, const std::vector<Triangle>& triangles) {
  std::string text = "solid cube\n";
  for (const Triangle& t : triangles) {
    text += "  facet normal 0 0 0\n    outer loop\n";
    for (const Vec3& v : t) text += fmt::format("      vertex {} {} {}\n", v.x(), v.y(), v.z());
    text += "    endloop\n  endfacet\n";
  }
  write_text(file, text + "endsolid cube\n");
}

template <int Dim>
double total_volume(const Particles<Dim>& p, int body) {
  double v = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.body[i] == body) v += p.volume[i];
  return v;
}

constexpr double kSphereRadius = 0.3;
constexpr double kCubeSide = 0.35;

SimulationSpec sphere_and_cube(const fs::path& dir, const std::string& method,
                               const std::string& method_section) {
  // Analytic: 4/3 pi r^3 and a^3. The sphere's 96 x 48 tessellation lies inside the ball by at
  // most r (1 - cos(pi/48)) = 0.05% of r (volume deficit < 0.2%): small next to the 2% asked.
  write_binary_stl(dir / "sphere.stl", uv_sphere(Vec3(0.5, 0.5, 0.5), kSphereRadius, 96, 48));
  write_ascii_stl(dir / "cube.stl", turned_cube(Vec3(1.4, 0.5, 0.5), kCubeSide, 0.4));
  const std::string deck = fmt::format(R"(method: {}
dimension: 3
time: {{end: 1.0e-4}}
materials: [{{name: m, model: {}, youngs_modulus: 1.0e6}}]
bodies:
  - {{name: sphere, material: m, geometry: {{stl: sphere.stl}}}}
  - {{name: cube, material: m, geometry: {{stl: cube.stl}}}}
{})",
                                       method, method == "mpm" ? "linear-elastic" : "lps",
                                       method_section);
  write_text(dir / "deck.yaml", deck);
  return io::read_deck(dir / "deck.yaml");
}

TEST(GeometryFill, StlSphereAndCubeHoldTheirVolumeInMpmAtFourParticlesPerCellSide) {
  const fs::path dir = scratch("mpm-stl");
  // Cell 0.05: the sphere is 12 cells across, so 48 particles across at 4 per side.
  const SimulationSpec spec = sphere_and_cube(
      dir, "mpm", "mpm: {grid: {min: [0, 0, 0], max: [2, 1, 1], cell: 0.05}, particles_per_cell: 4}");
  ASSERT_EQ(spec.bodies[0].geometry.kind, Shape::Kind::Mesh);
  mpm::Grid<3> grid(Vec3(0, 0, 0), Vec3(2, 1, 1), Vec3::Constant(0.05));
  Particles<3> particles;
  mpm::fill_bodies<3>(spec, grid, particles);
  const double sphere = 4.0 / 3.0 * std::numbers::pi * std::pow(kSphereRadius, 3);
  const double cube = std::pow(kCubeSide, 3);
  const double sphere_error = total_volume(particles, 0) / sphere - 1.0;
  const double cube_error = total_volume(particles, 1) / cube - 1.0;
  RecordProperty("sphere_volume_error", fmt::format("{:+.4f}%", 100 * sphere_error));
  RecordProperty("cube_volume_error", fmt::format("{:+.4f}%", 100 * cube_error));
  std::printf("MPM, 4 particles per cell side: sphere volume %+.3f%%, turned cube %+.3f%%\n",
              100 * sphere_error, 100 * cube_error);
  // The issue's bar (2%); the voxel error of a body 48 particles across is a fraction of that.
  EXPECT_LT(std::abs(sphere_error), 0.02);
  EXPECT_LT(std::abs(cube_error), 0.02);
  // With the default clipped fill each cut sub-cell holds its share of the body to a quarter of its
  // side (core/geometry.hpp), so the particles hold the triangulated surface's own volume far
  // closer than the centre rule's staircase: within 0.05% (measured below 0.01%; the tessellated
  // sphere itself lies up to 0.2% inside the analytic ball, which the bound above absorbs).
  const double sphere_mesh = spec.bodies[0].geometry.mesh->volume();
  const double cube_mesh = spec.bodies[1].geometry.mesh->volume();
  std::printf("clipped fill against the meshes' volumes: sphere %+.4f%%, cube %+.4f%%\n",
              100 * (total_volume(particles, 0) / sphere_mesh - 1.0), 100 * (total_volume(particles, 1) / cube_mesh - 1.0));
  EXPECT_NEAR(total_volume(particles, 0) / sphere_mesh, 1.0, 5e-4);
  EXPECT_NEAR(total_volume(particles, 1) / cube_mesh, 1.0, 5e-4);
}

// The clipped fill tests its rows of sub-cells in parallel and appends them in the serial order:
// the particles must be those of a serial sweep (first axis fastest), in that order, bit for bit,
// whatever the thread count.
TEST(GeometryFill, ClippedFillIsTheSerialSweepOnAnyThreadCount) {
  SimulationSpec spec = io::read_deck(fs::path(TRIBO_SOURCE_DIR) / "tests/decks/good/mpm_centers_fill_2d.yaml");
  spec.mpm.particle_fill = ParticleFill::Clipped;
  const mpm::Grid<2> grid(spec.mpm.grid_min.head<2>(), spec.mpm.grid_max.head<2>(), spec.mpm.cell.head<2>());
  const Vec<2> sub = grid.cell / spec.mpm.particles_per_cell;
  // The serial sweep, written out here: every sub-cell of each body's bounding box, x fastest.
  std::vector<std::pair<double, Vec<2>>> expected;
  for (const BodySpec& body : spec.bodies) {
    Vec3 lo, hi;
    body.geometry.bounds(lo, hi);
    const int i0 = static_cast<int>(std::floor((lo.x() - grid.origin.x()) / sub.x()));
    const int i1 = static_cast<int>(std::ceil((hi.x() - grid.origin.x()) / sub.x()));
    const int j0 = static_cast<int>(std::floor((lo.y() - grid.origin.y()) / sub.y()));
    const int j1 = static_cast<int>(std::ceil((hi.y() - grid.origin.y()) / sub.y()));
    for (int j = j0; j < j1; ++j)
      for (int i = i0; i < i1; ++i) {
        const Vec3 x(grid.origin.x() + (i + 0.5) * sub.x(), grid.origin.y() + (j + 0.5) * sub.y(), 0.0);
        const CellOverlap part = cell_overlap(body.geometry, x, Vec3(sub.x(), sub.y(), 0.0));
        if (part.fraction > 0.0) expected.emplace_back(part.fraction, part.centroid.head<2>());
      }
  }
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    omp_set_num_threads(threads);
    Particles<2> particles;
    mpm::fill_bodies<2>(spec, grid, particles);
    ASSERT_EQ(particles.size(), expected.size());
    const double whole = sub.prod() * spec.thickness;
    for (std::size_t p = 0; p < expected.size(); ++p) {
      EXPECT_EQ(particles.position[p], expected[p].second) << p;
      EXPECT_EQ(particles.volume[p], whole * expected[p].first) << p;
    }
  }
  omp_set_num_threads(1);
}

TEST(GeometryFill, StlSphereAndCubeHoldTheirVolumeInPd) {
  const fs::path dir = scratch("pd-stl");
  const SimulationSpec spec = sphere_and_cube(dir, "pd", "pd: {spacing: 0.0125}");
  const pd::LatticeBodies<3> lattice = pd::fill_bodies<3>(spec);
  const double sphere = 4.0 / 3.0 * std::numbers::pi * std::pow(kSphereRadius, 3);
  const double cube = std::pow(kCubeSide, 3);
  EXPECT_LT(std::abs(total_volume(lattice.points, 0) / sphere - 1.0), 0.02);
  EXPECT_LT(std::abs(total_volume(lattice.points, 1) / cube - 1.0), 0.02);
}

TEST(GeometryFill, PointCloudsGiveOneParticleOrPointPerLineWithTheirVolumes) {
  const fs::path dir = scratch("cloud");
  write_text(dir / "with_volume.csv", "# a header and two points\nx, y, volume\n0.2, 0.3, 1e-4\n0.25,0.3,2e-4\n");
  write_text(dir / "bare.csv", "0.2 ,0.5\n0.3, 0.5\n0.4, 0.5\n");
  const std::string deck = R"(method: mpm
thickness: 0.5
time: {end: 1.0e-4}
materials: [{name: m, density: 2000, youngs_modulus: 1.0e6}]
bodies:
  - {name: a, material: m, geometry: {points: with_volume.csv}, velocity: [1, 0]}
  - {name: b, material: m, geometry: {points: bare.csv}}
mpm: {grid: {min: [0, 0], max: [1, 1], cell: 0.1}}
)";
  write_text(dir / "deck.yaml", deck);
  const SimulationSpec spec = io::read_deck(dir / "deck.yaml");
  mpm::Grid<2> grid(Vec2(0, 0), Vec2(1, 1), Vec2::Constant(0.1));
  Particles<2> particles;
  mpm::fill_bodies<2>(spec, grid, particles);
  ASSERT_EQ(particles.size(), 5u);
  EXPECT_EQ(particles.position[1], Vec2(0.25, 0.3));
  EXPECT_DOUBLE_EQ(particles.volume[1], 2e-4 * 0.5);  // area times thickness
  EXPECT_DOUBLE_EQ(particles.mass[1], 2000 * 2e-4 * 0.5);
  EXPECT_EQ(particles.velocity[0], Vec2(1, 0));
  EXPECT_DOUBLE_EQ(particles.volume[4], 0.05 * 0.05 * 0.5);  // a sub-cell (2 per side) by default

  // The deck as run names the files by absolute path and reads back the same points.
  const std::string written = io::write_deck(spec);
  EXPECT_NE(written.find(fs::absolute(dir / "bare.csv").lexically_normal().string()), std::string::npos)
      << written;
  const SimulationSpec again = io::parse_deck(written, "/elsewhere/deck.yaml");
  EXPECT_EQ(io::write_deck(again), written);
  EXPECT_EQ(*again.bodies[0].geometry.cloud, *spec.bodies[0].geometry.cloud);
  EXPECT_EQ(*again.bodies[0].geometry.point_volumes, *spec.bodies[0].geometry.point_volumes);

  // PD: one point per line as well, with the lattice cell's volume when the file has none.
  std::string pd_deck = deck;
  pd_deck.replace(pd_deck.find("mpm: {grid"), std::string::npos, "pd: {spacing: 0.1}\n");
  pd_deck.replace(pd_deck.find("density: 2000,"), 14, "density: 2000, model: lps,");
  pd_deck.replace(pd_deck.find("method: mpm"), 11, "method: pd");
  write_text(dir / "pd.yaml", pd_deck);
  const pd::LatticeBodies<2> lattice = pd::fill_bodies<2>(io::read_deck(dir / "pd.yaml"));
  ASSERT_EQ(lattice.points.size(), 5u);
  EXPECT_DOUBLE_EQ(lattice.points.volume[0], 1e-4 * 0.5);
  EXPECT_DOUBLE_EQ(lattice.points.volume[3], 0.1 * 0.1 * 0.5);
  // The initial centroid is the mass centre: (0.2 * 1 + 0.25 * 2) / 3 in x.
  EXPECT_NEAR(lattice.centroid[0].x(), (0.2 + 0.5) / 3.0, 1e-15);
}

}  // namespace
}  // namespace tribo
