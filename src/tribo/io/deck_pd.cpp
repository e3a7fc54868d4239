// The `pd:` section: lattice spacing, horizon and the contact model (Kamensky et al. 2019;
// seed document 002: short-range force, BFCM / NFCM / objective friction).
#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {

void read_contact(const DeckNode& node, PdContactSpec& contact) {
  const DeckMap map =
      node.map({"model", "radius", "radius_rule", "stiffness", "friction_model", "friction",
                "static_friction", "slip_weakening_distance", "adhesion",
                "regularization_velocity", "law", "weakening_velocity"});
  contact.model = choice(map, "model", kPdContactModelNames, "PD contact model", contact.model);
  if (map.get("radius")) contact.radius = positive(map, "radius", contact.radius_in_spacings());
  contact.radius_rule = choice(map, "radius_rule", kPdContactRadiusRuleNames, "contact radius rule",
                               contact.radius_rule);
  if (contact.radius_rule == PdContactRadiusRule::Lammps &&
      contact.model != PdContactModel::Pairwise)
    map.get("radius_rule")->fail("radius_rule: lammps needs model: pairwise");
  if (map.get("stiffness"))
    contact.stiffness = positive(map, "stiffness", contact.stiffness_in_units());
  contact.friction_model = choice(map, "friction_model", kFrictionModelNames, "friction model",
                                  contact.friction_model);
  // The friction law (contact/contact_laws.hpp): one of the laws marked for PD.
  contact.law = choice(map, "law", kContactLawNames, "contact law", contact.law);
  if (!contact::descriptor_of(contact.law).pd) {
    std::vector<std::string_view> pd_laws;
    for (const contact::ContactLawDescriptor& d : contact::kContactLaws)
      if (d.pd) pd_laws.push_back(d.name);
    map.get("law")->fail(fmt::format("law '{}' is not a PD contact law; expected {}",
                                     name_of(contact.law, kContactLawNames), join_choices(pd_laws)));
  }
  // Keys of the other law are contradictions (as for MPM pairs, deck_contact.cpp).
  const bool velocity_law = contact.law == ContactLaw::VelocityWeakening;
  for (std::string_view key : {"slip_weakening_distance", "regularization_velocity"})
    if (velocity_law && map.get(key))
      map.get(key)->fail(fmt::format("'{}' is not used by law 'velocity-weakening'; set law: coulomb", key));
  if (!velocity_law && map.get("weakening_velocity"))
    map.get("weakening_velocity")
        ->fail("'weakening_velocity' is not used by law 'coulomb'; set law: velocity-weakening");
  if (velocity_law) {
    if (contact.friction_model == FrictionModel::None)
      map.get("law")->fail("law 'velocity-weakening' is not used with friction_model: none");
    contact.weakening_velocity = required_positive(map, "weakening_velocity");
  }
  contact.friction = non_negative(map, "friction", contact.friction);
  contact.static_friction = map.optional_number("static_friction");
  if (contact.static_friction && !(*contact.static_friction >= contact.friction))
    map.get("static_friction")
        ->fail(fmt::format("static_friction ({}) must be >= friction ({}): static friction is "
                           "never below kinetic friction",
                           *contact.static_friction, contact.friction));
  if (map.get("slip_weakening_distance"))
    contact.weakening_distance = non_negative(map, "slip_weakening_distance", 0.0);
  contact.adhesion = non_negative(map, "adhesion", contact.adhesion);
  contact.regularization_velocity =
      non_negative(map, "regularization_velocity", contact.regularization_velocity);
  // Friction coefficients with no friction model would be silently ignored.
  if (contact.friction_model == FrictionModel::None)
    for (std::string_view key : {"friction", "static_friction", "adhesion"})
      if (auto value = map.get(key); value && !value->is_null() && value->number() != 0.0)
        value->fail(fmt::format("'{}' is not used with friction_model: none", key));
}

// A polyline in the x-y plane, [x, y] points in 2D and 3D alike (in 3D it cuts through all z).
PdSpec::Precrack read_precrack(const DeckNode& node) {
  const DeckMap map = node.map({"points"});
  const DeckNode points = map.require("points");
  PdSpec::Precrack crack;
  for (const DeckNode& p : points.items()) {
    const Vec3 x = read_vector(p, 2);
    if (!crack.points.empty() && crack.points.back() == x)
      p.fail(fmt::format("zero-length pre-crack segment: point {} repeats the one before",
                         format_point(x, 2)));
    crack.points.push_back(x);
  }
  if (crack.points.size() < 2)
    points.fail(fmt::format("a pre-crack needs at least 2 points, got {}", crack.points.size()));
  return crack;
}

}  // namespace

PdSpec read_pd(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map({"spacing", "horizon", "contact", "surface_correction",
                                "partial_volume", "damping", "precracks"});
  PdSpec pd;
  pd.spacing = required_positive(map, "spacing");
  // In spacings; below one spacing a point has no bonds at all.
  if (auto horizon = map.get("horizon")) {
    pd.horizon = horizon->number();
    if (!(pd.horizon > 1.0))
      horizon->fail(fmt::format("must be > 1 (in lattice spacings), got {}", pd.horizon));
  }
  if (auto contact = map.get("contact")) read_contact(*contact, pd.contact);
  pd.surface_correction = map.boolean("surface_correction", pd.surface_correction);
  pd.partial_volume =
      choice(map, "partial_volume", kPartialVolumeNames, "partial volume rule", pd.partial_volume);
  pd.damping = non_negative(map, "damping", pd.damping);
  if (auto precracks = map.get("precracks"))
    for (const DeckNode& item : precracks->items()) pd.precracks.push_back(read_precrack(item));
  return pd;
}

}  // namespace tribo::io::deck
