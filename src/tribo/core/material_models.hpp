#pragma once
// The material models of the deck as data: each model's deck name, the methods that take it and
// the keys it reads, and each key's range rule, unit, default and one-line meaning. The deck reader
// (which keys a model reads, which method takes it), the writer (which keys it writes), the
// materials table of docs/deck.md and the fuzz dictionary (tests/io/material_models_test.cpp
// checks both) derive from this table. A new model adds one row to kMaterialModels, one row to
// io/deck_names.hpp's names if the enum grows, and its kernel: a StressModel specialisation
// (mpm/constitutive.hpp) or a bond pass (pd/).
#include <array>
#include <optional>
#include <string_view>

#include "tribo/core/descriptor_table.hpp"
#include "tribo/core/material.hpp"

namespace tribo {

// How the reader checks a key's value (the type column of docs/deck.md says the same in words).
enum class MaterialKeyRule {
  Positive,         // > 0
  PoissonRange,     // in the open interval (-1, 0.5)
  PositiveOrNull,   // > 0, or null (= not given)
};

struct MaterialKey {
  std::string_view key;
  std::string_view rule;           // the type column of docs/deck.md
  std::string_view unit;           // the unit column ("—": dimensionless)
  std::string_view default_value;  // the default column
  MaterialKeyRule check = MaterialKeyRule::Positive;
  // Where the value lives in MaterialSpec: a number, or a number that may be "not given".
  double MaterialSpec::*number = nullptr;
  std::optional<double> MaterialSpec::*optional = nullptr;
  // An elastic constant: a model that does not need them (rigid) has it written only when given.
  bool elastic_constant = false;
  // What the reader says when the deck's method has no model that reads the key, and, for a model
  // of that method that does not, what that model lacks ("a rigid material has no ...").
  std::string_view method_refusal = {};
  std::string_view model_lacks = {};
};

// The keys a material may have besides `name` and `model`, in the order the reader checks and the
// writer writes them.
inline constexpr std::array<MaterialKey, 4> kMaterialKeys{{
    {"density", "number > 0", "kg/m³", "`1000`", MaterialKeyRule::Positive, &MaterialSpec::density, nullptr},
    {"youngs_modulus", "number > 0", "Pa", "**required** unless `rigid`", MaterialKeyRule::Positive,
     &MaterialSpec::youngs_modulus, nullptr, true},
    {"poisson_ratio", "number in (-1, 0.5)", "—", "`0` (`pmb`: see below)", MaterialKeyRule::PoissonRange,
     &MaterialSpec::poisson_ratio, nullptr, true},
    {"critical_stretch", "number > 0 or `null`", "—", "not given (unbreakable)", MaterialKeyRule::PositiveOrNull,
     nullptr, &MaterialSpec::critical_stretch, false,
     "critical_stretch is a peridynamics key (bond breaking); an mpm deck has no bonds", "bonds to break"},
}};

struct MaterialModelDescriptor {
  MaterialModel model;
  std::string_view name;
  bool mpm = false;                      // an MPM deck takes it
  bool pd = false;                       // a PD deck takes it
  std::array<std::string_view, 4> keys;  // the keys of kMaterialKeys it reads; "" pads
  bool elastic_constants_required = true;  // youngs_modulus must be given (rigid: checked if given)
  bool fixed_poisson_ratio = false;        // bond-based PD: nu is 1/3 (2D) or 1/4 (3D), Silling 2000

  constexpr bool reads(std::string_view key) const { return lists_key(keys, key); }
  constexpr bool taken_by(bool mpm_deck) const { return mpm_deck ? mpm : pd; }
};

// The models in the order of docs/deck.md (MPM first, then PD). `rigid` reads the elastic constants
// only to check them (a deck may keep them while it toggles a body rigid); it has no bonds, so no
// critical_stretch.
inline constexpr std::array<MaterialModelDescriptor, 5> kMaterialModels{{
    {MaterialModel::LinearElastic, "linear-elastic", true, false, {"density", "youngs_modulus", "poisson_ratio"}},
    {MaterialModel::NeoHookean, "neo-hookean", true, false, {"density", "youngs_modulus", "poisson_ratio"}},
    {MaterialModel::Rigid, "rigid", true, true, {"density", "youngs_modulus", "poisson_ratio"}, false},
    {MaterialModel::Pmb, "pmb", false, true, {"density", "youngs_modulus", "poisson_ratio", "critical_stretch"}, true,
     true},
    {MaterialModel::Lps, "lps", false, true, {"density", "youngs_modulus", "poisson_ratio", "critical_stretch"}},
}};

constexpr const MaterialModelDescriptor& descriptor_of(MaterialModel model) {
  return row_of(kMaterialModels, &MaterialModelDescriptor::model, model);
}

// The model a material of an MPM (PD) deck has when its `model` is not given.
constexpr MaterialModel default_material_model(bool mpm_deck) {
  return mpm_deck ? MaterialModel::LinearElastic : MaterialModel::Pmb;
}

}  // namespace tribo
