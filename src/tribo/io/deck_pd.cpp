// The `pd:` section: lattice spacing, horizon and the contact model (Kamensky et al. 2019;
// seed document 002: short-range force, BFCM / NFCM / objective friction).
#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {

// The friction law is a contact law marked pd (contact/contact_laws.hpp): its keys, their rules and
// the rules between them come from the same descriptors as MPM's pairs and cracks (deck_contact.cpp).
// The keys are listed as the writer writes them: the default law's, then regularization_velocity
// and law, then the other laws'.
std::vector<std::string_view> contact_keys() {
  std::vector<std::string_view> keys{"model", "radius", "radius_rule", "stiffness", "friction_model"};
  for (std::string_view key : pd_law_keys(true)) keys.push_back(key);
  keys.push_back("regularization_velocity");
  keys.push_back("law");
  for (std::string_view key : pd_law_keys(false)) keys.push_back(key);
  return keys;
}

void read_contact(const DeckNode& node, PdContactSpec& contact) {
  const DeckMap map = node.map(contact_keys());
  contact.model = choice(map, "model", kPdContactModelNames, "PD contact model", contact.model);
  if (map.get("radius")) contact.radius = positive(map, "radius", radius_in_spacings(contact));
  if (const double smallest = descriptor_of(contact.model).smallest_radius;
      map.get("radius") && !(radius_in_spacings(contact) > smallest))
    map.get("radius")->fail(fmt::format(
        "radius {} spacings is too small for the {} contact: its kernel must reach the other body's points "
        "one spacing away at any lateral offset, so more than {} spacings (default {}); for the seed's "
        "springs of contact distance {} give model: pairwise",
        radius_in_spacings(contact), name_of(contact.model, kPdContactModelNames), smallest,
        descriptor_of(contact.model).default_radius, radius_in_spacings(contact)));
  contact.radius_rule = choice(map, "radius_rule", kPdContactRadiusRuleNames, "contact radius rule",
                               contact.radius_rule);
  if (contact.radius_rule == PdContactRadiusRule::Lammps && !descriptor_of(contact.model).lammps_radius_rule) {
    const auto models = names_where(kPdContactModels, [](const PdContactModelDescriptor& d) { return d.lammps_radius_rule; });
    map.get("radius_rule")->fail(fmt::format("radius_rule: lammps needs model: {}", join_choices(models)));
  }
  if (map.get("stiffness"))
    contact.stiffness = positive(map, "stiffness", stiffness_in_units(contact));
  contact.friction_model = choice(map, "friction_model", kFrictionModelNames, "friction model",
                                  contact.friction_model);
  ContactLawSpec& law = contact.law;
  law.law = choice(map, "law", kContactLawNames, "contact law", law.law);
  const std::string law_name(name_of(law.law, kContactLawNames));
  if (!contact::descriptor_of(law.law).pd) {
    const auto pd_laws = names_where(contact::kContactLaws, [](const contact::ContactLawDescriptor& d) { return d.pd; });
    map.get("law")->fail(
        fmt::format("law '{}' is not a PD contact law; expected {}", law_name, join_choices(pd_laws)));
  }
  // The viscous ramp of regularization_velocity is coulomb's (friction_models.hpp FrictionLaw):
  // with another law it is a contradiction, as a key the law does not read.
  if (law.law != ContactLaw::Coulomb) {
    if (auto value = map.get("regularization_velocity"))
      value->fail(fmt::format("'regularization_velocity' is not used by law '{}'; set law: coulomb", law_name));
    if (!descriptor_of(contact.friction_model).has_friction)
      map.get("law")->fail(fmt::format("law '{}' is not used with friction_model: none", law_name));
  }
  read_law_keys(map, law, map.has("law"), "");
  contact.regularization_velocity =
      non_negative(map, "regularization_velocity", contact.regularization_velocity);
  // Friction coefficients with no friction model would be silently ignored.
  if (!descriptor_of(contact.friction_model).has_friction)
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
