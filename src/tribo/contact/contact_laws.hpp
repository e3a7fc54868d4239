#pragma once
// The contact laws of the deck as data: each law's deck name and the keys it reads, and each key's
// range rule, unit, default and one-line meaning. The deck reader (which keys a law rejects), the
// writer (which keys it writes), the law table of docs/deck.md (tests/io checks they agree) and
// the fuzz dictionary (tests/io checks it holds every name and key) derive from this table: a new
// law adds one row to kContactLaws and, for a key of its own, one row to kContactLawKeys. PD's
// friction law (pd.contact) is read and written from the same table (io/deck_pd.cpp).
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "tribo/core/descriptor_table.hpp"
#include "tribo/core/simulation_spec.hpp"

namespace tribo::contact {

// How the reader checks a key's value on its own (the type column of docs/deck.md says the same in
// words). Rules between keys are the law's check (ContactLawDescriptor::check).
enum class LawKeyRule {
  NonNegative,          // >= 0; absent = 0
  NumberOrNull,         // a number or null; absent = not given
  OptionalNonNegative,  // >= 0; absent = not given
  RequiredPositive,     // > 0 and required by every law that reads it
};

struct ContactLawKey {
  std::string_view key;
  std::string_view rule;           // the type column of docs/deck.md
  std::string_view unit;           // the unit column ("—": dimensionless)
  std::string_view default_value;  // the default column
  LawKeyRule check = LawKeyRule::NonNegative;
  // Where the value lives in ContactLawSpec: a number, or a number that may be "not given".
  double ContactLawSpec::*number = nullptr;
  std::optional<double> ContactLawSpec::*optional = nullptr;
};

// Every key a law may read, in the order the deck reader checks and the writer writes them.
inline constexpr std::array<ContactLawKey, 7> kContactLawKeys{{
    {"friction", "number >= 0", "—", "`0`", LawKeyRule::NonNegative, &ContactLawSpec::friction, nullptr},
    {"static_friction", "number >= `friction`, or `null`", "—", "not given (= `friction`)",
     LawKeyRule::NumberOrNull, nullptr, &ContactLawSpec::static_friction},
    {"slip_weakening_distance", "number >= 0", "m", "1% of the smallest cell size", LawKeyRule::OptionalNonNegative,
     nullptr, &ContactLawSpec::slip_weakening_distance},
    {"adhesion", "number >= 0", "Pa", "`0`", LawKeyRule::NonNegative, &ContactLawSpec::adhesion, nullptr},
    {"normal_stiffness", "number >= 0", "Pa/m", "`0`", LawKeyRule::NonNegative, &ContactLawSpec::normal_stiffness,
     nullptr},
    {"tangential_stiffness", "number >= 0", "Pa/m", "`0`", LawKeyRule::NonNegative,
     &ContactLawSpec::tangential_stiffness, nullptr},
    {"weakening_velocity", "number > 0", "m/s", "**required** with `velocity-weakening`",
     LawKeyRule::RequiredPositive, &ContactLawSpec::weakening_velocity, nullptr},
}};

// A rule between a law's keys that the reader enforces once every key is read: the key it blames
// and why, or nothing. A key that is not given has its absent value in ContactLawSpec.
struct LawViolation {
  std::string_view key;
  std::string message;
};
using LawCheck = std::optional<LawViolation> (*)(const ContactLawSpec&);

// Coulomb's third law: the static coefficient is never below the kinetic one.
inline std::optional<LawViolation> static_not_below_kinetic(const ContactLawSpec& law) {
  if (law.static_friction && !(*law.static_friction >= law.friction))
    return LawViolation{"static_friction",
                        fmt::format("static_friction ({}) must be >= friction ({}): static friction is "
                                    "never below kinetic friction",
                                    *law.static_friction, law.friction)};
  return std::nullopt;
}

// coulomb: as above, and a slip-weakening distance is the slip over which mu_s falls to mu_k, so it
// needs mu_s > mu_k (otherwise it would be silently ignored).
inline std::optional<LawViolation> check_coulomb(const ContactLawSpec& law) {
  if (auto violation = static_not_below_kinetic(law)) return violation;
  if (law.slip_weakening_distance && (!law.static_friction || *law.static_friction == law.friction))
    return LawViolation{"slip_weakening_distance",
                        "'slip_weakening_distance' needs a static_friction above friction: it is the slip "
                        "over which the static coefficient falls to the kinetic one"};
  return std::nullopt;
}

struct ContactLawDescriptor {
  ContactLaw law;
  std::string_view name;
  std::array<std::string_view, 4> keys;  // the keys of kContactLawKeys it reads; "" pads
  bool pd = false;                       // also a law of pd.contact (friction laws only)
  LawCheck check = nullptr;              // rules between its keys; nullptr = none

  constexpr bool reads(std::string_view key) const { return lists_key(keys, key); }
};

// The laws in the order of docs/deck.md. A key's "set law: ..." hint names the first law that reads it.
inline constexpr std::array<ContactLawDescriptor, 5> kContactLaws{{
    {ContactLaw::Frictionless, "frictionless", {}, false},
    {ContactLaw::Stick, "stick", {}, false},
    {ContactLaw::Coulomb, "coulomb", {"friction", "static_friction", "slip_weakening_distance", "adhesion"}, true,
     check_coulomb},
    {ContactLaw::ImperfectInterface, "imperfect-interface", {"normal_stiffness", "tangential_stiffness"}, false},
    {ContactLaw::VelocityWeakening,
     "velocity-weakening",
     {"friction", "static_friction", "adhesion", "weakening_velocity"},
     true,
     static_not_below_kinetic},
}};

constexpr const ContactLawDescriptor& descriptor_of(ContactLaw law) {
  return row_of(kContactLaws, &ContactLawDescriptor::law, law);
}

// The first law that reads `key` (for the reader's hint), or "" when none does.
constexpr std::string_view first_law_reading(std::string_view key) {
  for (const ContactLawDescriptor& d : kContactLaws)
    if (d.reads(key)) return d.name;
  return {};
}

}  // namespace tribo::contact
