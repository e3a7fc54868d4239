#pragma once
// The enumerated options of the deck that are not laws or materials, as data: each alternative's
// deck name, the keys of its section that only some alternatives read, and its defaults. The deck
// reader (names, which keys an alternative reads, defaults), the writer, the tables of docs/deck.md
// and the fuzz dictionary (tests/io/option_descriptors_test.cpp checks both) derive from these
// tables; a new alternative adds one row here and its kernel (mpm/contact_normal.cpp,
// pd/pd_contact.cpp, pd/friction_models.hpp).
#include <array>
#include <string_view>

#include "tribo/core/descriptor_table.hpp"
#include "tribo/core/simulation_spec.hpp"

namespace tribo {

// mpm.contact.normals (mpm/contact_normal.cpp). `keys`: the keys of mpm.contact only this method reads.
struct ContactNormalDescriptor {
  ContactNormalMethod method;
  std::string_view name;
  std::array<std::string_view, 1> keys;

  constexpr bool reads(std::string_view key) const { return lists_key(keys, key); }
};

// In the order of docs/deck.md's `normals` row.
inline constexpr std::array<ContactNormalDescriptor, 6> kContactNormalMethods{{
    {ContactNormalMethod::MaxVolumeGradient, "max-volume-gradient", {}},
    {ContactNormalMethod::MaxGradient, "max-gradient", {}},
    {ContactNormalMethod::AverageVolumeGradient, "average-volume-gradient", {}},
    {ContactNormalMethod::MassGradient, "mass-gradient", {}},
    {ContactNormalMethod::Specified, "specified", {"normal_angles"}},
    {ContactNormalMethod::LogisticRegression, "logistic-regression", {}},
}};

// pd.contact.model (pd/pd_contact.cpp): its kernel support or contact distance and its stiffness
// when the deck gives none (docs/pd-friction.md), and whether it takes radius_rule: lammps.
struct PdContactModelDescriptor {
  PdContactModel model;
  std::string_view name;
  double default_radius;     // spacings: smoothed, kernel support R; pairwise, contact distance d
  double default_stiffness;  // bond micromodulus units
  bool lammps_radius_rule;   // radius_rule: lammps (d from the reference distance, LAMMPS' rule)
  // spacings: the radius must exceed it. Smoothed: the kernel must reach the other body's points
  // at the rest gap (one spacing) whatever the lateral offset, sqrt(1 + 1/4) h = 1.118 h in 2D and
  // sqrt(1 + 1/2) h = 1.225 h in 3D, or the calibration has no gradient to rest on (G0 = 0): a
  // block with radius 0.9 fell through its floor with NaN contact energy (stop 22).
  double smallest_radius;
};

inline constexpr std::array<PdContactModelDescriptor, 2> kPdContactModels{{
    {PdContactModel::Smoothed, "smoothed", 2.0, 1.0, false, 1.25},
    {PdContactModel::Pairwise, "pairwise", 0.9, 15.0, true, 0.0},
}};

// pd.contact.friction_model (pd/friction_models.hpp, pd/objective_friction.cpp). A model without
// friction refuses nonzero friction coefficients and any law but the default.
struct FrictionModelDescriptor {
  FrictionModel model;
  std::string_view name;
  bool has_friction;
};

inline constexpr std::array<FrictionModelDescriptor, 4> kFrictionModels{{
    {FrictionModel::Bfcm, "bfcm", true},
    {FrictionModel::Nfcm, "nfcm", true},
    {FrictionModel::Objective, "objective", true},
    {FrictionModel::None, "none", false},
}};

constexpr const ContactNormalDescriptor& descriptor_of(ContactNormalMethod method) {
  return row_of(kContactNormalMethods, &ContactNormalDescriptor::method, method);
}
constexpr const PdContactModelDescriptor& descriptor_of(PdContactModel model) {
  return row_of(kPdContactModels, &PdContactModelDescriptor::model, model);
}
constexpr const FrictionModelDescriptor& descriptor_of(FrictionModel model) {
  return row_of(kFrictionModels, &FrictionModelDescriptor::model, model);
}

// The contact radius (spacings) and stiffness (micromodulus units) of a deck's PD contact: given,
// or its model's default.
constexpr double radius_in_spacings(const PdContactSpec& contact) {
  return contact.radius ? *contact.radius : descriptor_of(contact.model).default_radius;
}
constexpr double stiffness_in_units(const PdContactSpec& contact) {
  return contact.stiffness ? *contact.stiffness : descriptor_of(contact.model).default_stiffness;
}

}  // namespace tribo
