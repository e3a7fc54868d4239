// The material-model descriptors (src/tribo/core/material_models.hpp) against what derives from
// them: the materials table of docs/deck.md, the fuzz dictionary, the reader and the writer.
#include "tribo/core/material_models.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tribo/io/deck_names.hpp"
#include "tribo/io/deck_reader.hpp"
#include "tribo/io/deck_writer.hpp"
#include "../support/deck_text.hpp"
#include "../support/docs_tables.hpp"

namespace tribo::io {
namespace {

using test_support::row_of;
using test_support::wrapped;

TEST(MaterialModelDescriptors, DocsMaterialsTableHasEveryKeyAndModel) {
  const auto rows = test_support::deck_doc_table_after("## materials");
  for (const MaterialKey& key : kMaterialKeys) {
    const std::vector<std::string>* row = row_of(rows, key.key);
    ASSERT_NE(row, nullptr) << "docs/deck.md's materials table lacks `" << key.key << "`";
    ASSERT_GE(row->size(), 5u);
    EXPECT_EQ((*row)[1], key.rule) << key.key;
    EXPECT_EQ((*row)[2], key.unit) << key.key;
    EXPECT_EQ((*row)[3], key.default_value) << key.key;
  }
  // The model row names every model in its meaning and each method's default in its default.
  const std::vector<std::string>* model_row = row_of(rows, "model");
  ASSERT_NE(model_row, nullptr);
  ASSERT_GE(model_row->size(), 5u);
  for (const MaterialModelDescriptor& d : kMaterialModels)
    EXPECT_NE((*model_row)[4].find(wrapped("`", d.name, "`")), std::string::npos) << d.name;
  EXPECT_EQ((*model_row)[3],
            wrapped(wrapped("`", descriptor_of(default_material_model(true)).name, "` (mpm), `"),
                    descriptor_of(default_material_model(false)).name, "` (pd)"));
  // No row is a key the descriptors do not know.
  for (const auto& row : rows) {
    if (row.empty() || row[0].size() < 2 || row[0][0] != '`') continue;
    const std::string key = row[0].substr(1, row[0].size() - 2);
    bool known = key == "name" || key == "model";
    for (const MaterialKey& k : kMaterialKeys) known = known || k.key == key;
    EXPECT_TRUE(known) << "docs/deck.md documents a material key the descriptors lack: " << key;
  }
}

TEST(MaterialModelDescriptors, FuzzDictionaryHoldsEveryModelAndKey) {
  for (const MaterialModelDescriptor& d : kMaterialModels)
    EXPECT_TRUE(test_support::fuzz_dictionary_has(d.name)) << "fuzz/deck.dict lacks \"" << d.name << "\"";
  for (const MaterialKey& key : kMaterialKeys)
    EXPECT_TRUE(test_support::fuzz_dictionary_has(key.key)) << "fuzz/deck.dict lacks \"" << key.key << "\"";
}

// A deck of `method` with one material {model, extra} (extra: ", key: value" pairs) and a body of it.
std::string deck_with_material(bool mpm, std::string_view model, const std::string& extra) {
  std::string deck = mpm ? "method: mpm\ntime: {end: 1, dt: 1.0e-4}\n" : "method: pd\ntime: {end: 1.0e-4}\n";
  deck += wrapped("materials:\n  - {name: m, model: ", model, "");
  deck += extra + "}\n";
  deck += "bodies:\n  - {name: b, material: m, geometry: {box: {min: [0.2, 0.2], max: [0.4, 0.4]}}}\n";
  deck += mpm ? "mpm:\n  grid: {min: [0, 0], max: [1, 1], cell: 0.05}\n" : "pd:\n  spacing: 0.05\n";
  return deck;
}

std::string error_of(const std::string& deck) { return test_support::deck_error(deck); }

// A value each key accepts for every model that reads it (pmb: Poisson's ratio 1/3 in 2D).
std::string good_value(const MaterialKey& key, const MaterialModelDescriptor& model) {
  if (key.key == "poisson_ratio") return model.fixed_poisson_ratio ? "0.3333333333333333" : "0.25";
  if (key.key == "critical_stretch") return "0.01";
  if (key.key == "density") return "2500";
  return "2.0e9";
}

// Each model of each method reads its keys and refuses every other one by name; a model of the
// other method is refused with the list of this method's models.
TEST(MaterialModelDescriptors, ReaderTakesTheKeysEachModelReads) {
  for (const bool mpm : {true, false}) {
    std::vector<std::string_view> taken;
    for (const MaterialModelDescriptor& d : kMaterialModels)
      if (d.taken_by(mpm)) taken.push_back(d.name);
    for (const MaterialModelDescriptor& d : kMaterialModels) {
      if (!d.taken_by(mpm)) {
        const std::string error = error_of(deck_with_material(mpm, d.name, ", youngs_modulus: 1.0e6"));
        EXPECT_NE(error.find(join_choices(taken)), std::string::npos) << d.name << ": " << error;
        continue;
      }
      for (const MaterialKey& key : kMaterialKeys) {
        std::string extra = wrapped(", ", key.key, ": ") + good_value(key, d);
        if (key.key != "youngs_modulus" && d.elastic_constants_required) extra += ", youngs_modulus: 1.0e6";
        const std::string error = error_of(deck_with_material(mpm, d.name, extra));
        if (d.reads(key.key))
          EXPECT_EQ(error, "") << d.name << " " << key.key;
        else
          EXPECT_NE(error.find(wrapped("materials[0].", key.key, ":")), std::string::npos)
              << d.name << " accepted " << key.key << ": " << error;
      }
      // A model that needs elastic constants requires youngs_modulus.
      const std::string bare = error_of(deck_with_material(mpm, d.name, ""));
      EXPECT_EQ(bare.find("youngs_modulus") != std::string::npos, d.elastic_constants_required)
          << d.name << ": " << bare;
    }
  }
}

// Every model with every key it reads comes back from the deck as run unchanged.
TEST(MaterialModelDescriptors, ModelsRoundTripThroughTheWriter) {
  for (const bool mpm : {true, false})
    for (const MaterialModelDescriptor& d : kMaterialModels) {
      if (!d.taken_by(mpm)) continue;
      std::string extra;
      for (const MaterialKey& key : kMaterialKeys)
        if (d.reads(key.key)) extra += wrapped(", ", key.key, ": ") + good_value(key, d);
      const SimulationSpec a = parse_deck(deck_with_material(mpm, d.name, extra), "material.yaml");
      const SimulationSpec b = parse_deck(write_deck(a), "deck.yaml");
      const MaterialSpec &ma = a.materials.at(0), &mb = b.materials.at(0);
      EXPECT_EQ(mb.model, d.model);
      EXPECT_EQ(mb.density, 2500.0) << d.name;
      EXPECT_EQ(mb.youngs_modulus, 2.0e9) << d.name;
      EXPECT_EQ(mb.poisson_ratio, ma.poisson_ratio) << d.name;
      EXPECT_EQ(mb.critical_stretch, ma.critical_stretch) << d.name;
      if (d.reads("critical_stretch")) {
        EXPECT_EQ(mb.critical_stretch, 0.01) << d.name;
      }
      EXPECT_EQ(write_deck(b), write_deck(a)) << d.name;
    }
}

}  // namespace
}  // namespace tribo::io
