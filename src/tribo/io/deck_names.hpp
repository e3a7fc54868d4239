#pragma once
// The deck's spelling of every enumerated option (docs/deck.md), shared by the reader and the
// writer so that a name read is the name written back.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "tribo/contact/contact_laws.hpp"
#include "tribo/core/material_models.hpp"
#include "tribo/core/option_descriptors.hpp"
#include "tribo/core/simulation_spec.hpp"

namespace tribo::io {

template <class E>
struct DeckName {
  E value;
  std::string_view name;
};

inline constexpr std::array<DeckName<Method>, 2> kMethodNames{{
    {Method::Mpm, "mpm"},
    {Method::Pd, "pd"},
}};

// The names of a descriptor table (core/material_models.hpp, core/option_descriptors.hpp):
// `value` is the descriptor's member that holds the enumerator.
template <class E, class D, std::size_t N>
constexpr std::array<DeckName<E>, N> names_from(const std::array<D, N>& table, E D::*value) {
  std::array<DeckName<E>, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = {table[i].*value, table[i].name};
  return names;
}

// The names of the rows of a descriptor table for which keep(row) holds, in the table's order (the
// choices an error message lists).
template <class D, std::size_t N, class Keep>
std::vector<std::string_view> names_where(const std::array<D, N>& table, Keep keep) {
  std::vector<std::string_view> names;
  for (const D& d : table)
    if (keep(d)) names.push_back(d.name);
  return names;
}

// From the material descriptors (core/material_models.hpp).
inline constexpr auto kMaterialModelNames = names_from(kMaterialModels, &MaterialModelDescriptor::model);

// From the law descriptors (contact/contact_laws.hpp).
inline constexpr auto kContactLawNames = names_from(contact::kContactLaws, &contact::ContactLawDescriptor::law);

// From the option descriptors (core/option_descriptors.hpp).
inline constexpr auto kContactNormalNames = names_from(kContactNormalMethods, &ContactNormalDescriptor::method);
inline constexpr auto kFrictionModelNames = names_from(kFrictionModels, &FrictionModelDescriptor::model);
inline constexpr auto kPdContactModelNames = names_from(kPdContactModels, &PdContactModelDescriptor::model);

inline constexpr std::array<DeckName<ContactNormalLaw>, 2> kContactNormalLawNames{{
    {ContactNormalLaw::Impulse, "impulse"},
    {ContactNormalLaw::Penalty, "penalty"},
}};

inline constexpr std::array<DeckName<ContactSlipPoint>, 2> kContactSlipNames{{
    {ContactSlipPoint::Node, "node"},
    {ContactSlipPoint::Surface, "surface"},
}};

inline constexpr std::array<DeckName<ContactPositionMethod>, 2> kContactPositionNames{{
    {ContactPositionMethod::Displacement, "displacement"},
    {ContactPositionMethod::Position, "position"},
}};

inline constexpr std::array<DeckName<ShapeFunctionKind>, 3> kShapeFunctionNames{{
    {ShapeFunctionKind::Linear, "linear"},
    {ShapeFunctionKind::Gimp, "gimp"},
    {ShapeFunctionKind::BSpline2, "bspline2"},
}};

inline constexpr std::array<DeckName<UpdateScheme>, 3> kUpdateSchemeNames{{
    {UpdateScheme::Usl, "usl"},
    {UpdateScheme::Usf, "usf"},
    {UpdateScheme::Musl, "musl"},
}};

inline constexpr std::array<DeckName<TransferScheme>, 2> kTransferSchemeNames{{
    {TransferScheme::Flip, "flip"},
    {TransferScheme::Apic, "apic"},
}};

inline constexpr std::array<DeckName<ParticleFill>, 2> kParticleFillNames{{
    {ParticleFill::Clipped, "clipped"},
    {ParticleFill::Centers, "centers"},
}};

inline constexpr std::array<DeckName<PdContactRadiusRule>, 2> kPdContactRadiusRuleNames{{
    {PdContactRadiusRule::Fixed, "fixed"},
    {PdContactRadiusRule::Lammps, "lammps"},
}};

inline constexpr std::array<DeckName<PdSpec::PartialVolume>, 3> kPartialVolumeNames{{
    {PdSpec::PartialVolume::Automatic, "automatic"},
    {PdSpec::PartialVolume::Hhb, "hhb"},
    {PdSpec::PartialVolume::Pdlammps, "pdlammps"},
}};

inline constexpr std::array<DeckName<HistoryQuantity>, 7> kHistoryQuantityNames{{
    {HistoryQuantity::Centroid, "centroid"},
    {HistoryQuantity::Velocity, "velocity"},
    {HistoryQuantity::ContactForce, "contact-force"},
    {HistoryQuantity::Energy, "energy"},
    {HistoryQuantity::Momentum, "momentum"},
    {HistoryQuantity::AngularMomentum, "angular-momentum"},
    {HistoryQuantity::CrackForce, "crack-force"},
}};

// Particle fields that output.fields may name (the VTK writer's point data).
inline constexpr std::array<std::string_view, 9> kOutputFieldNames{
    "velocity", "displacement", "stress", "strain", "material", "body", "damage", "mass", "volume"};

template <class E, std::size_t N>
constexpr std::string_view name_of(E value, const std::array<DeckName<E>, N>& table) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  return "?";
}

template <class E, std::size_t N>
std::vector<std::string_view> names_in(const std::array<DeckName<E>, N>& table) {
  std::vector<std::string_view> out;
  for (const auto& entry : table) out.push_back(entry.name);
  return out;
}

// "a, b or c", for messages that list the accepted choices.
std::string join_choices(const std::vector<std::string_view>& names);

// The candidate closest to `word` by edit distance, or "" when none is close enough to be a
// likely typo (at most 1 edit for short words, 2 for longer ones, 3 for long ones).
std::string closest_name(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace tribo::io
