// Top level of the deck (docs/deck.md): text checks, YAML parsing, `time`, and the order in which
// the sections are read (deck_bodies.cpp, deck_mpm.cpp, deck_pd.cpp, deck_output.cpp).
#include "tribo/io/deck_reader.hpp"

#include <cmath>
#include <fstream>
#include <new>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io {

namespace {

using deck::bounded;
using deck::non_negative;
using deck::positive;
using deck::read_vector;

// A deck is a few kilobytes; anything this large is not one (and would be slow to report on).
constexpr std::uintmax_t kMaxDeckBytes = 64u << 20;

[[noreturn]] void fail_at(const std::string& file, int line, int column, const std::string& key,
                          const std::string& message) {
  throw DeckError(DeckLocation{file, line, column, key}, message);
}

// YAML is UTF-8 text without control characters (YAML 1.2, section 5.1). Checking that first turns
// a binary file into one clear message instead of whatever the parser makes of it.
void check_text(const std::string& text, const std::string& file) {
  std::size_t i = 0;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;  // UTF-8 byte order mark
  int line = 1, column = 1;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    bool valid = true;
    if (byte < 0x80) {
      valid = byte >= 0x20 ? byte != 0x7F : (byte == '\t' || byte == '\n' || byte == '\r');
    } else {
      length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0;
      valid = length > 0 && byte <= 0xF4 && i + length <= text.size();
      for (std::size_t k = 1; valid && k < length; ++k)
        valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    }
    if (!valid)
      fail_at(file, line, column, "",
              fmt::format("not a text (YAML) file: byte 0x{:02X} is not UTF-8 text", byte));
    if (byte == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += length;
  }
}

std::vector<YAML::Node> load_documents(const std::string& text, const std::string& file) {
  // yaml-cpp 0.7 accepts a quoted scalar left open when the file ends in a newline (it swallows
  // the rest of the deck into the string); without the trailing whitespace it reports the open
  // quote. Trailing whitespace carries no meaning for a deck, so drop it.
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  const std::string trimmed = end == std::string::npos ? std::string() : text.substr(0, end + 1);
  try {
    return YAML::LoadAll(trimmed);
  } catch (const YAML::DeepRecursion& e) {
    fail_at(file, e.mark.line + 1, e.mark.column + 1, "", "invalid YAML: nested too deeply");
  } catch (const YAML::Exception& e) {
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    std::string message = fmt::format("invalid YAML: {}", e.msg);
    if (e.msg.find("EOF in scalar") != std::string::npos) message += " (is a quote left open?)";
    fail_at(file, line, column, "", message);
  }
}

// ---- time ---------------------------------------------------------------------------------
TimeSpec read_time(const DeckNode& node) {
  const DeckMap map = node.map({"end", "dt", "cfl"});
  TimeSpec time;
  time.end = deck::required_positive(map, "end");
  if (map.has("dt")) time.dt = positive(map, "dt", 0.0);
  // A step above the stable one (cfl > 1) diverges.
  if (map.has("cfl")) time.cfl = bounded(map, "cfl", 0.0, 0.0, true, 1.0, false);
  if (time.dt && time.cfl) map.get("cfl")->fail("give dt or cfl, not both");
  if (!time.dt && !time.cfl) time.cfl = 0.4;
  return time;
}

// ---- the whole deck -------------------------------------------------------------------------
// The section of the method the deck does not use: reading it silently would hide a deck that
// sets, say, pd.contact.friction and runs MPM.
void reject_other_method(const DeckMap& top, std::string_view section, std::string_view method) {
  if (auto node = top.key_node(section))
    node->fail(fmt::format("a '{}' section in a deck with method: {}; remove it or change the "
                           "method",
                           section, method));
}

DeckNode require_section(const DeckMap& top, std::string_view section, std::string_view key,
                         std::string_view why) {
  if (auto node = top.get(section)) return *node;
  DeckLocation where = top.node().location();
  where.key = fmt::format("{}.{}", section, key);
  throw DeckError(where, fmt::format("missing required key '{}.{}' ({})", section, key, why));
}

SimulationSpec read_spec(const DeckNode& root) {
  const DeckMap top = root.map({"title", "method", "dimension", "thickness", "time", "gravity",
                                "gravity_ramp", "materials", "bodies", "boundary_conditions", "mpm", "pd",
                                "output"});
  SimulationSpec spec;
  spec.source_file = root.file();
  spec.method = deck::read_choice(top.require("method"), kMethodNames, "method");
  if (auto dimension = top.get("dimension")) {
    spec.dimension = dimension->integer();
    if (spec.dimension != 2 && spec.dimension != 3)
      dimension->fail(fmt::format("must be 2 or 3, got {}", spec.dimension));
  }
  if (auto title = top.get("title")) spec.title = title->text();
  if (auto thickness = top.get("thickness"); thickness && spec.dimension == 3)
    thickness->fail("thickness is for 2D (plane strain) decks only");
  spec.thickness = positive(top, "thickness", spec.thickness);
  spec.time = read_time(top.require("time"));
  if (auto gravity = top.get("gravity")) spec.gravity = read_vector(*gravity, spec.dimension);
  spec.gravity_ramp = non_negative(top, "gravity_ramp", spec.gravity_ramp);
  deck::read_materials(top.require("materials"), spec);
  if (spec.method == Method::Mpm) {
    reject_other_method(top, "pd", "mpm");
    const DeckNode mpm = require_section(top, "mpm", "grid", "an mpm deck needs a background grid");
    spec.mpm = deck::read_mpm(mpm, spec);
  } else {
    reject_other_method(top, "mpm", "pd");
    const DeckNode pd = require_section(top, "pd", "spacing", "a pd deck needs a lattice spacing");
    spec.pd = deck::read_pd(pd, spec);
  }
  deck::read_bodies(top.require("bodies"), spec);
  if (auto bcs = top.get("boundary_conditions"))
    for (const DeckNode& item : bcs->items())
      spec.boundary_conditions.push_back(deck::read_boundary_condition(item, spec.dimension));
  if (auto output = top.get("output")) spec.output = deck::read_output(*output, spec);
  return spec;
}

}  // namespace

SimulationSpec parse_deck(const std::string& yaml_text, const std::string& source_name) {
  check_text(yaml_text, source_name);
  const std::vector<YAML::Node> documents = load_documents(yaml_text, source_name);
  if (documents.empty() || documents.front().IsNull())
    fail_at(source_name, 1, 1, "",
            "the deck is empty; expected a mapping with method, time, materials and bodies");
  if (documents.size() > 1) {
    const YAML::Mark mark = documents[1].Mark();
    fail_at(source_name, mark.is_null() ? 0 : mark.line + 1, mark.is_null() ? 0 : mark.column + 1,
            "", fmt::format("the file holds {} YAML documents (separated by ---); a deck is one",
                            documents.size()));
  }
  const DeckNode root = DeckNode::root(documents.front(), source_name);
  if (!root.is_map())
    root.fail(fmt::format("a deck is a mapping of keys (method, time, materials, bodies, ...), "
                          "got {}",
                          root.describe()));
  try {
    return read_spec(root);
  } catch (const DeckError&) {
    throw;
  } catch (const YAML::Exception& e) {
    // Not expected (every access goes through DeckNode), but a deck must never crash the program.
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    fail_at(source_name, line, column, "", fmt::format("cannot read the deck: {}", e.msg));
  } catch (const std::bad_alloc&) {
    fail_at(source_name, 0, 0, "", "cannot read the deck: out of memory");
  }
}

SimulationSpec read_deck(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::error_code error;
  if (!std::filesystem::exists(file, error))
    fail_at(name, 0, 0, "", "cannot open the deck: no such file");
  if (std::filesystem::is_directory(file, error))
    fail_at(name, 0, 0, "", "cannot open the deck: it is a directory");
  const std::uintmax_t size = std::filesystem::file_size(file, error);
  if (!error && size > kMaxDeckBytes)
    fail_at(name, 0, 0, "",
            fmt::format("the file has {} bytes; a deck is at most {} MiB", size, kMaxDeckBytes >> 20));
  std::ifstream in(file, std::ios::binary);
  if (!in) fail_at(name, 0, 0, "", "cannot open the deck: permission denied or unreadable");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail_at(name, 0, 0, "", "cannot read the deck: read error");
  return parse_deck(text.str(), name);
}

}  // namespace tribo::io
