// The deck reader against docs/deck.md: defaults, the shapes of values, name resolution, and the
// bad-deck corpus (tests/decks/bad), whose every file states the line and message it must fail with.
#include "tribo/io/deck_reader.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <set>
#include <vector>

#include "tribo/core/option_descriptors.hpp"
#include "tribo/io/deck_writer.hpp"

namespace tribo::io {
namespace {

namespace fs = std::filesystem;

const fs::path kDecks = fs::path(TRIBO_SOURCE_DIR) / "tests" / "decks";

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> decks_in(const fs::path& folder) {
  std::vector<fs::path> out;
  if (fs::is_directory(folder))
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".yaml") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// What a bad deck must fail with: its first line `# expect: LINE TEXT`, or else its row in
// EXPECTED.txt (`FILE LINE TEXT`, for files such as the empty one that cannot carry a comment).
struct Expectation {
  int line = -1;
  std::string fragment;
};

Expectation expectation_for(const fs::path& file) {
  Expectation e;
  std::istringstream first_line(read_text(file));
  std::string header;
  std::getline(first_line, header);
  const std::string tag = "# expect: ";
  if (header.rfind(tag, 0) == 0) {
    std::istringstream rest(header.substr(tag.size()));
    rest >> e.line;
    std::getline(rest >> std::ws, e.fragment);
    return e;
  }
  std::istringstream table(read_text(file.parent_path() / "EXPECTED.txt"));
  std::string row;
  while (std::getline(table, row)) {
    std::istringstream fields(row);
    std::string name;
    fields >> name;
    if (name != file.filename().string()) continue;
    fields >> e.line;
    std::getline(fields >> std::ws, e.fragment);
  }
  return e;
}

std::string test_name(const fs::path& file) {
  std::string name = file.stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// ---- the bad-deck corpus -------------------------------------------------------------------

class BadDeck : public ::testing::TestWithParam<fs::path> {};

TEST_P(BadDeck, IsRejectedAtItsLineWithAMessageNamingTheKey) {
  const fs::path file = GetParam();
  const Expectation expected = expectation_for(file);
  ASSERT_GE(expected.line, 1) << file << " states no '# expect: LINE TEXT' and has no EXPECTED.txt row";
  ASSERT_FALSE(expected.fragment.empty()) << file;
  try {
    read_deck(file);
    FAIL() << file << " was accepted";
  } catch (const DeckError& e) {
    EXPECT_EQ(e.where().file, file.string());
    EXPECT_EQ(e.where().line, expected.line) << e.what();
    EXPECT_GE(e.where().column, 1) << e.what();
    EXPECT_NE(std::string(e.what()).find(expected.fragment), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << expected.fragment;
    // The place is printed as FILE:LINE:COLUMN, which editors and `tribo check` users jump to.
    EXPECT_NE(std::string(e.what()).find(file.string() + ":" + std::to_string(expected.line) + ":"),
              std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadDeck, ::testing::ValuesIn(decks_in(kDecks / "bad")),
                         [](const auto& info) { return test_name(info.param); });

TEST(BadDeckCorpus, HoldsAtLeast45DecksCoveringEveryCategory) {
  const std::vector<fs::path> files = decks_in(kDecks / "bad");
  EXPECT_GE(files.size(), 45u);
  // File names start with their category; each category of docs/deck.md's error list is present.
  std::map<std::string, int> count;
  const std::vector<std::string> categories{
      "type_",      "missing_",       "range_",  "unknown_", "duplicate_",    "empty_",
      "outside_",   "contradiction_", "yaml_",   "binary_",  "not_a_mapping_"};
  for (const fs::path& f : files)
    for (const std::string& c : categories)
      if (f.filename().string().rfind(c, 0) == 0) ++count[c];
  for (const std::string& c : categories) EXPECT_GE(count[c], 2) << "category " << c;
  // The empty file really is empty, so the reader sees zero bytes.
  EXPECT_EQ(fs::file_size(kDecks / "bad" / "empty.yaml"), 0u);
}

// ---- good decks ----------------------------------------------------------------------------

class GoodDeck : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoodDeck, Parses) {
  const SimulationSpec spec = read_deck(GetParam());
  EXPECT_EQ(spec.source_file, GetParam().string());
  EXPECT_FALSE(spec.materials.empty());
  EXPECT_FALSE(spec.bodies.empty());
  for (const BodySpec& b : spec.bodies) {
    EXPECT_EQ(spec.materials.at(b.material_index).name, b.material);
    EXPECT_EQ(b.geometry.dimension, spec.dimension);
  }
  EXPECT_TRUE(spec.time.dt.has_value() != spec.time.cfl.has_value());
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoodDeck, ::testing::ValuesIn(decks_in(kDecks / "good")),
                         [](const auto& info) { return test_name(info.param); });

// ---- defaults and value shapes -------------------------------------------------------------

const std::string kMinimal = R"(method: mpm
time: {end: 1}
materials: [{name: rubber, youngs_modulus: 1.0e6}]
bodies: [{name: ball, material: rubber, geometry: {disk: {center: [0.5, 0.5], radius: 0.1}}}]
mpm: {grid: {min: [0, 0], max: [1, 1], cell: 0.05}}
)";

TEST(DeckReader, MinimalDeckGetsEveryDocumentedDefault) {
  const SimulationSpec s = parse_deck(kMinimal, "minimal.yaml");
  EXPECT_EQ(s.source_file, "minimal.yaml");
  EXPECT_EQ(s.title, "");
  EXPECT_EQ(s.dimension, 2);
  EXPECT_EQ(s.thickness, 1.0);
  EXPECT_FALSE(s.time.dt.has_value());
  ASSERT_TRUE(s.time.cfl.has_value());
  EXPECT_EQ(*s.time.cfl, 0.4);  // docs/deck.md: neither dt nor cfl means cfl 0.4
  EXPECT_EQ(s.gravity, Vec3::Zero());
  EXPECT_EQ(s.gravity_ramp, 0.0);
  const MaterialSpec& m = s.materials.at(0);
  EXPECT_EQ(m.model, MaterialModel::LinearElastic);
  EXPECT_EQ(m.density, 1000.0);
  EXPECT_EQ(m.poisson_ratio, 0.0);
  EXPECT_FALSE(m.critical_stretch.has_value());
  const BodySpec& b = s.bodies.at(0);
  EXPECT_EQ(b.velocity, Vec3::Zero());
  EXPECT_EQ(b.angular_velocity, Vec3::Zero());
  EXPECT_TRUE(s.boundary_conditions.empty());
  EXPECT_EQ(s.mpm.particles_per_cell, 2);
  EXPECT_EQ(s.mpm.particle_fill, ParticleFill::Clipped);
  EXPECT_EQ(s.mpm.shape_function, ShapeFunctionKind::Gimp);
  EXPECT_EQ(s.mpm.update, UpdateScheme::Usl);
  EXPECT_EQ(s.mpm.flip, 1.0);
  EXPECT_EQ(s.mpm.transfer, TransferScheme::Apic);
  EXPECT_EQ(s.mpm.contact.normals, ContactNormalMethod::LogisticRegression);
  EXPECT_EQ(s.mpm.contact.vmin, 0.0);
  EXPECT_TRUE(s.mpm.contact.displacement_check);
  EXPECT_EQ(s.mpm.contact.position_method, ContactPositionMethod::Position);
  EXPECT_EQ(s.mpm.contact.position_offset, 0.8);
  EXPECT_TRUE(s.mpm.contact.first_pass_to_particles);
  EXPECT_EQ(s.mpm.contact.slip, ContactSlipPoint::Node);
  EXPECT_EQ(s.mpm.contact.normal_law, ContactNormalLaw::Impulse);
  EXPECT_EQ(s.mpm.contact.penalty_scale, 0.1);
  EXPECT_TRUE(s.mpm.contact.pairs.empty());
  EXPECT_TRUE(s.mpm.cracks.empty());
  EXPECT_EQ(s.output.directory, "out");
  EXPECT_EQ(s.output.every, 0.0);
  EXPECT_EQ(s.output.fields,
            (std::vector<std::string>{"velocity", "displacement", "stress", "material", "damage"}));
  EXPECT_TRUE(s.output.history.empty());
  EXPECT_FALSE(s.output.checkpoint_every.has_value());
  EXPECT_FALSE(s.output.checkpoint_wall.has_value());  // the driver uses 600 s
}

std::string with_grid(const std::string& grid) {
  std::string text = kMinimal;
  text.replace(text.find("{grid: {min: [0, 0], max: [1, 1], cell: 0.05}}"),
               std::string("{grid: {min: [0, 0], max: [1, 1], cell: 0.05}}").size(), grid);
  return text;
}

TEST(DeckReader, ScalarCellFillsEveryDirection) {
  const SimulationSpec s = parse_deck(kMinimal, "d.yaml");
  EXPECT_EQ(s.mpm.cell, Vec3(0.05, 0.05, 0.0));
  EXPECT_EQ(s.mpm.grid_min, Vec3(0, 0, 0));
  EXPECT_EQ(s.mpm.grid_max, Vec3(1, 1, 0));
}

TEST(DeckReader, VectorCellGivesRectangularCells) {
  const SimulationSpec s = parse_deck(with_grid("{grid: {min: [0, 0], max: [1, 1], cell: [0.05, 0.025]}}"), "d.yaml");
  EXPECT_EQ(s.mpm.cell, Vec3(0.05, 0.025, 0.0));
}

const std::string k3d = R"(method: mpm
dimension: 3
time: {end: 1, dt: 1.0e-5}
materials: [{name: steel, youngs_modulus: 2.0e11, poisson_ratio: 0.3}]
bodies:
  - {name: ball, material: steel, geometry: {sphere: {center: [0.5, 0.5, 0.5], radius: 0.1}},
     velocity: [1, 2, 3], angular_velocity: [4, 5, 6]}
mpm:
  grid: {min: [0, 0, 0], max: [1, 1, 1], cell: 0.1}
  contact: {normals: specified, normal_angles: {polar: 0, azimuth: 30}}
)";

TEST(DeckReader, AngularVelocityIsAScalarAboutZIn2DAndAVectorIn3D) {
  std::string text2d = kMinimal;
  text2d.replace(text2d.find("radius: 0.1}}}"), 14, "radius: 0.1}}, angular_velocity: 2.5}");
  EXPECT_EQ(parse_deck(text2d, "d.yaml").bodies[0].angular_velocity, Vec3(0, 0, 2.5));
  const SimulationSpec s3 = parse_deck(k3d, "d.yaml");
  EXPECT_EQ(s3.bodies[0].angular_velocity, Vec3(4, 5, 6));
  EXPECT_EQ(s3.bodies[0].velocity, Vec3(1, 2, 3));
}

TEST(DeckReader, ShapesCarryTheDeckDimension) {
  const SimulationSpec s3 = parse_deck(k3d, "d.yaml");
  EXPECT_EQ(s3.bodies[0].geometry.kind, Shape::Kind::Ball);
  EXPECT_EQ(s3.bodies[0].geometry.dimension, 3);
  EXPECT_EQ(s3.bodies[0].geometry.center, Vec3(0.5, 0.5, 0.5));
  EXPECT_EQ(s3.bodies[0].geometry.radius, 0.1);
  const SimulationSpec s2 = read_deck(kDecks / "good" / "mpm_polygon_specified_normal.yaml");
  const Shape& wedge = s2.bodies[0].geometry;
  EXPECT_EQ(wedge.kind, Shape::Kind::Polygon);
  EXPECT_EQ(wedge.dimension, 2);
  ASSERT_EQ(wedge.points.size(), 3u);
  EXPECT_EQ(wedge.points[2], Vec2(0.5, 0.6));
  // Area of the triangle (0.2,0.2) (0.8,0.2) (0.5,0.6): base 0.6, height 0.4, so 0.12.
  EXPECT_NEAR(wedge.measure(), 0.12, 1e-15);
  EXPECT_EQ(s2.boundary_conditions[0].region.kind, Shape::Kind::Ball);
  EXPECT_EQ(s2.boundary_conditions[0].region.dimension, 2);
  EXPECT_EQ(s2.bodies[1].geometry.kind, Shape::Kind::Box);
  EXPECT_EQ(s2.bodies[1].geometry.max, Vec3(1, 0.2, 0));
}

TEST(DeckReader, NullVelocityComponentLeavesThatDirectionFree) {
  const SimulationSpec s = read_deck(kDecks / "good" / "mpm_incline_2d.yaml");
  ASSERT_EQ(s.boundary_conditions.size(), 1u);
  const auto& v = s.boundary_conditions[0].velocity;
  ASSERT_TRUE(v[0].has_value());
  EXPECT_EQ(*v[0], 0.0);
  EXPECT_FALSE(v[1].has_value());
  EXPECT_FALSE(v[2].has_value());  // no z in 2D
  // A region may be flat (a plane of nodes), unlike a body.
  const SimulationSpec s3 = read_deck(kDecks / "good" / "mpm_3d_spheres.yaml");
  EXPECT_EQ(s3.boundary_conditions[0].region.max.z(), s3.boundary_conditions[0].region.min.z());
  EXPECT_FALSE(s3.boundary_conditions[0].velocity[0].has_value());
  EXPECT_EQ(s3.boundary_conditions[0].velocity[2], 0.0);
}

TEST(DeckReader, NamesResolveToMaterialIndices) {
  const SimulationSpec s = read_deck(kDecks / "good" / "mpm_3d_spheres.yaml");
  EXPECT_EQ(s.bodies[0].material_index, 0);  // left: steel
  EXPECT_EQ(s.bodies[1].material_index, 1);  // right: lead
  EXPECT_EQ(s.bodies[2].material_index, 2);  // base: wall
  ASSERT_EQ(s.mpm.contact.pairs.size(), 3u);
  EXPECT_EQ(s.mpm.contact.pairs[0].material_indices, (std::array<int, 2>{0, 1}));
  EXPECT_EQ(s.mpm.contact.pairs[1].material_indices, (std::array<int, 2>{1, 2}));
  EXPECT_EQ(s.mpm.contact.pairs[2].material_indices, (std::array<int, 2>{0, 2}));
}

TEST(DeckReader, ContactLawKeysAreRead) {
  const SimulationSpec s = read_deck(kDecks / "good" / "mpm_3d_spheres.yaml");
  const ContactLawSpec& imperfect = s.mpm.contact.pairs[0].law;
  EXPECT_EQ(imperfect.law, ContactLaw::ImperfectInterface);
  EXPECT_EQ(imperfect.normal_stiffness, 1.0e12);
  EXPECT_EQ(imperfect.tangential_stiffness, 1.0e10);
  EXPECT_EQ(s.mpm.contact.pairs[1].law.law, ContactLaw::Stick);
  EXPECT_EQ(s.mpm.contact.pairs[2].law.law, ContactLaw::Frictionless);
  const SimulationSpec w = read_deck(kDecks / "good" / "mpm_polygon_specified_normal.yaml");
  // A pair without `law` is coulomb; a crack without `law` is frictionless (docs/deck.md).
  EXPECT_EQ(w.mpm.contact.pairs[0].law.law, ContactLaw::Coulomb);
  EXPECT_EQ(w.mpm.contact.pairs[0].law.friction, 0.2);
  EXPECT_FALSE(w.mpm.contact.pairs[0].law.static_friction.has_value());
  EXPECT_EQ(w.mpm.contact.pairs[0].law.adhesion, 1000.0);
  ASSERT_EQ(w.mpm.cracks.size(), 2u);
  EXPECT_EQ(w.mpm.cracks[0].law.law, ContactLaw::Coulomb);
  EXPECT_EQ(w.mpm.cracks[0].law.static_friction, 0.5);
  EXPECT_EQ(w.mpm.cracks[0].points.size(), 3u);
  EXPECT_EQ(w.mpm.cracks[1].law.law, ContactLaw::Frictionless);
}

TEST(DeckReader, SpecifiedNormalComesFromPolarAndAzimuthAngles) {
  // n = (sin p cos a, sin p sin a, cos p); polar 0 is +z whatever the azimuth.
  const SimulationSpec s3 = parse_deck(k3d, "d.yaml");
  EXPECT_EQ(s3.mpm.contact.specified_normal, Vec3(0, 0, 1));
  EXPECT_EQ(s3.mpm.contact.normal_polar, 0.0);
  EXPECT_EQ(s3.mpm.contact.normal_azimuth, 30.0);
  // 2D: azimuth 90 (the default) is +y exactly, as the spec's default normal.
  const SimulationSpec s2 = read_deck(kDecks / "good" / "mpm_polygon_specified_normal.yaml");
  EXPECT_EQ(s2.mpm.contact.specified_normal, Vec3(0, 1, 0));
  std::string text = k3d;
  text.replace(text.find("polar: 0, azimuth: 30"), 21, "polar: 60, azimuth: 45");
  const Vec3 n = parse_deck(text, "d.yaml").mpm.contact.specified_normal;
  const double s60 = std::sqrt(3.0) / 2.0, h = std::sqrt(0.5);
  EXPECT_NEAR(n.x(), s60 * h, 1e-15);  // a few ulps of the trigonometric functions
  EXPECT_NEAR(n.y(), s60 * h, 1e-15);
  EXPECT_NEAR(n.z(), 0.5, 1e-15);
  EXPECT_NEAR(n.norm(), 1.0, 1e-15);
}

TEST(DeckReader, PdDecksDefaultToPmbWithItsFixedPoissonRatio) {
  // Bond-based PD has nu = 1/4 in 3D and (DESIGN.md) 1/3 in 2D.
  const SimulationSpec s2 = read_deck(kDecks / "good" / "pd_incline_2d.yaml");
  EXPECT_EQ(s2.materials[0].model, MaterialModel::Pmb);
  EXPECT_EQ(s2.materials[0].poisson_ratio, 1.0 / 3.0);  // 0.3333333333 in the deck, snapped
  EXPECT_EQ(s2.materials[0].critical_stretch, 0.05);
  const std::string pd3 = R"(method: pd
dimension: 3
time: {end: 1}
materials: [{name: m, youngs_modulus: 1.0e9}]
bodies: [{name: b, material: m, geometry: {box: {min: [0, 0, 0], max: [1, 1, 1]}}}]
pd: {spacing: 0.1}
)";
  const SimulationSpec s3 = parse_deck(pd3, "d.yaml");
  EXPECT_EQ(s3.materials[0].model, MaterialModel::Pmb);
  EXPECT_EQ(s3.materials[0].poisson_ratio, 0.25);
  EXPECT_EQ(s3.pd.spacing, 0.1);
  EXPECT_EQ(s3.pd.horizon, 3.015);
  // Smoothed contact by default, kernel support 2 spacings (issue 12); pairwise keeps 0.9.
  EXPECT_EQ(s3.pd.contact.model, PdContactModel::Smoothed);
  EXPECT_FALSE(s3.pd.contact.radius);
  EXPECT_EQ(radius_in_spacings(s3.pd.contact), 2.0);
  EXPECT_EQ(stiffness_in_units(s3.pd.contact), 1.0);
  SimulationSpec pairwise = s3;
  pairwise.pd.contact.model = PdContactModel::Pairwise;
  EXPECT_EQ(radius_in_spacings(pairwise.pd.contact), 0.9);
  EXPECT_EQ(stiffness_in_units(pairwise.pd.contact), 15.0);
  EXPECT_EQ(s3.pd.contact.friction_model, FrictionModel::Objective);
  EXPECT_EQ(s3.pd.contact.regularization_velocity, 1.0e-3);
  EXPECT_TRUE(s3.pd.surface_correction);
  EXPECT_EQ(s3.pd.partial_volume, PdSpec::PartialVolume::Automatic);
}

TEST(DeckReader, PdOptionsAndHistoriesAreRead) {
  const SimulationSpec s = read_deck(kDecks / "good" / "pd_3d_lps.yaml");
  EXPECT_EQ(s.pd.contact.friction_model, FrictionModel::Bfcm);
  EXPECT_EQ(s.pd.contact.regularization_velocity, 0.0);
  EXPECT_FALSE(s.pd.surface_correction);
  EXPECT_EQ(s.pd.partial_volume, PdSpec::PartialVolume::Pdlammps);
  EXPECT_EQ(s.pd.damping, 10.0);
  ASSERT_EQ(s.pd.precracks.size(), 1u);
  EXPECT_EQ(s.pd.precracks[0].points[1], Vec3(0.008, 0.005, 0));
  const SimulationSpec p = read_deck(kDecks / "good" / "pd_incline_2d.yaml");
  EXPECT_EQ(p.gravity_ramp, 0.005);
  EXPECT_EQ(p.pd.contact.law.static_friction, 0.35);
  ASSERT_EQ(p.output.history.size(), 5u);
  EXPECT_EQ(p.output.history[2].quantity, HistoryQuantity::ContactForce);
  EXPECT_EQ(p.output.history[2].materials, (std::array<std::string, 2>{"block", "floor"}));
  EXPECT_EQ(p.output.history[1].body, "block");
  EXPECT_EQ(p.output.checkpoint_every, 0.01);
  EXPECT_EQ(p.output.checkpoint_wall, 300.0);
}

// ---- error locations -----------------------------------------------------------------------

TEST(DeckError, CarriesFileLineColumnAndDottedKeyPath) {
  std::string text = with_grid("\n  grid: {min: [0, 0], max: [1, 1], cell: -1}");
  // Line 5 is "mpm: ", line 6 the grid; "-1" starts at column 42.
  try {
    parse_deck(text, "decks/slide.yaml");
    FAIL() << "accepted a negative cell";
  } catch (const DeckError& e) {
    EXPECT_EQ(e.where().file, "decks/slide.yaml");
    EXPECT_EQ(e.where().line, 6);
    EXPECT_EQ(e.where().column, 42);
    EXPECT_EQ(e.where().key, "mpm.grid.cell");
    EXPECT_EQ(std::string(e.what()), "decks/slide.yaml:6:42: mpm.grid.cell: must be > 0, got -1 (direction x)");
  }
}

TEST(DeckError, PathsIndexListEntries) {
  std::string text = kMinimal;
  text.replace(text.find("center: [0.5, 0.5]"), 18, "center: [0.5, x]");
  try {
    parse_deck(text, "d.yaml");
    FAIL();
  } catch (const DeckError& e) {
    EXPECT_EQ(e.where().key, "bodies[0].geometry.disk.center[1]");
    EXPECT_EQ(e.where().line, 4);
  }
}

TEST(DeckError, MissingFileNamesTheFile) {
  const fs::path missing = fs::path(TRIBO_BINARY_DIR) / "no-such-deck.yaml";
  try {
    read_deck(missing);
    FAIL();
  } catch (const DeckError& e) {
    EXPECT_EQ(e.where().file, missing.string());
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
}

TEST(DeckError, DirectoryIsNotADeck) {
  EXPECT_THROW(read_deck(kDecks), DeckError);
}

// ---- docs/deck.md ---------------------------------------------------------------------------

std::vector<std::string> yaml_blocks(const std::string& markdown) {
  std::vector<std::string> blocks;
  const std::string open = "```yaml\n", close = "```";
  for (std::size_t at = markdown.find(open); at != std::string::npos; at = markdown.find(open, at)) {
    at += open.size();
    const std::size_t end = markdown.find(close, at);
    blocks.push_back(markdown.substr(at, end - at));
    at = end;
  }
  return blocks;
}

TEST(DeckDocumentation, CompleteExamplesParse) {
  const std::string doc = read_text(fs::path(TRIBO_SOURCE_DIR) / "docs" / "deck.md");
  int parsed = 0;
  for (const std::string& block : yaml_blocks(doc)) {
    if (block.find("# ...") != std::string::npos) continue;  // an excerpt, not a deck
    EXPECT_NO_THROW(parse_deck(block, "docs/deck.md example")) << block;
    ++parsed;
  }
  EXPECT_GE(parsed, 2);
}

void collect_keys(const YAML::Node& node, std::set<std::string>& keys) {
  if (node.IsMap())
    for (auto it = node.begin(); it != node.end(); ++it) {
      keys.insert(it->first.as<std::string>());
      collect_keys(it->second, keys);
    }
  if (node.IsSequence())
    for (const YAML::Node& item : node) collect_keys(item, keys);
}

// The writer spells out every key of a run, so the keys of the written good decks cover the
// schema (both methods, 2D and 3D, every shape); each must be documented as `key`.
TEST(DeckDocumentation, DocumentsEveryKeyTheWriterWrites) {
  const std::string doc = read_text(fs::path(TRIBO_SOURCE_DIR) / "docs" / "deck.md");
  std::set<std::string> keys;
  for (const fs::path& deck : decks_in(kDecks / "good"))
    collect_keys(YAML::Load(write_deck(read_deck(deck))), keys);
  EXPECT_GT(keys.size(), 60u);
  for (const std::string& key : keys)
    EXPECT_NE(doc.find("`" + key), std::string::npos) << "docs/deck.md lacks `" << key << "`";
}

// ---- robustness ----------------------------------------------------------------------------

// Random edits of valid decks (deleting, inserting or replacing characters that matter to YAML,
// duplicating or dropping lines): the reader must accept the deck or throw DeckError, never
// anything else, and a rejected deck's error has a file name and a line within the text.
TEST(DeckReader, MutatedDecksGiveADeckErrorOrASpec) {
  const std::vector<std::string> seeds{read_text(kDecks / "good" / "mpm_incline_2d.yaml"),
                                       read_text(kDecks / "good" / "pd_incline_2d.yaml"),
                                       read_text(kDecks / "good" / "mpm_3d_spheres.yaml")};
  const std::string alphabet = "[]{}:,-#&*!|>'\"\n \t0123456789.e+-abcnull~?%@`\x01\xff";
  std::mt19937 rng(20240628);
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = seeds[trial % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits && !text.empty(); ++k) {
      const std::size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 5) {
        case 0: text.erase(at, 1); break;
        case 1: text.insert(at, 1, c); break;
        case 2: text[at] = c; break;
        case 3: {  // duplicate the line holding `at`
          const std::size_t b = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
          const std::size_t e = text.find('\n', at);
          const std::string line = text.substr(b, e == std::string::npos ? std::string::npos : e - b + 1);
          text.insert(b, line);
          break;
        }
        default: text.resize(at); break;  // truncate
      }
    }
    const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    try {
      parse_deck(text, "mutant.yaml");
      ++accepted;
    } catch (const DeckError& e) {
      ++rejected;
      EXPECT_EQ(e.where().file, "mutant.yaml");
      EXPECT_GE(e.where().line, 1) << e.what();
      EXPECT_LE(e.where().line, lines) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a DeckError: " << e.what() << "\n--- deck ---\n" << text;
    }
  }
  // Both outcomes occur, or the edits were not testing anything.
  EXPECT_GT(accepted, 50);
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace tribo::io
