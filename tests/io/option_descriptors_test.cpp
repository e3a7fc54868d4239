// The option descriptors (src/tribo/core/option_descriptors.hpp: contact normal methods, PD contact
// models, PD friction models) against what derives from them: the tables of docs/deck.md, the fuzz
// dictionary and the reader.
#include "tribo/core/option_descriptors.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tribo/io/deck_names.hpp"
#include "tribo/io/deck_reader.hpp"
#include "../support/deck_text.hpp"
#include "../support/docs_tables.hpp"

namespace tribo::io {
namespace {

using test_support::quoted_list;
using test_support::row_of;
using test_support::wrapped;

template <class Table>
std::vector<std::string_view> names_of(const Table& table) {
  std::vector<std::string_view> names;
  for (const auto& d : table) names.push_back(d.name);
  return names;
}

// The keys of mpm.contact that only some normal methods read (their rows' `keys`).
std::vector<std::string_view> normal_method_keys() {
  std::vector<std::string_view> keys;
  for (const ContactNormalDescriptor& d : kContactNormalMethods)
    for (std::string_view k : d.keys)
      if (!k.empty() && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  return keys;
}

TEST(OptionDescriptors, DocsListEveryNormalMethodWithTheDefault) {
  const auto rows = test_support::deck_doc_table_after("### mpm.contact");
  const std::vector<std::string>* row = row_of(rows, "normals");
  ASSERT_NE(row, nullptr);
  ASSERT_GE(row->size(), 5u);
  EXPECT_NE((*row)[4].find(wrapped("contact normal: ", quoted_list(names_of(kContactNormalMethods), ", "), ".")),
            std::string::npos)
      << (*row)[4];
  EXPECT_EQ((*row)[3], wrapped("`", descriptor_of(MpmContactSpec{}.normals).name, "`"));
  // Each key only some methods read names them.
  for (std::string_view key : normal_method_keys()) {
    const std::vector<std::string>* key_row = row_of(rows, key);
    ASSERT_NE(key_row, nullptr) << key;
    for (const ContactNormalDescriptor& d : kContactNormalMethods)
      if (d.reads(key)) {
        EXPECT_NE((*key_row)[4].find(wrapped("`normals: ", d.name, "`")), std::string::npos) << key;
      }
  }
}

TEST(OptionDescriptors, DocsListEveryPdContactAndFrictionModelWithTheirDefaults) {
  const auto rows = test_support::deck_doc_table_after("### pd.contact");
  const std::vector<std::string>* model = row_of(rows, "model");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ((*model)[1], quoted_list(names_of(kPdContactModels), " \\| "));
  EXPECT_EQ((*model)[3], wrapped("`", descriptor_of(PdContactSpec{}.model).name, "`"));
  std::string radius, stiffness;
  for (const PdContactModelDescriptor& d : kPdContactModels) {
    radius += fmt::format("{}`{}` {}", radius.empty() ? "" : ", ", d.default_radius, d.name);
    stiffness += fmt::format("{}`{}` {}", stiffness.empty() ? "" : ", ", d.default_stiffness, d.name);
  }
  ASSERT_NE(row_of(rows, "radius"), nullptr);
  ASSERT_NE(row_of(rows, "stiffness"), nullptr);
  EXPECT_EQ((*row_of(rows, "radius"))[3], radius);
  EXPECT_EQ((*row_of(rows, "stiffness"))[3], stiffness);
  const std::vector<std::string>* friction = row_of(rows, "friction_model");
  ASSERT_NE(friction, nullptr);
  EXPECT_EQ((*friction)[1], quoted_list(names_of(kFrictionModels), " \\| "));
  EXPECT_EQ((*friction)[3], wrapped("`", descriptor_of(PdContactSpec{}.friction_model).name, "`"));
}

TEST(OptionDescriptors, FuzzDictionaryHoldsEveryName) {
  std::vector<std::string_view> words = names_of(kContactNormalMethods);
  for (std::string_view w : names_of(kPdContactModels)) words.push_back(w);
  for (std::string_view w : names_of(kFrictionModels)) words.push_back(w);
  for (std::string_view w : normal_method_keys()) words.push_back(w);
  for (std::string_view w : words)
    EXPECT_TRUE(test_support::fuzz_dictionary_has(w)) << "fuzz/deck.dict lacks \"" << w << "\"";
}

std::string error_of(const std::string& deck) { return test_support::deck_error(deck); }

const char* const kMpmHead = test_support::kMpmBlockOnFloorDeck;

// Each normal method reads its own keys and refuses the others' by name.
TEST(OptionDescriptors, ReaderTakesTheKeysEachNormalMethodReads) {
  for (const ContactNormalDescriptor& d : kContactNormalMethods)
    for (std::string_view key : normal_method_keys()) {
      const std::string error = error_of(wrapped(kMpmHead, wrapped("  contact: {normals: ", d.name, ", "),
                                                 wrapped("", key, ": {polar: 90, azimuth: 90}}\n")));
      if (d.reads(key))
        EXPECT_EQ(error, "") << d.name;
      else
        EXPECT_NE(error.find(wrapped("", key, " is only used with normals: specified")), std::string::npos)
            << d.name << ": " << error;
    }
}

const char* const kPdHead = test_support::kPdBlockOnFloorDeck;

std::string pd_error(const std::string& contact) {
  return error_of(wrapped(kPdHead, wrapped("  contact: {", contact, "}"), "\n"));
}

// LAMMPS' radius rule only with the models that take it; friction only with a model that has it;
// an omitted radius and stiffness are the model's defaults.
TEST(OptionDescriptors, ReaderAppliesThePdModelsRules) {
  for (const PdContactModelDescriptor& d : kPdContactModels) {
    const std::string error = pd_error(wrapped("model: ", d.name, ", radius_rule: lammps"));
    EXPECT_EQ(error.empty(), d.lammps_radius_rule) << d.name << ": " << error;
    const SimulationSpec spec = parse_deck(wrapped(kPdHead, wrapped("  contact: {model: ", d.name, "}"), "\n"), "m.yaml");
    EXPECT_EQ(radius_in_spacings(spec.pd.contact), d.default_radius) << d.name;
    EXPECT_EQ(stiffness_in_units(spec.pd.contact), d.default_stiffness) << d.name;
  }
  for (const FrictionModelDescriptor& d : kFrictionModels) {
    const std::string error = pd_error(wrapped("friction_model: ", d.name, ", friction: 0.3"));
    if (d.has_friction)
      EXPECT_EQ(error, "") << d.name;
    else
      EXPECT_NE(error.find(wrapped("is not used with friction_model: ", d.name, "")), std::string::npos)
          << d.name << ": " << error;
  }
}

}  // namespace
}  // namespace tribo::io
