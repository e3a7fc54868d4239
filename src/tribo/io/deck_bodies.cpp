// Materials, bodies and boundary conditions of a deck (docs/deck.md, sections "materials",
// "bodies", "boundary conditions").
#include <cmath>

#include <fmt/format.h>

#include "tribo/core/material_models.hpp"

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {

// ---- materials ------------------------------------------------------------------------------
// Which model a method takes, which keys a model reads and each key's range: the descriptors of
// core/material_models.hpp.
std::vector<std::string_view> material_keys() {
  std::vector<std::string_view> keys{"name", "model"};
  for (const MaterialKey& key : kMaterialKeys) keys.push_back(key.key);
  return keys;
}

std::vector<std::string_view> models_taken_by(bool mpm) {
  return names_where(kMaterialModels, [mpm](const MaterialModelDescriptor& d) { return d.taken_by(mpm); });
}

bool any_model_of_method_reads(bool mpm, std::string_view key) {
  return !names_where(kMaterialModels, [&](const MaterialModelDescriptor& d) {
            return d.taken_by(mpm) && d.reads(key);
          }).empty();
}

// One key of a material whose model reads it: its value by the key's rule.
void read_material_key(const DeckMap& map, const MaterialKey& key, const MaterialModelDescriptor& model,
                       MaterialSpec& m) {
  switch (key.check) {
    case MaterialKeyRule::Positive:
      if (!key.elastic_constant && !map.has(key.key)) return;  // keeps MaterialSpec's default
      if (key.elastic_constant && model.elastic_constants_required && !map.has(key.key)) map.require(key.key);
      m.*key.number = positive(map, key.key, key.elastic_constant ? 0.0 : m.*key.number);
      return;
    case MaterialKeyRule::PoissonRange:
      // Open bounds: nu = 0.5 is incompressible (bulk modulus infinite), nu = -1 has no shear stiffness.
      m.*key.number = bounded(map, key.key, 0.0, -1.0, true, 0.5, true);
      return;
    case MaterialKeyRule::PositiveOrNull:
      if (!map.has(key.key)) return;
      m.*key.optional = map.optional_number(key.key);
      if (m.*key.optional && !(*(m.*key.optional) > 0.0))
        map.get(key.key)->fail(fmt::format("must be > 0, got {}", *(m.*key.optional)));
      return;
  }
}

MaterialSpec read_material(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map(material_keys());
  MaterialSpec m;
  m.name = read_name(map.require("name"));
  const bool mpm = spec.method == Method::Mpm;
  m.model = deck::choice(map, "model", kMaterialModelNames, "material model", default_material_model(mpm));
  const MaterialModelDescriptor& model = descriptor_of(m.model);
  if (!model.taken_by(mpm))
    map.get("model")->fail(fmt::format("'{}' is {}; {} deck takes {}", model.name,
                                       mpm ? "a peridynamics model" : "an MPM model", mpm ? "an mpm" : "a pd",
                                       join_choices(models_taken_by(mpm))));
  for (const MaterialKey& key : kMaterialKeys) {
    if (!model.reads(key.key)) {
      if (auto given = map.get(key.key)) {
        if (!any_model_of_method_reads(mpm, key.key)) given->fail(std::string(key.method_refusal));
        given->fail(fmt::format("a {} material has no {}", model.name, key.model_lacks));
      }
      continue;
    }
    read_material_key(map, key, model, m);
    if (key.key == "poisson_ratio" && model.fixed_poisson_ratio) {
      // Bond-based PD fixes Poisson's ratio (Silling 2000): 1/4 in 3D, 1/3 in 2D (DESIGN.md).
      const double fixed = spec.dimension == 3 ? 0.25 : 1.0 / 3.0;
      if (auto nu = map.get("poisson_ratio"); nu && std::abs(m.poisson_ratio - fixed) > 1.0e-3)
        nu->fail(fmt::format("a {} material has poisson_ratio {} in {}D (bond-based "
                             "peridynamics), got {}; use lps for another value",
                             model.name, spec.dimension == 3 ? "0.25" : "1/3", spec.dimension, m.poisson_ratio));
      m.poisson_ratio = fixed;
    }
  }
  return m;
}

}  // namespace

void read_materials(const DeckNode& node, SimulationSpec& spec) {
  const std::vector<DeckNode> items = node.items();
  if (items.empty()) node.fail("at least one material is required");
  std::vector<int> lines;
  for (const DeckNode& item : items) {
    MaterialSpec m = read_material(item, spec);
    const int earlier = spec.material_index(m.name);
    if (earlier >= 0)
      item.map(material_keys())
          .get("name")
          ->fail(fmt::format("duplicate material name '{}' (first given at line {})", m.name,
                             lines[earlier]));
    spec.materials.push_back(std::move(m));
    lines.push_back(item.location().line);
  }
}

// ---- bodies -------------------------------------------------------------------------------
namespace {

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

}  // namespace

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

}  // namespace tribo::io::deck
