// Shapes of bodies and boundary-condition regions: {box: {min, max}}, {disk: {center, radius}}
// (2D), {sphere: {center, radius}} (3D), {polygon: {points: [[x, y], ...]}} (2D).
#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

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

}  // namespace

Shape read_shape(const DeckNode& node, int dimension, ShapeUse use) {
  const DeckMap map = node.map({"box", "disk", "sphere", "polygon"});
  const std::vector<std::string> kinds = map.keys();
  if (kinds.empty()) node.fail("expected one shape: box, disk (2D), sphere (3D) or polygon (2D)");
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
  } else {
    if (dimension != 2) shape_node.fail("a polygon is a 2D shape; it cannot be used in 3D");
    shape = read_polygon(shape_node);
  }
  shape.dimension = dimension;
  return shape;
}

}  // namespace tribo::io::deck
