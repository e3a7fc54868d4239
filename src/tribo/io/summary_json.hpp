#pragma once
// A small JSON object builder for DIR/summary.json (steps, wall time, particle-updates per second,
// conservation errors, exit reason). Keys keep their insertion order; setting a key again replaces
// its value in place.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tribo::io {

class JsonObject {
 public:
  JsonObject& set(std::string_view key, double value);  // non-finite -> null (JSON has no NaN)
  JsonObject& set(std::string_view key, int value);
  JsonObject& set(std::string_view key, long value);
  JsonObject& set(std::string_view key, long long value);
  JsonObject& set(std::string_view key, unsigned long value);
  JsonObject& set(std::string_view key, unsigned long long value);
  JsonObject& set(std::string_view key, bool value);
  JsonObject& set(std::string_view key, std::string_view value);
  JsonObject& set(std::string_view key, const char* value);
  JsonObject& set(std::string_view key, const std::string& value);
  JsonObject& set(std::string_view key, JsonObject value);
  JsonObject& set(std::string_view key, std::vector<double> values);
  JsonObject& set(std::string_view key, std::vector<std::string> values);
  JsonObject& set_null(std::string_view key);

  bool contains(std::string_view key) const;
  bool empty() const { return entries_.empty(); }

  // The JSON text, indented by `indent` spaces per level (0: one line). Numbers are written with
  // the shortest decimal form that reads back to the same double; strings are escaped per
  // RFC 8259 section 7 (quote, backslash, control characters; UTF-8 passes through).
  std::string dump(int indent = 2) const;

 private:
  // A nested object is held in a one-element vector: std::vector of an incomplete type is a
  // complete type (C++17), which std::variant needs while JsonObject is still being defined.
  using Value =
      std::variant<std::nullptr_t, bool, std::int64_t, std::uint64_t, double, std::string,
                   std::vector<double>, std::vector<std::string>, std::vector<JsonObject>>;
  JsonObject& put(std::string_view key, Value value);
  void dump_to(std::string& out, int indent, int level) const;

  std::vector<std::pair<std::string, Value>> entries_;
};

// A JSON string literal for `text`, quotes included.
std::string json_quote(std::string_view text);

// dump(2) plus a final newline, through write_file_atomically.
void write_json_atomically(const std::filesystem::path& file, const JsonObject& object);

}  // namespace tribo::io
