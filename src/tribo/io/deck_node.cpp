#include "tribo/io/deck_node.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <initializer_list>

#include <fmt/format.h>

#include "tribo/io/deck_names.hpp"

namespace tribo::io {

namespace {

// A quoted scalar ("1000") is a string in YAML; yaml-cpp marks plain scalars with the tag "?",
// quoted ones with "!", and an explicit tag (`!!str 5.0e-6`) with its full name. A value is read as
// a number (or boolean) only when it is plain or carries that type's own tag: `!!str 5.0e-6` is
// text, as the YAML author asked, and an error where a number is expected.
constexpr std::string_view kCoreTag = "tag:yaml.org,2002:";

bool is_plain_or_tagged(const YAML::Node& node, std::initializer_list<std::string_view> types) {
  const std::string& tag = node.Tag();
  if (tag == "?") return true;
  if (tag.rfind(kCoreTag, 0) != 0) return false;
  const std::string_view type = std::string_view(tag).substr(kCoreTag.size());
  for (std::string_view t : types)
    if (type == t) return true;
  return false;
}

bool is_quoted(const YAML::Node& node) { return node.Tag() == "!" || node.Tag() == std::string(kCoreTag) + "str"; }

std::string shorten(const std::string& text) {
  constexpr std::size_t kMax = 40;
  if (text.size() <= kMax) return text;
  return text.substr(0, kMax) + "...";
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool looks_infinite_or_nan(const std::string& text) {
  std::string t = lowercase(text);
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.erase(0, 1);
  return t == ".inf" || t == "inf" || t == "infinity" || t == ".nan" || t == "nan";
}

}  // namespace

DeckNode::DeckNode(YAML::Node node, YAML::Mark mark, std::string path,
                   std::shared_ptr<const std::string> file)
    : node_(std::move(node)), mark_(mark), path_(std::move(path)), file_(std::move(file)) {}

DeckNode DeckNode::root(const YAML::Node& node, const std::string& file) {
  return DeckNode(node, node.Mark(), "", std::make_shared<const std::string>(file));
}

DeckLocation DeckNode::location() const {
  DeckLocation where;
  where.file = *file_;
  // yaml-cpp marks are 0-based; a null mark (line -1) means "no text", e.g. a missing value.
  if (!mark_.is_null() && mark_.line >= 0) {
    where.line = mark_.line + 1;
    where.column = mark_.column + 1;
  }
  where.key = path_;
  return where;
}

void DeckNode::fail(const std::string& message) const { throw DeckError(location(), message); }

std::string DeckNode::describe() const {
  if (!node_.IsDefined() || node_.IsNull()) return "nothing (null)";
  if (node_.IsSequence()) return "a list";
  if (node_.IsMap()) return "a mapping";
  if (is_quoted(node_)) return fmt::format("the string \"{}\"", shorten(node_.Scalar()));
  if (node_.Tag() != "?")
    return fmt::format("'{}' tagged {}", shorten(node_.Scalar()), shorten(node_.Tag()));
  return fmt::format("'{}'", shorten(node_.Scalar()));
}

double DeckNode::number() const {
  if (!node_.IsScalar() || !is_plain_or_tagged(node_, {"float", "int"}))
    fail(fmt::format("expected a number, got {}", describe()));
  const std::string& text = node_.Scalar();
  if (looks_infinite_or_nan(text)) fail(fmt::format("expected a finite number, got '{}'", text));
  // YAML allows a leading '+'; std::from_chars does not.
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  double value = 0.0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (error == std::errc::result_out_of_range)
    fail(fmt::format("the number '{}' is out of range", shorten(text)));
  if (error != std::errc() || end != last || first == last)
    fail(fmt::format("expected a number, got {}", describe()));
  if (!std::isfinite(value)) fail(fmt::format("expected a finite number, got '{}'", text));
  return value;
}

int DeckNode::integer() const {
  if (!node_.IsScalar() || !is_plain_or_tagged(node_, {"int"}))
    fail(fmt::format("expected a whole number, got {}", describe()));
  const std::string& text = node_.Scalar();
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  int value = 0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (error == std::errc::result_out_of_range)
    fail(fmt::format("the number '{}' is out of range", shorten(text)));
  if (error != std::errc() || end != last || first == last)
    fail(fmt::format("expected a whole number, got {}", describe()));
  return value;
}

bool DeckNode::boolean() const {
  // YAML 1.2 core schema booleans only: yes/no/on/off are strings there, and accepting them
  // would make `on` mean different things to different readers.
  if (node_.IsScalar() && is_plain_or_tagged(node_, {"bool"})) {
    const std::string t = node_.Scalar();
    if (t == "true" || t == "True" || t == "TRUE") return true;
    if (t == "false" || t == "False" || t == "FALSE") return false;
  }
  fail(fmt::format("expected true or false, got {}", describe()));
}

std::string DeckNode::text() const {
  if (!node_.IsScalar()) fail(fmt::format("expected a name (text), got {}", describe()));
  return node_.Scalar();
}

std::vector<DeckNode> DeckNode::items() const {
  if (!node_.IsSequence()) fail(fmt::format("expected a list, got {}", describe()));
  std::vector<DeckNode> out;
  out.reserve(node_.size());
  std::size_t i = 0;
  for (const YAML::Node& item : node_) {
    // An element without a mark of its own (an alias, say) is reported at the list.
    const YAML::Mark mark = item.Mark().is_null() ? mark_ : item.Mark();
    out.emplace_back(item, mark, fmt::format("{}[{}]", path_, i), file_);
    ++i;
  }
  return out;
}

DeckNode DeckNode::child(const YAML::Node& value, const YAML::Mark& mark,
                         std::string_view key) const {
  std::string path = path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
  return DeckNode(value, mark, std::move(path), file_);
}

std::optional<DeckNode> DeckNode::find(std::string_view key) const {
  if (!node_.IsMap()) return std::nullopt;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const YAML::Node k = it->first;
    const YAML::Node value = it->second;
    if (!k.IsScalar() || k.Scalar() != key) continue;
    const YAML::Mark mark = value.IsNull() || value.Mark().is_null() ? k.Mark() : value.Mark();
    return child(value, mark, key);
  }
  return std::nullopt;
}

DeckMap DeckNode::map(const std::vector<std::string_view>& known_keys) const {
  if (!node_.IsMap())
    fail(fmt::format("expected a mapping (key: value), got {}", describe()));
  std::vector<DeckMap::Entry> entries;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    // Copies: yaml-cpp's iterator hands out a temporary pair, so references would dangle.
    const YAML::Node key = it->first;
    const YAML::Node value = it->second;
    const DeckNode key_node(key, key.Mark(), path_, file_);
    if (!key.IsScalar())
      key_node.fail(fmt::format("expected a key name, got {}", key_node.describe()));
    const std::string name = key.Scalar();
    const DeckNode named = child(key, key.Mark(), name);
    for (const DeckMap::Entry& seen : entries)
      if (seen.name == name)
        named.fail(fmt::format("duplicate key '{}' (first given at line {})", name,
                               seen.key.location().line));
    bool known = false;
    for (std::string_view k : known_keys) known = known || k == name;
    if (!known) {
      const std::string near = closest_name(name, known_keys);
      if (!near.empty())
        named.fail(fmt::format("unknown key '{}'; did you mean '{}'?", shorten(name), near));
      named.fail(fmt::format("unknown key '{}'; the keys here are {}", shorten(name),
                             join_choices(known_keys)));
    }
    // A key with no value (`dt:`) is null with the mark of the next token; report the key's line.
    const YAML::Mark mark = value.IsNull() || value.Mark().is_null() ? key.Mark() : value.Mark();
    entries.push_back(DeckMap::Entry{name, named, child(value, mark, name)});
  }
  return DeckMap(*this, std::move(entries));
}

DeckMap::DeckMap(DeckNode node, std::vector<Entry> entries)
    : node_(std::move(node)), entries_(std::move(entries)) {}

bool DeckMap::has(std::string_view key) const { return get(key).has_value(); }

std::optional<DeckNode> DeckMap::get(std::string_view key) const {
  for (const Entry& entry : entries_)
    if (entry.name == key) return entry.value;
  return std::nullopt;
}

std::optional<DeckNode> DeckMap::key_node(std::string_view key) const {
  for (const Entry& entry : entries_)
    if (entry.name == key) return entry.key;
  return std::nullopt;
}

DeckNode DeckMap::require(std::string_view key) const {
  if (auto value = get(key)) return *value;
  const std::string& base = node_.path();
  const std::string path = base.empty() ? std::string(key) : fmt::format("{}.{}", base, key);
  DeckLocation where = node_.location();
  where.key = path;
  throw DeckError(where, fmt::format("missing required key '{}'", key));
}

std::vector<std::string> DeckMap::keys() const {
  std::vector<std::string> out;
  for (const Entry& entry : entries_) out.push_back(entry.name);
  return out;
}

double DeckMap::number(std::string_view key, double fallback) const {
  auto value = get(key);
  return value ? value->number() : fallback;
}

int DeckMap::integer(std::string_view key, int fallback) const {
  auto value = get(key);
  return value ? value->integer() : fallback;
}

bool DeckMap::boolean(std::string_view key, bool fallback) const {
  auto value = get(key);
  return value ? value->boolean() : fallback;
}

std::string DeckMap::text(std::string_view key, const std::string& fallback) const {
  auto value = get(key);
  return value ? value->text() : fallback;
}

std::optional<double> DeckMap::optional_number(std::string_view key) const {
  auto value = get(key);
  if (!value || value->is_null()) return std::nullopt;
  return value->number();
}

}  // namespace tribo::io
