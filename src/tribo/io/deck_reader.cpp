// Top level of the deck (docs/deck.md): text checks, YAML parsing, and the sections that do not
// belong to one method (time, materials, bodies, boundary conditions, output).
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
using deck::read_name;
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

// ---- materials ------------------------------------------------------------------------------
bool is_mpm_model(MaterialModel m) {
  return m == MaterialModel::LinearElastic || m == MaterialModel::NeoHookean ||
         m == MaterialModel::Rigid;
}
bool is_pd_model(MaterialModel m) {
  return m == MaterialModel::Pmb || m == MaterialModel::Lps || m == MaterialModel::Rigid;
}

MaterialSpec read_material(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map(
      {"name", "model", "density", "youngs_modulus", "poisson_ratio", "critical_stretch"});
  MaterialSpec m;
  m.name = read_name(map.require("name"));
  const bool mpm = spec.method == Method::Mpm;
  m.model = deck::choice(map, "model", kMaterialModelNames, "material model",
                         mpm ? MaterialModel::LinearElastic : MaterialModel::Pmb);
  const std::string model(name_of(m.model, kMaterialModelNames));
  if (mpm && !is_mpm_model(m.model))
    map.get("model")->fail(fmt::format("'{}' is a peridynamics model; an mpm deck takes "
                                       "linear-elastic, neo-hookean or rigid",
                                       model));
  if (!mpm && !is_pd_model(m.model))
    map.get("model")->fail(
        fmt::format("'{}' is an MPM model; a pd deck takes pmb, lps or rigid", model));

  m.density = positive(map, "density", m.density);
  if (m.rigid()) {
    m.youngs_modulus = positive(map, "youngs_modulus", 0.0);  // unused; checked if given
  } else {
    if (!map.has("youngs_modulus")) map.require("youngs_modulus");
    m.youngs_modulus = positive(map, "youngs_modulus", 0.0);
  }
  // Open bounds: nu = 0.5 is incompressible (bulk modulus infinite), nu = -1 has no shear stiffness.
  m.poisson_ratio = bounded(map, "poisson_ratio", 0.0, -1.0, true, 0.5, true);
  if (m.model == MaterialModel::Pmb) {
    // Bond-based PD fixes Poisson's ratio (Silling 2000): 1/4 in 3D, 1/3 in 2D (DESIGN.md).
    const double fixed = spec.dimension == 3 ? 0.25 : 1.0 / 3.0;
    if (auto nu = map.get("poisson_ratio"); nu && std::abs(m.poisson_ratio - fixed) > 1.0e-3)
      nu->fail(fmt::format("a pmb material has poisson_ratio {} in {}D (bond-based "
                           "peridynamics), got {}; use lps for another value",
                           spec.dimension == 3 ? "0.25" : "1/3", spec.dimension, m.poisson_ratio));
    m.poisson_ratio = fixed;
  }
  if (auto stretch = map.get("critical_stretch")) {
    if (mpm) stretch->fail("critical_stretch is a peridynamics key (bond breaking); an mpm deck "
                           "has no bonds");
    if (m.rigid()) stretch->fail("a rigid material has no bonds to break");
    m.critical_stretch = map.optional_number("critical_stretch");
    if (m.critical_stretch && !(*m.critical_stretch > 0.0))
      stretch->fail(fmt::format("must be > 0, got {}", *m.critical_stretch));
  }
  return m;
}

void read_materials(const DeckNode& node, SimulationSpec& spec) {
  const std::vector<DeckNode> items = node.items();
  if (items.empty()) node.fail("at least one material is required");
  std::vector<int> lines;
  for (const DeckNode& item : items) {
    MaterialSpec m = read_material(item, spec);
    const int earlier = spec.material_index(m.name);
    if (earlier >= 0)
      item.map({"name", "model", "density", "youngs_modulus", "poisson_ratio", "critical_stretch"})
          .get("name")
          ->fail(fmt::format("duplicate material name '{}' (first given at line {})", m.name,
                             lines[earlier]));
    spec.materials.push_back(std::move(m));
    lines.push_back(item.location().line);
  }
}

// ---- bodies -------------------------------------------------------------------------------
const std::vector<std::string_view> kBodyKeys{"name", "material", "geometry", "velocity",
                                              "angular_velocity"};

BodySpec read_body(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map(kBodyKeys);
  BodySpec body;
  body.name = read_name(map.require("name"));
  const DeckNode material = map.require("material");
  body.material = read_name(material);
  body.material_index = deck::resolve_material(material, body.material, spec);
  const DeckNode geometry = map.require("geometry");
  body.geometry = deck::read_shape(geometry, spec.dimension, deck::ShapeUse::Body);
  if (auto v = map.get("velocity")) body.velocity = read_vector(*v, spec.dimension);
  if (auto w = map.get("angular_velocity")) {
    if (spec.dimension == 2) {
      if (w->is_sequence())
        w->fail("expected a number (rad/s about z) in 2D, got a list; a list is for 3D");
      body.angular_velocity.z() = w->number();
    } else {
      if (!w->is_sequence())
        w->fail(fmt::format("expected a list [wx, wy, wz] in 3D, got {}", w->describe()));
      body.angular_velocity = read_vector(*w, 3);
    }
  }
  if (spec.method == Method::Mpm) {
    Vec3 lo, hi;
    body.geometry.bounds(lo, hi);
    const MpmSpec& mpm = spec.mpm;
    if (!deck::inside_box(lo, hi, mpm.grid_min, mpm.grid_max, spec.dimension))
      geometry.fail(fmt::format(
          "body '{}' spans {} - {}, outside the MPM grid {} - {}", body.name,
          deck::format_point(lo, spec.dimension), deck::format_point(hi, spec.dimension),
          deck::format_point(mpm.grid_min, spec.dimension),
          deck::format_point(mpm.grid_max, spec.dimension)));
  }
  return body;
}

void read_bodies(const DeckNode& node, SimulationSpec& spec) {
  const std::vector<DeckNode> items = node.items();
  if (items.empty()) node.fail("at least one body is required");
  std::vector<int> lines;
  for (const DeckNode& item : items) {
    BodySpec body = read_body(item, spec);
    const int earlier = spec.body_index(body.name);
    if (earlier >= 0)
      item.map(kBodyKeys).get("name")->fail(fmt::format(
          "duplicate body name '{}' (first given at line {})", body.name, lines[earlier]));
    spec.bodies.push_back(std::move(body));
    lines.push_back(item.location().line);
  }
}

// ---- boundary conditions --------------------------------------------------------------------
BoundaryConditionSpec read_boundary_condition(const DeckNode& node, int dimension) {
  const DeckMap map = node.map({"region", "velocity"});
  BoundaryConditionSpec bc;
  bc.region = deck::read_shape(map.require("region"), dimension, deck::ShapeUse::Region);
  const DeckNode velocity = map.require("velocity");
  if (!velocity.is_sequence())
    velocity.fail(fmt::format("expected a list of {} velocities (null = free), got {}", dimension,
                              velocity.describe()));
  const std::vector<DeckNode> items = velocity.items();
  if (static_cast<int>(items.size()) != dimension)
    velocity.fail(fmt::format("expected {} components (null = free) for dimension {}, got {}",
                              dimension, dimension, items.size()));
  for (int d = 0; d < dimension; ++d)
    if (!items[d].is_null()) bc.velocity[d] = items[d].number();
  return bc;
}

// ---- output -------------------------------------------------------------------------------
std::string check_known_name(const DeckNode& node, const SimulationSpec& spec, bool bodies,
                             bool materials) {
  const std::string name = read_name(node);
  if ((bodies && spec.body_index(name) >= 0) || (materials && spec.material_index(name) >= 0))
    return name;
  std::vector<std::string_view> names;
  if (bodies)
    for (const BodySpec& b : spec.bodies) names.push_back(b.name);
  if (materials)
    for (const MaterialSpec& m : spec.materials)
      if (spec.body_index(m.name) < 0 || !bodies) names.push_back(m.name);  // once each
  const std::string what = bodies && materials ? "body or material" : "body";
  const std::string near = closest_name(name, names);
  if (!near.empty()) node.fail(fmt::format("unknown {} '{}'; did you mean '{}'?", what, name, near));
  node.fail(fmt::format("unknown {} '{}'; expected {}", what, name, join_choices(names)));
}

HistorySpec read_history(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map({"quantity", "body", "materials"});
  HistorySpec h;
  h.quantity = deck::read_choice(map.require("quantity"), kHistoryQuantityNames, "quantity");
  const std::string quantity(name_of(h.quantity, kHistoryQuantityNames));
  const bool per_body = h.quantity == HistoryQuantity::Centroid ||
                        h.quantity == HistoryQuantity::Velocity;
  const bool per_pair = h.quantity == HistoryQuantity::ContactForce;
  if (auto body = map.get("body"); body && !per_body)
    body->fail(fmt::format("'body' is for quantity centroid or velocity, not {}", quantity));
  if (auto materials = map.get("materials"); materials && !per_pair)
    materials->fail(fmt::format("'materials' is for quantity contact-force, not {}", quantity));
  if (per_body) h.body = check_known_name(map.require("body"), spec, true, false);
  if (per_pair) {
    const DeckNode materials = map.require("materials");
    h.materials = deck::read_name_pair(materials);
    const std::vector<DeckNode> names = materials.items();
    for (int k = 0; k < 2; ++k) check_known_name(names[k], spec, true, true);
  }
  return h;
}

OutputSpec read_output(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map({"directory", "every", "fields", "history", "checkpoint_every"});
  OutputSpec out;
  if (auto dir = map.get("directory")) out.directory = read_name(*dir);
  out.every = non_negative(map, "every", out.every);
  if (auto fields = map.get("fields")) {
    out.fields.clear();
    const std::vector<std::string_view> known(kOutputFieldNames.begin(), kOutputFieldNames.end());
    for (const DeckNode& item : fields->items()) {
      const std::string name = read_name(item);
      bool ok = false;
      for (std::string_view k : known) ok = ok || k == name;
      if (!ok) {
        const std::string near = closest_name(name, known);
        if (!near.empty())
          item.fail(fmt::format("unknown output field '{}'; did you mean '{}'?", name, near));
        item.fail(fmt::format("unknown output field '{}'; expected {}", name, join_choices(known)));
      }
      for (const std::string& seen : out.fields)
        if (seen == name) item.fail(fmt::format("duplicate output field '{}'", name));
      out.fields.push_back(name);
    }
  }
  if (auto history = map.get("history")) {
    for (const DeckNode& item : history->items()) {
      HistorySpec h = read_history(item, spec);
      for (const HistorySpec& seen : out.history)
        if (seen.quantity == h.quantity && seen.body == h.body && seen.materials == h.materials)
          item.fail("duplicate history entry (it would repeat the same columns)");
      out.history.push_back(h);
    }
  }
  out.checkpoint_every = map.optional_number("checkpoint_every");
  if (out.checkpoint_every && !(*out.checkpoint_every > 0.0))
    map.get("checkpoint_every")->fail(fmt::format("must be > 0, got {}", *out.checkpoint_every));
  return out;
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
  read_materials(top.require("materials"), spec);
  if (spec.method == Method::Mpm) {
    reject_other_method(top, "pd", "mpm");
    const DeckNode mpm = require_section(top, "mpm", "grid", "an mpm deck needs a background grid");
    spec.mpm = deck::read_mpm(mpm, spec);
  } else {
    reject_other_method(top, "mpm", "pd");
    const DeckNode pd = require_section(top, "pd", "spacing", "a pd deck needs a lattice spacing");
    spec.pd = deck::read_pd(pd, spec);
  }
  read_bodies(top.require("bodies"), spec);
  if (auto bcs = top.get("boundary_conditions"))
    for (const DeckNode& item : bcs->items())
      spec.boundary_conditions.push_back(read_boundary_condition(item, spec.dimension));
  if (auto output = top.get("output")) spec.output = read_output(*output, spec);
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
