#include "tribo/io/pvd_writer.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "tribo/io/atomic_file.hpp"

namespace tribo::io {

namespace {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string xml_unescape(std::string_view text) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (text[i] == '&') {
      for (const auto& [entity, c] : kEntities) {
        if (text.substr(i, entity.size()) == entity) {
          out += c;
          i += entity.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

// The value of attribute `name` inside one tag's text, e.g. timestep="0.01" -> "0.01".
std::optional<std::string> attribute(std::string_view tag, std::string_view name) {
  for (std::size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    // A whole attribute name: preceded by white space, followed by optional space and '='.
    if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1]))) continue;
    std::size_t i = at + name.size();
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
    if (i >= tag.size() || tag[i] != '=') continue;
    ++i;
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) return std::nullopt;
    const char quote = tag[i];
    const std::size_t end = tag.find(quote, i + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return xml_unescape(tag.substr(i + 1, end - i - 1));
  }
  return std::nullopt;
}

template <typename T>
std::optional<T> parse_number(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

PvdWriter::PvdWriter(std::filesystem::path pvd_file) : file_(std::move(pvd_file)) {}

PvdWriter PvdWriter::reload(std::filesystem::path pvd_file, double up_to_time) {
  PvdWriter writer(std::move(pvd_file));
  if (!std::filesystem::exists(writer.file_)) return writer;
  std::vector<PvdEntry> all = read_pvd(writer.file_);
  for (auto& entry : all)
    if (entry.time <= up_to_time) writer.entries_.push_back(std::move(entry));
  if (writer.entries_.size() != all.size()) writer.write();
  return writer;
}

void PvdWriter::add(double time, const std::string& relative_file, int part) {
  entries_.push_back({time, relative_file, part});
  write();
}

void PvdWriter::write() const {
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  xml.reserve(xml.size() + entries_.size() * 96 + 32);
  for (const auto& e : entries_) {
    // "{}" is fmt's shortest representation that reads back to the same double.
    fmt::format_to(std::back_inserter(xml),
                   "    <DataSet timestep=\"{}\" group=\"\" part=\"{}\" file=\"{}\"/>\n", e.time,
                   e.part, xml_escape(e.file));
  }
  xml += "  </Collection>\n</VTKFile>\n";
  write_file_deferred(file_, std::move(xml));
}

std::vector<PvdEntry> read_pvd(const std::filesystem::path& pvd_file) {
  const std::string text = read_file(pvd_file);
  auto malformed = [&](const std::string& why) {
    return std::runtime_error(
        fmt::format("'{}' is not a readable .pvd: {}", pvd_file.string(), why));
  };
  if (text.find("type=\"Collection\"") == std::string::npos) throw malformed("no Collection");
  std::vector<PvdEntry> entries;
  for (std::size_t at = text.find("<DataSet"); at != std::string::npos;
       at = text.find("<DataSet", at + 1)) {
    const std::size_t end = text.find('>', at);
    if (end == std::string::npos) throw malformed("unterminated DataSet tag");
    const std::string_view tag(text.data() + at, end - at);
    const auto time_text = attribute(tag, "timestep");
    const auto file = attribute(tag, "file");
    if (!time_text || !file) throw malformed("a DataSet without timestep or file");
    const auto time = parse_number<double>(*time_text);
    if (!time) throw malformed(fmt::format("timestep \"{}\" is not a number", *time_text));
    int part = 0;
    if (const auto part_text = attribute(tag, "part"); part_text && !part_text->empty()) {
      const auto value = parse_number<int>(*part_text);
      if (!value) throw malformed(fmt::format("part \"{}\" is not an integer", *part_text));
      part = *value;
    }
    entries.push_back({*time, *file, part});
  }
  return entries;
}

}  // namespace tribo::io
