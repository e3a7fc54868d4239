// The `output:` section: VTK fields, history quantities and checkpoints (docs/deck.md, "output").
#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {

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
  const DeckMap map = node.map({"quantity", "body", "materials", "crack"});
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
  const bool per_crack = h.quantity == HistoryQuantity::CrackForce;
  if (auto crack = map.get("crack"); crack && !per_crack)
    crack->fail(fmt::format("'crack' is for quantity crack-force, not {}", quantity));
  if (per_crack) {
    // An index into mpm.cracks (read before output: the deck reader reads the method section first).
    const DeckNode crack = map.require("crack");
    h.crack = crack.integer();
    const int cracks = static_cast<int>(spec.mpm.cracks.size());
    if (spec.method != Method::Mpm || h.crack < 0 || h.crack >= cracks)
      crack.fail(cracks == 0 || spec.method != Method::Mpm
                     ? fmt::format("crack {}: the deck has no mpm.cracks", h.crack)
                     : fmt::format("crack {}: mpm.cracks has {} crack(s), indices 0 to {}", h.crack, cracks, cracks - 1));
  }
  if (per_body) h.body = check_known_name(map.require("body"), spec, true, false);
  if (per_pair) {
    const DeckNode materials = map.require("materials");
    h.materials = deck::read_name_pair(materials);
    const std::vector<DeckNode> names = materials.items();
    for (int k = 0; k < 2; ++k) check_known_name(names[k], spec, true, true);
  }
  return h;
}

}  // namespace

OutputSpec read_output(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map({"directory", "every", "fields", "history", "checkpoint_every", "checkpoint_wall"});
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
        if (seen.quantity == h.quantity && seen.body == h.body && seen.materials == h.materials &&
            seen.crack == h.crack)
          item.fail("duplicate history entry (it would repeat the same columns)");
      out.history.push_back(h);
    }
  }
  out.checkpoint_every = map.optional_number("checkpoint_every");
  if (out.checkpoint_every && !(*out.checkpoint_every > 0.0))
    map.get("checkpoint_every")->fail(fmt::format("must be > 0, got {}", *out.checkpoint_every));
  // Wall-clock seconds between checkpoints; finite, so that `.inf` does not pass for "never".
  out.checkpoint_wall = map.optional_number("checkpoint_wall");
  if (out.checkpoint_wall && !(*out.checkpoint_wall > 0.0 && *out.checkpoint_wall < 1.0e9))
    map.get("checkpoint_wall")
        ->fail(fmt::format("must be > 0 and < 1e9 seconds of wall-clock time, got {}", *out.checkpoint_wall));
  return out;
}

}  // namespace tribo::io::deck
