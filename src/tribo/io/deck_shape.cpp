// Shapes of bodies and boundary-condition regions: {box: {min, max}}, {disk: {center, radius}}
// (2D), {sphere: {center, radius}} (3D), {polygon: {points: [[x, y], ...]}} (2D), and from files:
// {stl: FILE} (3D) and {points: FILE} (bodies only), FILE relative to the deck's folder.
#include <filesystem>

#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"
#include "tribo/io/geometry_files.hpp"

namespace tribo::io::deck {

namespace {

const char* axis_name(int d) { return d == 0 ? "x" : (d == 1 ? "y" : "z"); }

Shape read_box(const DeckNode& node, int dimension, ShapeUse use) {
  const DeckMap box = node.map({"min", "max"});
  Shape shape;
  shape.kind = Shape::Kind::Box;
  shape.min = read_vector(box.require("min"), dimension);
  const DeckNode max_node = box.require("max");
  shape.max = read_vector(max_node, dimension);
  for (int d = 0; d < dimension; ++d) {
    // A region may be flat (a line of nodes to fix); a body needs volume to hold particles.
    const bool empty = use == ShapeUse::Body ? !(shape.max[d] > shape.min[d])
                                             : !(shape.max[d] >= shape.min[d]);
    if (empty)
      max_node.fail(fmt::format("empty box: max {} = {} is {} min {} = {}", axis_name(d),
                                shape.max[d], use == ShapeUse::Body ? "not above" : "below",
                                axis_name(d), shape.min[d]));
  }
  return shape;
}

Shape read_ball(const DeckNode& node, int dimension) {
  const DeckMap ball = node.map({"center", "radius"});
  Shape shape;
  shape.kind = Shape::Kind::Ball;
  shape.center = read_vector(ball.require("center"), dimension);
  shape.radius = required_positive(ball, "radius");
  return shape;
}

Shape read_polygon(const DeckNode& node) {
  const DeckMap polygon = node.map({"points"});
  const DeckNode points_node = polygon.require("points");
  Shape shape;
  shape.kind = Shape::Kind::Polygon;
  for (const DeckNode& point : points_node.items()) shape.points.push_back(read_vector(point, 2).head<2>());
  if (shape.points.size() < 3)
    points_node.fail(fmt::format("a polygon needs at least 3 points, got {}", shape.points.size()));
  shape.dimension = 2;
  if (!(shape.measure() > 0.0)) points_node.fail("empty polygon: its points enclose no area");
  return shape;
}

// The file named at `node`, relative to the deck's folder unless absolute; in messages as the
// user would type it from where the deck was given, in the spec absolute (the deck as run lies
// in another folder, and must name the same file).
std::filesystem::path file_at(const DeckNode& node) {
  const std::string text = node.text();
  if (text.empty()) node.fail("expected a file name, got an empty text");
  const std::filesystem::path given(text);
  if (given.is_absolute()) return given.lexically_normal();
  return (std::filesystem::path(node.file()).parent_path() / given).lexically_normal();
}

std::string absolute_name(const std::filesystem::path& file) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(file, ec);
  return (ec ? file : absolute).lexically_normal().string();
}

Shape read_stl_shape(const DeckNode& node) {
  if (!node.is_scalar()) node.fail(fmt::format("expected an STL file name, got {}", node.describe()));
  const std::filesystem::path file = file_at(node);
  Shape shape;
  shape.kind = Shape::Kind::Mesh;
  try {
    shape.mesh = std::make_shared<const TriangleSolid>(read_stl(file));
  } catch (const GeometryFileError& e) {
    node.fail(e.what());
  }
  shape.file = absolute_name(file);
  shape.dimension = 3;
  if (!(shape.mesh->volume() > 0.0))
    node.fail(fmt::format("{}: the surface encloses no volume", file.string()));
  return shape;
}

Shape read_points_shape(const DeckNode& node, int dimension) {
  if (!node.is_scalar()) node.fail(fmt::format("expected a CSV file name, got {}", node.describe()));
  const std::filesystem::path file = file_at(node);
  Shape shape;
  shape.kind = Shape::Kind::Points;
  try {
    PointCloudFile cloud = read_point_cloud(file, dimension);
    shape.cloud = std::make_shared<const std::vector<Vec3>>(std::move(cloud.positions));
    if (!cloud.volumes.empty())
      shape.point_volumes = std::make_shared<const std::vector<double>>(std::move(cloud.volumes));
  } catch (const GeometryFileError& e) {
    node.fail(e.what());
  }
  shape.file = absolute_name(file);
  return shape;
}

}  // namespace

Shape read_shape(const DeckNode& node, int dimension, ShapeUse use) {
  const DeckMap map = node.map({"box", "disk", "sphere", "polygon", "stl", "points"});
  const std::vector<std::string> kinds = map.keys();
  if (kinds.empty())
    node.fail("expected one shape: box, disk (2D), sphere (3D), polygon (2D), stl (3D) or points");
  if (kinds.size() > 1)
    map.get(kinds[1])->fail(
        fmt::format("give one shape, got both '{}' and '{}'", kinds[0], kinds[1]));
  const std::string& kind = kinds[0];
  const DeckNode shape_node = *map.get(kind);
  Shape shape;
  if (kind == "box") {
    shape = read_box(shape_node, dimension, use);
  } else if (kind == "disk") {
    if (dimension != 2) shape_node.fail("a disk is a 2D shape; use sphere in 3D");
    shape = read_ball(shape_node, dimension);
  } else if (kind == "sphere") {
    if (dimension != 3) shape_node.fail("a sphere is a 3D shape; use disk in 2D");
    shape = read_ball(shape_node, dimension);
  } else if (kind == "polygon") {
    if (dimension != 2) shape_node.fail("a polygon is a 2D shape; it cannot be used in 3D");
    shape = read_polygon(shape_node);
  } else if (kind == "stl") {
    if (dimension != 3) shape_node.fail("an STL surface is a 3D shape; use polygon in 2D");
    shape = read_stl_shape(shape_node);
  } else {
    if (use != ShapeUse::Body)
      shape_node.fail("a point cloud has no inside; a region is a box, disk, sphere, polygon or stl");
    shape = read_points_shape(shape_node, dimension);
  }
  shape.dimension = dimension;
  return shape;
}

}  // namespace tribo::io::deck
