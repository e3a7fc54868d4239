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

namespace {
// UTF-8 without control characters, at most max_bytes (names and the title).
void check_printable(const DeckNode& node, const std::string& name, std::size_t max_bytes, const char* what);
}  // namespace

std::string read_title(const DeckNode& node) {
  std::string title = node.text();
  check_printable(node, title, 4096, "a title");
  return title;
}

std::string read_name(const DeckNode& node) {
  std::string name = node.text();
  if (name.empty()) node.fail("expected a name, got an empty string");
  check_printable(node, name, 256, "a name");
  return name;
}

namespace {
void check_printable(const DeckNode& node, const std::string& name, std::size_t max_bytes, const char* what) {
  // Names become CSV column names (history.csv, reloaded line by line on restart), VTK array and
  // field-data strings and folder names: a control character (newline, tab, NUL, escape, ...) breaks
  // each of them. check_text() keeps them out of the file, but a double-quoted "\n" or "\0" decodes
  // to one. Commas and quotes are fine: the CSV writer quotes them (RFC 4180).
  if (name.size() > max_bytes) node.fail(fmt::format("{} is at most {} bytes, got {}", what, max_bytes, name.size()));
  for (std::size_t i = 0; i < name.size();) {
    const auto c = static_cast<unsigned char>(name[i]);
    // UTF-8 (VTK's XML needs it): yaml-cpp 0.7 decodes the escapes \N and \x80-\xFF to single
    // bytes that are not.
    const std::size_t length = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                                             : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    bool valid = length > 0 && i + length <= name.size();
    for (std::size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<unsigned char>(name[i + k]) & 0xC0) == 0x80;
    if (!valid)
      node.fail(fmt::format("{} must be UTF-8 text; byte 0x{:02X} at byte {} is not (an escape such as \\N "
                            "or \\x85 in a double-quoted string gives such a byte)",
                            what, c, i + 1));
    const bool c1 = c == 0xC2 && static_cast<unsigned char>(name[i + 1]) <= 0x9F;  // U+0080..U+009F
    if (c < 0x20 || c == 0x7F || c1)
      node.fail(fmt::format("{} may not hold control characters (here U+{:04X} at byte {}); use "
                            "printable text: letters, digits, spaces, punctuation",
                            what, c1 ? static_cast<unsigned char>(name[i + 1]) : c, i + 1));
    i += length;
  }
}
}  // namespace

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
