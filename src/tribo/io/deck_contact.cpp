// Contact law keys shared by MPM material pairs and cracks (PHYSICS.md, NairnMPM contact laws).
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {

// A key that the chosen law ignores is a contradiction, not a no-op: `friction: 0.3` with
// `law: frictionless` means the user expects friction that will not be there.
void reject_unused(const DeckMap& map, std::string_view key, ContactLaw law, bool law_given,
                   std::string_view owner, std::string_view needed_law) {
  auto node = map.get(key);
  if (!node) return;
  const std::string law_name(name_of(law, kContactLawNames));
  const std::string which =
      law_given || owner.empty() ? fmt::format("law '{}'", law_name)
                : fmt::format("law '{}' (the default for {})", law_name, owner);
  node->fail(fmt::format("'{}' is not used by {}; set law: {}", key, which, needed_law));
}

// sin and cos of an angle in degrees, exact where the answer is 0 or +-1 so that
// normal_angles {polar: 90, azimuth: 90} gives exactly (0, 1, 0).
void sin_cos_degrees(double degrees, double& s, double& c) {
  const double reduced = std::fmod(degrees, 360.0);
  const double quarter = reduced / 90.0;
  if (quarter == std::round(quarter)) {
    const int k = (static_cast<int>(std::round(quarter)) % 4 + 4) % 4;
    constexpr double kSin[4] = {0.0, 1.0, 0.0, -1.0};
    constexpr double kCos[4] = {1.0, 0.0, -1.0, 0.0};
    s = kSin[k];
    c = kCos[k];
    return;
  }
  const double radians = reduced * std::numbers::pi / 180.0;
  s = std::sin(radians);
  c = std::cos(radians);
}

}  // namespace

std::vector<std::string_view> contact_law_keys() {
  std::vector<std::string_view> keys{"law"};
  for (const contact::ContactLawKey& key : contact::kContactLawKeys) keys.push_back(key.key);
  return keys;
}

std::vector<std::string_view> pd_law_keys(bool of_default_law) {
  const contact::ContactLawDescriptor& coulomb = contact::descriptor_of(ContactLaw::Coulomb);
  std::vector<std::string_view> keys;
  for (const contact::ContactLawKey& key : contact::kContactLawKeys) {
    bool pd = false;
    for (const contact::ContactLawDescriptor& d : contact::kContactLaws) pd = pd || (d.pd && d.reads(key.key));
    if (pd && coulomb.reads(key.key) == of_default_law) keys.push_back(key.key);
  }
  return keys;
}

void read_law_keys(const DeckMap& map, ContactLawSpec& spec, bool law_given, std::string_view owner) {
  const contact::ContactLawDescriptor& descriptor = contact::descriptor_of(spec.law);
  for (const contact::ContactLawKey& key : contact::kContactLawKeys)
    if (!descriptor.reads(key.key))
      reject_unused(map, key.key, spec.law, law_given, owner, contact::first_law_reading(key.key));

  // Each key by its rule (contact/contact_laws.hpp), in the table's order: the first error wins.
  for (const contact::ContactLawKey& key : contact::kContactLawKeys) {
    switch (key.check) {
      case contact::LawKeyRule::NonNegative:
        spec.*key.number = non_negative(map, key.key, 0.0);
        break;
      case contact::LawKeyRule::NumberOrNull:
        spec.*key.optional = map.optional_number(key.key);
        break;
      case contact::LawKeyRule::OptionalNonNegative:
        if (map.has(key.key)) spec.*key.optional = non_negative(map, key.key, 0.0);
        break;
      case contact::LawKeyRule::RequiredPositive:
        if (descriptor.reads(key.key)) spec.*key.number = required_positive(map, key.key);
        break;
    }
  }
  // Then the rules between the law's keys (static >= kinetic, ...), blamed on the key they name.
  if (descriptor.check != nullptr)
    if (std::optional<contact::LawViolation> violation = descriptor.check(spec))
      map.get(violation->key)->fail(violation->message);
}

ContactLawSpec read_contact_law(const DeckMap& map, ContactLaw default_law,
                                std::string_view owner) {
  ContactLawSpec spec;
  spec.law = choice(map, "law", kContactLawNames, "contact law", default_law);
  read_law_keys(map, spec, map.has("law"), owner);
  return spec;
}

Vec3 normal_from_angles(double polar_degrees, double azimuth_degrees) {
  double sin_polar = 0.0, cos_polar = 1.0, sin_azimuth = 0.0, cos_azimuth = 1.0;
  sin_cos_degrees(polar_degrees, sin_polar, cos_polar);
  sin_cos_degrees(azimuth_degrees, sin_azimuth, cos_azimuth);
  return Vec3(sin_polar * cos_azimuth, sin_polar * sin_azimuth, cos_polar);
}

}  // namespace tribo::io::deck
