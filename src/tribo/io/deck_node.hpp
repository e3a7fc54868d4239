#pragma once
// A YAML node that knows where it came from: the file, the line and column of its text, and its
// dotted key path (`bodies[1].geometry.box.min`). Every typed read either returns a valid value or
// throws tribo::DeckError pointing at that text, so the reader never sees a yaml-cpp exception.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "tribo/core/error.hpp"

namespace tribo::io {

class DeckMap;

class DeckNode {
 public:
  DeckNode(YAML::Node node, YAML::Mark mark, std::string path,
           std::shared_ptr<const std::string> file);
  // The document's top node; its path is empty.
  static DeckNode root(const YAML::Node& node, const std::string& file);

  const std::string& path() const { return path_; }
  const std::string& file() const { return *file_; }
  DeckLocation location() const;
  // Throws a DeckError at this node: "FILE:LINE:COLUMN: PATH: message".
  [[noreturn]] void fail(const std::string& message) const;

  bool is_null() const { return node_.IsNull(); }
  bool is_scalar() const { return node_.IsScalar(); }
  bool is_sequence() const { return node_.IsSequence(); }
  bool is_map() const { return node_.IsMap(); }
  // What the node holds, for "expected X, got Y": 'abc', the string "1000", a list, null.
  std::string describe() const;

  double number() const;     // a finite number written as a plain scalar
  int integer() const;       // a whole number
  bool boolean() const;      // true or false
  std::string text() const;  // any scalar, as written
  std::vector<DeckNode> items() const;  // the elements of a sequence, paths `path[i]`
  // The node as a mapping whose keys must all be in `known_keys` (unknown and duplicate keys are
  // errors that name the key and suggest the nearest known one).
  DeckMap map(const std::vector<std::string_view>& known_keys) const;

  // The value at `key` of a mapping already read through map() (checks after the sections are
  // read, which only need the place of a value); empty when absent or not a mapping.
  std::optional<DeckNode> find(std::string_view key) const;

  // The child at `key` (for building entries); the path gets ".key".
  DeckNode child(const YAML::Node& value, const YAML::Mark& mark, std::string_view key) const;

 private:
  YAML::Node node_;
  YAML::Mark mark_;
  std::string path_;
  std::shared_ptr<const std::string> file_;
};

class DeckMap {
 public:
  struct Entry {
    std::string name;
    DeckNode key;    // the key's own text (its path is that of the value)
    DeckNode value;
  };
  DeckMap(DeckNode node, std::vector<Entry> entries);

  const DeckNode& node() const { return node_; }
  bool has(std::string_view key) const;
  std::optional<DeckNode> get(std::string_view key) const;
  // The key itself, for errors about the key rather than its value (a section that should not
  // be there points at `pd:`, not at the first line inside it).
  std::optional<DeckNode> key_node(std::string_view key) const;
  // The value at `key`, or a DeckError "missing required key" at this mapping.
  DeckNode require(std::string_view key) const;
  // Keys in the order written, for messages.
  std::vector<std::string> keys() const;

  double number(std::string_view key, double fallback) const;
  int integer(std::string_view key, int fallback) const;
  bool boolean(std::string_view key, bool fallback) const;
  std::string text(std::string_view key, const std::string& fallback) const;
  // Absent or null: empty (keys whose default is "not given", e.g. static_friction).
  std::optional<double> optional_number(std::string_view key) const;

 private:
  DeckNode node_;
  std::vector<Entry> entries_;
};

}  // namespace tribo::io
