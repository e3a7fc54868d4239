// The contact-law descriptors (src/tribo/contact/contact_laws.hpp) against what derives from them:
// the law table of docs/deck.md, the fuzz dictionary, the reader and the writer.
#include "tribo/contact/contact_laws.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tribo/io/deck_reader.hpp"
#include "tribo/io/deck_writer.hpp"
#include "../support/deck_text.hpp"
#include "../support/docs_tables.hpp"

namespace tribo::io {
namespace {

namespace fs = std::filesystem;
using test_support::row_of;
using test_support::wrapped;

std::vector<std::vector<std::string>> table_after(const std::string& heading) {
  return test_support::deck_doc_table_after(heading);
}

TEST(ContactLawDescriptors, DocsLawTableHasEveryKeyWithItsRuleUnitDefaultAndLaws) {
  const auto rows = table_after("### contact laws (pairs and cracks)");
  for (const contact::ContactLawKey& key : contact::kContactLawKeys) {
    const std::vector<std::string>* row = row_of(rows, key.key);
    ASSERT_NE(row, nullptr) << "docs/deck.md's law table lacks `" << key.key << "`";
    ASSERT_GE(row->size(), 5u);
    EXPECT_EQ((*row)[1], key.rule) << key.key;
    EXPECT_EQ((*row)[2], key.unit) << key.key;
    EXPECT_EQ((*row)[3], key.default_value) << key.key;
    // The meaning names every law that reads the key.
    for (const contact::ContactLawDescriptor& law : contact::kContactLaws) {
      if (!law.reads(key.key)) continue;
      EXPECT_NE((*row)[4].find(wrapped("`", law.name, "`")), std::string::npos)
          << "`" << key.key << "` does not name law " << law.name;
    }
  }
  // The `law` row lists exactly the laws, in order.
  const std::vector<std::string>* law_row = row_of(rows, "law");
  ASSERT_NE(law_row, nullptr);
  std::string names;
  for (const contact::ContactLawDescriptor& law : contact::kContactLaws)
    names += wrapped(names.empty() ? "`" : ", `", law.name, "`");
  EXPECT_EQ(law_row->back(), names);
  // No row of the table is a key the descriptors do not know.
  for (const auto& row : rows) {
    if (row.empty() || row[0].size() < 2 || row[0][0] != '`') continue;
    const std::string key = row[0].substr(1, row[0].size() - 2);
    bool known = key == "law";
    for (const contact::ContactLawKey& k : contact::kContactLawKeys) known = known || k.key == key;
    EXPECT_TRUE(known) << "docs/deck.md documents a law key the descriptors lack: " << key;
  }
}

TEST(ContactLawDescriptors, DocsPdContactTableListsThePdLaws) {
  const auto rows = table_after("### pd.contact");
  const std::vector<std::string>* law_row = row_of(rows, "law");
  ASSERT_NE(law_row, nullptr);
  for (const contact::ContactLawDescriptor& law : contact::kContactLaws) {
    const bool listed = (*law_row)[1].find(wrapped("`", law.name, "`")) != std::string::npos;
    EXPECT_EQ(listed, law.pd) << law.name;
  }
  EXPECT_NE(row_of(rows, "weakening_velocity"), nullptr);
}

TEST(ContactLawDescriptors, FuzzDictionaryHoldsEveryLawNameAndKey) {
  auto has = [](std::string_view word) { return test_support::fuzz_dictionary_has(word); };
  EXPECT_TRUE(has("law"));
  for (const contact::ContactLawDescriptor& law : contact::kContactLaws)
    EXPECT_TRUE(has(law.name)) << "fuzz/deck.dict lacks \"" << law.name << "\"";
  for (const contact::ContactLawKey& key : contact::kContactLawKeys)
    EXPECT_TRUE(has(key.key)) << "fuzz/deck.dict lacks \"" << key.key << "\"";
}

// Each law reads its own keys and rejects every other one (the reader's rule, from the table).
TEST(ContactLawDescriptors, ReaderRejectsEveryKeyTheLawDoesNotRead) {
  const std::string head = std::string(test_support::kMpmBlockOnFloorDeck) + "  contact:\n    pairs:\n";
  for (const contact::ContactLawDescriptor& law : contact::kContactLaws)
    for (const contact::ContactLawKey& key : contact::kContactLawKeys) {
      if (law.reads(key.key)) continue;
      std::string pair = wrapped("      - {materials: [block, floor], law: ", law.name, "");
      if (law.reads("weakening_velocity")) pair += ", weakening_velocity: 0.1";
      pair += wrapped(", ", key.key, ": 0.5}\n");
      try {
        parse_deck(head + pair, "law.yaml");
        ADD_FAILURE() << law.name << " accepted " << key.key;
      } catch (const DeckError& e) {
        EXPECT_NE(std::string(e.what()).find(wrapped("is not used by law '", law.name, "'")), std::string::npos)
            << e.what();
      }
    }
}

TEST(ContactLawDescriptors, VelocityWeakeningReadsAndWritesBackExactly) {
  const fs::path good = fs::path(TRIBO_SOURCE_DIR) / "tests" / "decks" / "good";
  const SimulationSpec mpm = read_deck(good / "mpm_velocity_weakening_2d.yaml");
  const ContactLawSpec& pair = mpm.mpm.contact.pairs.at(0).law;
  EXPECT_EQ(pair.law, ContactLaw::VelocityWeakening);
  EXPECT_EQ(pair.friction, 0.2);
  EXPECT_EQ(pair.static_friction, 0.4);
  EXPECT_EQ(pair.weakening_velocity, 0.2);
  EXPECT_EQ(pair.adhesion, 10.0);
  EXPECT_EQ(mpm.mpm.cracks.at(0).law.law, ContactLaw::VelocityWeakening);
  EXPECT_EQ(mpm.mpm.cracks.at(0).law.weakening_velocity, 0.05);
  const SimulationSpec mpm_again = parse_deck(write_deck(mpm), "deck.yaml");
  EXPECT_EQ(mpm_again.mpm.contact.pairs.at(0).law.weakening_velocity, 0.2);
  EXPECT_EQ(mpm_again.mpm.contact.pairs.at(0).law.law, ContactLaw::VelocityWeakening);
  EXPECT_EQ(mpm_again.mpm.cracks.at(0).law.weakening_velocity, 0.05);

  const SimulationSpec pd = read_deck(good / "pd_velocity_weakening_2d.yaml");
  EXPECT_EQ(pd.pd.contact.law.law, ContactLaw::VelocityWeakening);
  EXPECT_EQ(pd.pd.contact.law.weakening_velocity, 0.2);
  const SimulationSpec pd_again = parse_deck(write_deck(pd), "deck.yaml");
  EXPECT_EQ(pd_again.pd.contact.law.law, ContactLaw::VelocityWeakening);
  EXPECT_EQ(pd_again.pd.contact.law.weakening_velocity, 0.2);
  EXPECT_EQ(pd_again.pd.contact.law.static_friction, 0.4);
}

const char* const kPdHead = test_support::kPdBlockOnFloorDeck;

// The error of a PD deck whose pd.contact is `contact`, or "" when it reads.
std::string pd_error(const std::string& contact) {
  try {
    parse_deck(wrapped(kPdHead, wrapped("  contact: {", contact, "}"), "\n"), "pd.yaml");
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

// PD's friction law reads the same descriptors: each PD law rejects every law key it does not read
// (a key no PD law reads is an unknown key of pd.contact), and reads each one it does.
TEST(ContactLawDescriptors, PdReaderTakesTheLawKeysFromTheDescriptors) {
  for (const contact::ContactLawDescriptor& law : contact::kContactLaws) {
    if (!law.pd) continue;
    std::string base = wrapped("law: ", law.name, "");
    if (law.reads("weakening_velocity")) base += ", weakening_velocity: 0.1";
    for (const contact::ContactLawKey& key : contact::kContactLawKeys) {
      if (key.key == "weakening_velocity" && law.reads(key.key)) continue;  // in `base` already
      const std::string error = pd_error(wrapped(base + ", ", key.key, ": 0.5"));
      if (law.reads(key.key)) {
        // slip_weakening_distance needs static_friction > friction (the law's check).
        if (key.key == "slip_weakening_distance")
          EXPECT_NE(error.find("needs a static_friction above friction"), std::string::npos) << error;
        else
          EXPECT_EQ(error, "") << law.name << " " << key.key;
      } else {
        const bool refused = error.find(wrapped("is not used by law '", law.name, "'")) != std::string::npos ||
                             error.find("unknown key") != std::string::npos;
        EXPECT_TRUE(refused) << law.name << " " << key.key << ": " << error;
      }
    }
    // The rule between keys of every PD friction law: static friction is never below kinetic.
    EXPECT_NE(pd_error(base + ", friction: 0.4, static_friction: 0.3").find("must be >= friction (0.4)"),
              std::string::npos)
        << law.name;
  }
  // A law that is not a PD law is refused by name.
  EXPECT_NE(pd_error("law: stick").find("is not a PD contact law"), std::string::npos);
}

// Every PD law with every key it reads comes back from the deck as run unchanged.
TEST(ContactLawDescriptors, PdLawsRoundTripThroughTheWriter) {
  for (const contact::ContactLawDescriptor& law : contact::kContactLaws) {
    if (!law.pd) continue;
    std::string contact = wrapped("law: ", law.name, ", friction: 0.25, static_friction: 0.5, adhesion: 3");
    if (law.reads("weakening_velocity")) contact += ", weakening_velocity: 0.125";
    if (law.reads("slip_weakening_distance")) contact += ", slip_weakening_distance: 0.001";
    const SimulationSpec a = parse_deck(wrapped(kPdHead, wrapped("  contact: {", contact, "}"), "\n"), "pd.yaml");
    const SimulationSpec b = parse_deck(write_deck(a), "deck.yaml");
    const ContactLawSpec &la = a.pd.contact.law, &lb = b.pd.contact.law;
    EXPECT_EQ(la.law, law.law);
    EXPECT_EQ(lb.law, la.law);
    EXPECT_EQ(lb.friction, 0.25);
    EXPECT_EQ(lb.static_friction, la.static_friction);
    EXPECT_EQ(lb.adhesion, 3.0);
    EXPECT_EQ(lb.slip_weakening_distance, la.slip_weakening_distance);
    EXPECT_EQ(lb.weakening_velocity, la.weakening_velocity);
    EXPECT_EQ(write_deck(b), write_deck(a)) << law.name;
  }
}

// A coulomb PD deck's deck.yaml does not gain a `law` key (its checkpoint fingerprint is kept).
TEST(ContactLawDescriptors, CoulombPdDeckIsWrittenWithoutALawKey) {
  const fs::path good = fs::path(TRIBO_SOURCE_DIR) / "tests" / "decks" / "good";
  const std::string text = write_deck(read_deck(good / "pd_incline_2d.yaml"));
  EXPECT_EQ(text.find("law:"), std::string::npos);
  EXPECT_NE(text.find("regularization_velocity:"), std::string::npos);
}

}  // namespace
}  // namespace tribo::io
