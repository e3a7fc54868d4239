#pragma once
// The deck reader's parts (internal to io/): typed values with range checks, shapes, contact laws
// and the method sections. Each reads one part of docs/deck.md and throws DeckError at the text.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/io/deck_names.hpp"
#include "tribo/io/deck_node.hpp"

namespace tribo::io::deck {

// ---- values (deck_values.cpp) ---------------------------------------------------------------
// A list of exactly `dimension` numbers; z = 0 in 2D.
Vec3 read_vector(const DeckNode& node, int dimension);
// A number or a list of `dimension` numbers (e.g. mpm.grid.cell); a number fills every direction.
Vec3 read_scalar_or_vector(const DeckNode& node, int dimension);

// "(x, y)" or "(x, y, z)", for messages.
std::string format_point(const Vec3& point, int dimension);
// Whether `lo..hi` lies inside the box `min..max` in the first `dimension` directions.
bool inside_box(const Vec3& lo, const Vec3& hi, const Vec3& min, const Vec3& max, int dimension);

// Range-checked numbers at `key` of a mapping, `fallback` when the key is absent.
double positive(const DeckMap& map, std::string_view key, double fallback);      // > 0
double non_negative(const DeckMap& map, std::string_view key, double fallback);  // >= 0
// In [low, high] or the open/closed variant the flags say.
double bounded(const DeckMap& map, std::string_view key, double fallback, double low,
               bool low_open, double high, bool high_open);
// A required number > 0.
double required_positive(const DeckMap& map, std::string_view key);

// A name from one of deck_names.hpp's tables; an unknown name suggests the nearest.
template <class E, std::size_t N>
E read_choice(const DeckNode& node, const std::array<DeckName<E>, N>& table,
              std::string_view what) {
  const std::string name = node.text();
  for (const auto& entry : table)
    if (entry.name == name) return entry.value;
  const std::vector<std::string_view> names = names_in(table);
  const std::string near = closest_name(name, names);
  if (!near.empty()) node.fail(fmt::format("unknown {} '{}'; did you mean '{}'?", what, name, near));
  node.fail(fmt::format("unknown {} '{}'; expected {}", what, name, join_choices(names)));
}

template <class E, std::size_t N>
E choice(const DeckMap& map, std::string_view key, const std::array<DeckName<E>, N>& table,
         std::string_view what, E fallback) {
  auto node = map.get(key);
  return node ? read_choice(*node, table, what) : fallback;
}

// A non-empty name (material, body).
std::string read_name(const DeckNode& node);
// The deck's title: any UTF-8 text up to 4096 bytes without control characters.
std::string read_title(const DeckNode& node);

// A list of names given as [a, b] (contact pairs, contact-force histories): exactly two, distinct.
std::array<std::string, 2> read_name_pair(const DeckNode& node);

// The index of the material named at `node`, or an error suggesting the nearest material.
int resolve_material(const DeckNode& node, const std::string& name, const SimulationSpec& spec);

// ---- shapes (deck_shape.cpp) ----------------------------------------------------------------
// Bodies must have volume; regions (boundary conditions) may be flat boxes, e.g. a line of nodes.
enum class ShapeUse { Body, Region };
Shape read_shape(const DeckNode& node, int dimension, ShapeUse use);

// ---- contact laws (deck_contact.cpp) --------------------------------------------------------
// The keys of a contact entry: `law` and every law's keys (contact/contact_laws.hpp); `owner`
// says whose default `default_law` is.
std::vector<std::string_view> contact_law_keys();
ContactLawSpec read_contact_law(const DeckMap& map, ContactLaw default_law,
                                std::string_view owner);
// The keys of spec.law (already chosen) from map: those it does not read are refused ("set law:
// ..."; `law_given` false names it the default for `owner`, or plainly when owner is empty), each
// is checked by its rule, then the law's check between keys runs (contact/contact_laws.hpp).
void read_law_keys(const DeckMap& map, ContactLawSpec& spec, bool law_given, std::string_view owner);
// The keys the PD friction laws (descriptors marked pd) read, in the table's order: those the
// default law coulomb reads (of_default_law) or the others.
std::vector<std::string_view> pd_law_keys(bool of_default_law);
// Degrees to the unit vector (sin p cos a, sin p sin a, cos p), exact at multiples of 90 degrees.
Vec3 normal_from_angles(double polar_degrees, double azimuth_degrees);

// ---- materials, bodies, boundary conditions (deck_bodies.cpp) -------------------------------
// Appends to spec.materials / spec.bodies; `spec` already holds method, dimension (and, for
// bodies, materials and the MPM grid).
void read_materials(const DeckNode& node, SimulationSpec& spec);
void read_bodies(const DeckNode& node, SimulationSpec& spec);
BoundaryConditionSpec read_boundary_condition(const DeckNode& node, int dimension);

// ---- output (deck_output.cpp) ----------------------------------------------------------------
// `spec` already holds materials and bodies (history entries name them).
OutputSpec read_output(const DeckNode& node, const SimulationSpec& spec);

// ---- method sections (deck_mpm.cpp, deck_pd.cpp) --------------------------------------------
// `spec` already holds dimension and materials.
MpmSpec read_mpm(const DeckNode& node, const SimulationSpec& spec);
PdSpec read_pd(const DeckNode& node, const SimulationSpec& spec);

}  // namespace tribo::io::deck
