// Top level of the deck (docs/deck.md): text checks, YAML parsing, `time`, and the order in which
// the sections are read (deck_bodies.cpp, deck_mpm.cpp, deck_pd.cpp, deck_output.cpp).
#include "tribo/io/deck_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <new>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "tribo/io/deck_limits.hpp"
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

// Events are not needed to count the documents, only the place each starts at.
// Where each document starts, and its first node (the place a second document is reported at).
class DocumentStarts final : public YAML::EventHandler {
 public:
  YAML::Mark start;
  YAML::Mark first_node;
  void OnDocumentStart(const YAML::Mark& mark) override {
    start = mark;
    first_node = YAML::Mark::null_mark();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& mark) {
    if (first_node.is_null()) first_node = mark;
  }
};

[[noreturn]] void fail_yaml(const std::string& file, const YAML::Exception& e) {
  const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
  const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
  std::string message = fmt::format("invalid YAML: {}", e.msg);
  if (e.msg.find("EOF in scalar") != std::string::npos) message += " (is a quote left open?)";
  fail_at(file, line, column, "", message);
}

// The one YAML document of a deck. yaml-cpp 0.7 (Debian 12) never returns from YAML::LoadAll on a
// flow indicator that no rule consumes (a deck starting with `,`, `]` or `}` after a document:
// jbeder/yaml-cpp issue #1040, fixed upstream by pull request #1319): its parser hands out an
// empty document at the same place again and again. So the documents are first counted with
// YAML::Parser, which returns after each one: a document that starts where the one before it did
// is that fault and is reported at its place; more than one document is an error; only then is
// the single document loaded (YAML::Load reads the first document and stops).
YAML::Node load_document(const std::string& text, const std::string& file) {
  // yaml-cpp 0.7 accepts a quoted scalar left open when the file ends in a newline (it swallows
  // the rest of the deck into the string); without the trailing whitespace it reports the open
  // quote. Trailing whitespace carries no meaning for a deck, so drop it.
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  const std::string trimmed = end == std::string::npos ? std::string() : text.substr(0, end + 1);
  try {
    std::istringstream in(trimmed);
    YAML::Parser parser(in);
    DocumentStarts starts;
    int documents = 0;
    YAML::Mark first_extra = YAML::Mark::null_mark();
    int previous_pos = -1;
    while (parser.HandleNextDocument(starts)) {
      if (starts.start.pos == previous_pos) {
        const char c = starts.start.pos >= 0 && static_cast<std::size_t>(starts.start.pos) < trimmed.size()
                           ? trimmed[static_cast<std::size_t>(starts.start.pos)]
                           : '?';
        fail_at(file, starts.start.line + 1, starts.start.column + 1, "",
                fmt::format("invalid YAML: '{}' here belongs to no [list] or {{mapping}} (a stray flow "
                            "indicator; remove it or quote the text)",
                            c));
      }
      previous_pos = starts.start.pos;
      if (++documents == 2) first_extra = starts.first_node.is_null() ? starts.start : starts.first_node;
    }
    if (documents > 1)
      fail_at(file, first_extra.is_null() ? 0 : first_extra.line + 1,
              first_extra.is_null() ? 0 : first_extra.column + 1, "",
              fmt::format("the file holds {} YAML documents (separated by ---); a deck is one", documents));
    if (documents == 0) return YAML::Node();
    return YAML::Load(trimmed);
  } catch (const YAML::DeepRecursion& e) {
    fail_at(file, e.mark.line + 1, e.mark.column + 1, "", "invalid YAML: nested too deeply");
  } catch (const YAML::Exception& e) {
    fail_yaml(file, e);
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
  if (auto title = top.get("title")) spec.title = deck::read_title(*title);
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
  deck::check_limits(root, spec);
  return spec;
}

}  // namespace

SimulationSpec parse_deck(const std::string& yaml_text, const std::string& source_name) {
  check_text(yaml_text, source_name);
  const YAML::Node document = load_document(yaml_text, source_name);
  if (!document.IsDefined() || document.IsNull())
    fail_at(source_name, 1, 1, "",
            "the deck is empty; expected a mapping with method, time, materials and bodies");
  const DeckNode root = DeckNode::root(document, source_name);
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

std::string read_deck_text(const std::filesystem::path& file) {
  const std::string name = file.string();
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer. The type is checked on the open
  // file (fstat), not on the name, so a symbolic link to /dev/zero is refused like /dev/zero.
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) fail_at(name, 0, 0, "", "cannot open the deck: no such file");
    if (error == EISDIR) fail_at(name, 0, 0, "", "cannot open the deck: it is a directory");
    fail_at(name, 0, 0, "", fmt::format("cannot open the deck: {}", std::strerror(error)));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) fail_at(name, 0, 0, "", "cannot open the deck: fstat failed");
  if (S_ISDIR(info.st_mode)) fail_at(name, 0, 0, "", "cannot open the deck: it is a directory");
  if (!S_ISREG(info.st_mode))
    fail_at(name, 0, 0, "",
            "cannot read the deck: not a regular file (a device, FIFO or socket); a deck is a file on disk");
  if (static_cast<std::uintmax_t>(info.st_size) > kMaxDeckBytes)
    fail_at(name, 0, 0, "",
            fmt::format("the file has {} bytes; a deck is at most {} MiB", info.st_size, kMaxDeckBytes >> 20));
  // Read at most the cap plus one byte, whatever the size said (a file that grows while read).
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      fail_at(name, 0, 0, "", fmt::format("cannot read the deck: {}", std::strerror(errno)));
    }
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > kMaxDeckBytes)
      fail_at(name, 0, 0, "", fmt::format("the file has more than {} MiB; a deck is at most that", kMaxDeckBytes >> 20));
  }
  return text;
}

SimulationSpec read_deck(const std::filesystem::path& file) {
  const std::string text = read_deck_text(file);
  return parse_deck(text, file.string());
}

}  // namespace tribo::io
