// The `pd:` section: lattice spacing, horizon and the contact model (Kamensky et al. 2019;
// seed document 002: short-range force, BFCM / NFCM / objective friction).
#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {

void read_contact(const DeckNode& node, PdContactSpec& contact) {
  const DeckMap map = node.map({"radius", "stiffness", "friction_model", "friction",
                                "static_friction", "adhesion", "regularization_velocity"});
  contact.radius = positive(map, "radius", contact.radius);
  contact.stiffness = positive(map, "stiffness", contact.stiffness);
  contact.friction_model = choice(map, "friction_model", kFrictionModelNames, "friction model",
                                  contact.friction_model);
  contact.friction = non_negative(map, "friction", contact.friction);
  contact.static_friction = map.optional_number("static_friction");
  if (contact.static_friction && !(*contact.static_friction >= contact.friction))
    map.get("static_friction")
        ->fail(fmt::format("static_friction ({}) must be >= friction ({}): static friction is "
                           "never below kinetic friction",
                           *contact.static_friction, contact.friction));
  contact.adhesion = non_negative(map, "adhesion", contact.adhesion);
  contact.regularization_velocity =
      non_negative(map, "regularization_velocity", contact.regularization_velocity);
  // Friction coefficients with no friction model would be silently ignored.
  if (contact.friction_model == FrictionModel::None)
    for (std::string_view key : {"friction", "static_friction", "adhesion"})
      if (auto value = map.get(key); value && !value->is_null() && value->number() != 0.0)
        value->fail(fmt::format("'{}' is not used with friction_model: none", key));
}

}  // namespace

PdSpec read_pd(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map({"spacing", "horizon", "contact"});
  PdSpec pd;
  pd.spacing = required_positive(map, "spacing");
  // In spacings; below one spacing a point has no bonds at all.
  if (auto horizon = map.get("horizon")) {
    pd.horizon = horizon->number();
    if (!(pd.horizon > 1.0))
      horizon->fail(fmt::format("must be > 1 (in lattice spacings), got {}", pd.horizon));
  }
  if (auto contact = map.get("contact")) read_contact(*contact, pd.contact);
  return pd;
}

}  // namespace tribo::io::deck
