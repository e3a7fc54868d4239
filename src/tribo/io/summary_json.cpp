#include "tribo/io/summary_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "tribo/io/atomic_file.hpp"

namespace tribo::io {

JsonObject& JsonObject::put(std::string_view key, Value value) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  }
  entries_.emplace_back(std::string(key), std::move(value));
  return *this;
}

JsonObject& JsonObject::set(std::string_view key, double value) {
  if (!std::isfinite(value)) return put(key, nullptr);
  return put(key, value);
}
JsonObject& JsonObject::set(std::string_view key, int value) {
  return put(key, static_cast<std::int64_t>(value));
}
JsonObject& JsonObject::set(std::string_view key, long value) {
  return put(key, static_cast<std::int64_t>(value));
}
JsonObject& JsonObject::set(std::string_view key, long long value) {
  return put(key, static_cast<std::int64_t>(value));
}
JsonObject& JsonObject::set(std::string_view key, unsigned long value) {
  return put(key, static_cast<std::uint64_t>(value));
}
JsonObject& JsonObject::set(std::string_view key, unsigned long long value) {
  return put(key, static_cast<std::uint64_t>(value));
}
JsonObject& JsonObject::set(std::string_view key, bool value) { return put(key, value); }
JsonObject& JsonObject::set(std::string_view key, std::string_view value) {
  return put(key, std::string(value));
}
JsonObject& JsonObject::set(std::string_view key, const char* value) {
  return put(key, std::string(value));
}
JsonObject& JsonObject::set(std::string_view key, const std::string& value) {
  return put(key, value);
}
JsonObject& JsonObject::set(std::string_view key, JsonObject value) {
  return put(key, std::vector<JsonObject>{std::move(value)});
}
JsonObject& JsonObject::set(std::string_view key, std::vector<double> values) {
  return put(key, std::move(values));
}
JsonObject& JsonObject::set(std::string_view key, std::vector<std::string> values) {
  return put(key, std::move(values));
}
JsonObject& JsonObject::set_null(std::string_view key) { return put(key, nullptr); }

bool JsonObject::contains(std::string_view key) const {
  for (const auto& entry : entries_)
    if (entry.first == key) return true;
  return false;
}

std::string json_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (char ch : text) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20)
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(ch));
        else
          out += ch;
    }
  }
  out += '"';
  return out;
}

namespace {

void number_to(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  // fmt's shortest round-trip form; it may read "1e-05" or "3", both valid JSON numbers.
  fmt::format_to(std::back_inserter(out), "{}", value);
}

void newline(std::string& out, int indent, int level) {
  if (indent <= 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(indent * level), ' ');
}

}  // namespace

void JsonObject::dump_to(std::string& out, int indent, int level) const {
  if (entries_.empty()) {
    out += "{}";
    return;
  }
  const char* colon = indent > 0 ? ": " : ":";
  out += '{';
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i > 0) out += ',';
    newline(out, indent, level + 1);
    out += json_quote(entries_[i].first);
    out += colon;
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::nullptr_t>) {
            out += "null";
          } else if constexpr (std::is_same_v<T, bool>) {
            out += v ? "true" : "false";
          } else if constexpr (std::is_same_v<T, std::int64_t> ||
                               std::is_same_v<T, std::uint64_t>) {
            fmt::format_to(std::back_inserter(out), "{}", v);
          } else if constexpr (std::is_same_v<T, double>) {
            number_to(out, v);
          } else if constexpr (std::is_same_v<T, std::string>) {
            out += json_quote(v);
          } else if constexpr (std::is_same_v<T, std::vector<double>> ||
                               std::is_same_v<T, std::vector<std::string>>) {
            // Arrays of scalars stay on one line: they are short (per-component errors, names).
            out += '[';
            for (std::size_t k = 0; k < v.size(); ++k) {
              if (k > 0) out += indent > 0 ? ", " : ",";
              if constexpr (std::is_same_v<T, std::vector<double>>)
                number_to(out, v[k]);
              else
                out += json_quote(v[k]);
            }
            out += ']';
          } else {
            v.front().dump_to(out, indent, level + 1);
          }
        },
        entries_[i].second);
  }
  newline(out, indent, level);
  out += '}';
}

std::string JsonObject::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void write_json_atomically(const std::filesystem::path& file, const JsonObject& object) {
  write_file_atomically(file, object.dump(2) + "\n");
}

}  // namespace tribo::io
