#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {
std::string vector_form(int dimension) { return dimension == 2 ? "[x, y]" : "[x, y, z]"; }
}  // namespace

Vec3 read_vector(const DeckNode& node, int dimension) {
  if (!node.is_sequence())
    node.fail(fmt::format("expected a list of {} numbers {}, got {}", dimension,
                          vector_form(dimension), node.describe()));
  const std::vector<DeckNode> items = node.items();
  if (static_cast<int>(items.size()) != dimension)
    node.fail(fmt::format("expected {} numbers {} for dimension {}, got {}", dimension,
                          vector_form(dimension), dimension, items.size()));
  Vec3 out = Vec3::Zero();
  for (int d = 0; d < dimension; ++d) out[d] = items[d].number();
  return out;
}

Vec3 read_scalar_or_vector(const DeckNode& node, int dimension) {
  if (node.is_sequence()) return read_vector(node, dimension);
  const double value = node.number();
  Vec3 out = Vec3::Zero();
  for (int d = 0; d < dimension; ++d) out[d] = value;
  return out;
}

std::string format_point(const Vec3& point, int dimension) {
  return dimension == 2 ? fmt::format("({}, {})", point.x(), point.y())
                        : fmt::format("({}, {}, {})", point.x(), point.y(), point.z());
}

bool inside_box(const Vec3& lo, const Vec3& hi, const Vec3& min, const Vec3& max, int dimension) {
  for (int d = 0; d < dimension; ++d)
    if (lo[d] < min[d] || hi[d] > max[d]) return false;
  return true;
}

double positive(const DeckMap& map, std::string_view key, double fallback) {
  auto node = map.get(key);
  if (!node) return fallback;
  const double value = node->number();
  if (!(value > 0.0)) node->fail(fmt::format("must be > 0, got {}", value));
  return value;
}

double non_negative(const DeckMap& map, std::string_view key, double fallback) {
  auto node = map.get(key);
  if (!node) return fallback;
  const double value = node->number();
  if (!(value >= 0.0)) node->fail(fmt::format("must be >= 0, got {}", value));
  return value;
}

double bounded(const DeckMap& map, std::string_view key, double fallback, double low,
               bool low_open, double high, bool high_open) {
  auto node = map.get(key);
  if (!node) return fallback;
  const double value = node->number();
  const bool above = low_open ? value > low : value >= low;
  const bool below = high_open ? value < high : value <= high;
  if (!above || !below)
    node->fail(fmt::format("must be in {}{}, {}{}, got {}", low_open ? "(" : "[", low, high,
                           high_open ? ")" : "]", value));
  return value;
}

double required_positive(const DeckMap& map, std::string_view key) {
  map.require(key);
  return positive(map, key, 0.0);
}

std::string read_name(const DeckNode& node) {
  std::string name = node.text();
  if (name.empty()) node.fail("expected a name, got an empty string");
  return name;
}

std::array<std::string, 2> read_name_pair(const DeckNode& node) {
  if (!node.is_sequence()) node.fail(fmt::format("expected two names [a, b], got {}", node.describe()));
  const std::vector<DeckNode> items = node.items();
  if (items.size() != 2) node.fail(fmt::format("expected two names [a, b], got {}", items.size()));
  std::array<std::string, 2> names{read_name(items[0]), read_name(items[1])};
  if (names[0] == names[1])
    items[1].fail(fmt::format("the two names must differ, got '{}' twice", names[0]));
  return names;
}

int resolve_material(const DeckNode& node, const std::string& name, const SimulationSpec& spec) {
  const int index = spec.material_index(name);
  if (index >= 0) return index;
  std::vector<std::string_view> names;
  for (const MaterialSpec& m : spec.materials) names.push_back(m.name);
  const std::string near = closest_name(name, names);
  if (!near.empty()) node.fail(fmt::format("unknown material '{}'; did you mean '{}'?", name, near));
  node.fail(fmt::format("unknown material '{}'; the materials are {}", name, join_choices(names)));
}

}  // namespace tribo::io::deck
