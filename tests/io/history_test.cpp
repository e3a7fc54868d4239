#include "tribo/io/history.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "tribo/core/error.hpp"
#include "tribo/io/atomic_file.hpp"
#include "../support/scratch_folder.hpp"

namespace fs = std::filesystem;
using tribo::test_support::ScratchFolder;  // a fresh, empty folder per test
using tribo::io::HistoryCsv;
using tribo::io::HistoryRecorder;
using tribo::io::read_history_csv;

namespace {

// A solver stand-in with fixed particles, energies and contact forces, so that every history
// value has a hand-computed reference.
template <int Dim>
class FakeSimulation : public tribo::Simulation<Dim> {
 public:
  tribo::Particles<Dim> p;
  tribo::SimulationSpec s;
  double t = 0.125;

  void step() override {}
  double time() const override { return t; }
  long step_count() const override { return 7; }
  double dt() const override { return 1e-3; }
  const tribo::Particles<Dim>& particles() const override { return p; }
  const tribo::SimulationSpec& spec() const override { return s; }
  tribo::EnergyBreakdown energy() const override {
    tribo::EnergyBreakdown e;
    e.kinetic = 1.0;
    e.strain = 2.0;
    e.potential = -3.5;
    e.frictional = 4.0;
    return e;
  }
  // Encodes the pair asked for, so the test sees which materials the recorder resolved:
  // (10 a + b, -(10 a + b), 100).
  tribo::Vec3 contact_force(int a, int b) const override {
    const double code = 10.0 * a + b;
    return tribo::Vec3(code, -code, 100.0);
  }
  void check_health() const override {}
};

// Materials steel (deformable) and ground (rigid); bodies block and disk of steel, floor of ground.
tribo::SimulationSpec two_material_spec() {
  tribo::SimulationSpec spec;
  spec.source_file = "deck.yaml";
  tribo::MaterialSpec steel;
  steel.name = "steel";
  tribo::MaterialSpec ground;
  ground.name = "ground";
  ground.model = tribo::MaterialModel::Rigid;
  spec.materials = {steel, ground};
  for (auto [name, material, index] :
       {std::tuple{"block", "steel", 0}, std::tuple{"floor", "ground", 1},
        std::tuple{"disk", "steel", 0}}) {
    tribo::BodySpec b;
    b.name = name;
    b.material = material;
    b.material_index = index;
    spec.bodies.push_back(b);
  }
  return spec;
}

tribo::HistorySpec entry(tribo::HistoryQuantity q, std::string body = "",
                         std::array<std::string, 2> materials = {}) {
  tribo::HistorySpec h;
  h.quantity = q;
  h.body = std::move(body);
  h.materials = std::move(materials);
  return h;
}

std::vector<tribo::HistorySpec> every_quantity() {
  using Q = tribo::HistoryQuantity;
  return {entry(Q::Centroid, "block"),
          entry(Q::Velocity, "block"),
          entry(Q::ContactForce, "", {"disk", "ground"}),
          entry(Q::Energy),
          entry(Q::Momentum),
          entry(Q::AngularMomentum)};
}

// Four particles: two of block, one of disk, one of the rigid floor (heavy and fast, so that
// counting it by mistake in the momenta would show).
FakeSimulation<2> four_particles() {
  FakeSimulation<2> sim;
  sim.s = two_material_spec();
  using tribo::Vec2;
  sim.p.push_back(Vec2(0, 0), Vec2(1, 0), 1.0, 1.0, 0, 0);
  sim.p.push_back(Vec2(2, 0), Vec2(0, 1), 3.0, 1.0, 0, 0);
  sim.p.push_back(Vec2(0, 1), Vec2(2, -1), 2.0, 1.0, 2, 0);
  sim.p.push_back(Vec2(5, 5), Vec2(7, 7), 10.0, 1.0, 1, 1);
  return sim;
}

}  // namespace

TEST(HistoryRecorder, ColumnNamesFollowTheOutputContract) {
  const auto sim = four_particles();
  HistoryRecorder<2> recorder(every_quantity(), sim.spec());
  // clang-format off: one line per history entry
  const std::vector<std::string> expected = {
      "time",
      "centroid.block.x", "centroid.block.y",
      "velocity.block.x", "velocity.block.y",
      "contact-force.disk.ground.x", "contact-force.disk.ground.y",
      "energy.kinetic", "energy.strain", "energy.potential", "energy.frictional", "energy.total",
      "momentum.x", "momentum.y",
      "angular-momentum.z"};
  // clang-format on
  EXPECT_EQ(recorder.columns(), expected);
}

TEST(HistoryRecorder, ThreeDimensionalColumnsHaveZComponents) {
  FakeSimulation<3> sim;
  sim.s = two_material_spec();
  HistoryRecorder<3> recorder(every_quantity(), sim.spec());
  // clang-format off: one line per history entry
  const std::vector<std::string> expected = {
      "time",
      "centroid.block.x", "centroid.block.y", "centroid.block.z",
      "velocity.block.x", "velocity.block.y", "velocity.block.z",
      "contact-force.disk.ground.x", "contact-force.disk.ground.y", "contact-force.disk.ground.z",
      "energy.kinetic", "energy.strain", "energy.potential", "energy.frictional", "energy.total",
      "momentum.x", "momentum.y", "momentum.z",
      "angular-momentum.x", "angular-momentum.y", "angular-momentum.z"};
  // clang-format on
  EXPECT_EQ(recorder.columns(), expected);
}

TEST(HistoryRecorder, SampleMatchesHandComputedSums) {
  const auto sim = four_particles();
  HistoryRecorder<2> recorder(every_quantity(), sim.spec());
  const std::vector<double> row = recorder.sample(sim);
  ASSERT_EQ(row.size(), recorder.columns().size());
  // Every reference is a short sum of exact binary fractions, so the comparison is exact up to
  // one rounding of a division (1e-15).
  const double tol = 1e-15;
  EXPECT_EQ(row[0], 0.125);                         // time
  EXPECT_NEAR(row[1], (1 * 0 + 3 * 2) / 4.0, tol);  // centroid of block: sum m x / sum m = 1.5
  EXPECT_NEAR(row[2], 0.0, tol);
  EXPECT_NEAR(row[3], (1 * 1 + 3 * 0) / 4.0, tol);  // mean velocity of block: 0.25
  EXPECT_NEAR(row[4], (1 * 0 + 3 * 1) / 4.0, tol);  // 0.75
  // disk stands for its material steel (0), ground is material 1: code 10 * 0 + 1.
  EXPECT_EQ(row[5], 1.0);
  EXPECT_EQ(row[6], -1.0);
  EXPECT_EQ(row[7], 1.0);   // kinetic
  EXPECT_EQ(row[8], 2.0);   // strain
  EXPECT_EQ(row[9], -3.5);  // potential
  EXPECT_EQ(row[10], 4.0);  // frictional
  EXPECT_EQ(row[11], 3.5);  // total = 1 + 2 - 3.5 + 4
  // Momentum of the deformable particles: (1,0)*1 + (0,1)*3 + (2,-1)*2 = (5, 1); the rigid
  // floor's m v = (70, 70) is left out.
  EXPECT_EQ(row[12], 5.0);
  EXPECT_EQ(row[13], 1.0);
  // Angular momentum about the origin, L_z = sum m (x v_y - y v_x):
  // 1 (0 - 0) + 3 (2 * 1 - 0) + 2 (0 * -1 - 1 * 2) = 6 - 4 = 2.
  EXPECT_EQ(row[14], 2.0);
}

TEST(HistoryRecorder, ThreeDimensionalAngularMomentumIsTheCrossProductSum) {
  FakeSimulation<3> sim;
  sim.s = two_material_spec();
  using tribo::Vec3;
  // L = sum x cross m v: (1,0,0) x 2 (0,1,0) = (0,0,2); (0,0,1) x (0,1,0) = (-1,0,0).
  sim.p.push_back(Vec3(1, 0, 0), Vec3(0, 1, 0), 2.0, 1.0, 0, 0);
  sim.p.push_back(Vec3(0, 0, 1), Vec3(0, 1, 0), 1.0, 1.0, 2, 0);
  HistoryRecorder<3> recorder(
      {entry(tribo::HistoryQuantity::AngularMomentum),
       entry(tribo::HistoryQuantity::ContactForce, "", {"ground", "block"})},
      sim.spec());
  std::vector<double> row;
  recorder.sample(sim, row);
  EXPECT_EQ(row, (std::vector<double>{0.125, -1.0, 0.0, 2.0, 10.0, -10.0, 100.0}));
}

TEST(HistoryRecorder, ABodyWithoutParticlesHasNoCentroid) {
  auto sim = four_particles();
  sim.p = tribo::Particles<2>{};
  HistoryRecorder<2> recorder({entry(tribo::HistoryQuantity::Centroid, "disk")}, sim.spec());
  const auto row = recorder.sample(sim);
  EXPECT_TRUE(std::isnan(row[1]));
  EXPECT_TRUE(std::isnan(row[2]));
}

TEST(HistoryRecorder, UnknownNamesAreDeckErrorsWithTheirKey) {
  const auto spec = two_material_spec();
  try {
    HistoryRecorder<2>(
        {entry(tribo::HistoryQuantity::Energy), entry(tribo::HistoryQuantity::Centroid, "wheel")},
        spec);
    FAIL() << "expected DeckError";
  } catch (const tribo::DeckError& e) {
    EXPECT_EQ(e.where().key, "output.history[1].body");
    EXPECT_NE(std::string(e.what()).find("wheel"), std::string::npos) << e.what();
  }
  EXPECT_THROW(
      HistoryRecorder<2>({entry(tribo::HistoryQuantity::ContactForce, "", {"steel", "ice"})}, spec),
      tribo::DeckError);
}

TEST(HistoryCsv, RowsReadBackBitForBit) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  const std::vector<std::string> columns = {"time", "centroid.a,b.x", "energy.total"};
  HistoryCsv csv(folder / "history.csv", columns);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::vector<double>> rows = {
      {0.0, 0.1 + 0.2, 1.0 / 3.0}, {1e-300, -2.5e17, 123456789.123456789}, {0.5, inf, -inf}};
  for (const auto& row : rows) csv.append(row);
  std::vector<std::string> read_columns;
  const auto read = read_history_csv(folder / "history.csv", &read_columns);
  EXPECT_EQ(read_columns, columns);  // the comma in a name survives (RFC 4180 quoting)
  EXPECT_EQ(read, rows);             // exact: the shortest round-trip decimal form
}

TEST(HistoryCsv, NotANumberIsWrittenAndReadBack) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  HistoryCsv csv(folder / "history.csv", {"time", "centroid.disk.x"});
  csv.append({0.0, std::numeric_limits<double>::quiet_NaN()});
  const auto rows = read_history_csv(folder / "history.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(std::isnan(rows[0][1]));
}

TEST(HistoryCsv, FileStartsWithTheHeaderRow) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  HistoryCsv csv(folder / "history.csv", {"time", "momentum.x"});
  csv.append({0.25, -1.5});
  EXPECT_EQ(tribo::io::read_file(folder / "history.csv"), "time,momentum.x\n0.25,-1.5\n");
}

TEST(HistoryCsv, RowOfTheWrongLengthIsRejected) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  HistoryCsv csv(folder / "history.csv", {"time", "momentum.x"});
  EXPECT_THROW(csv.append({0.0}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(folder / "history.csv"));
}

TEST(HistoryCsv, ReloadTruncatesRowsAfterTheRestartTime) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  const std::vector<std::string> columns = {"time", "energy.total"};
  {
    HistoryCsv csv(folder / "history.csv", columns);
    for (int i = 0; i < 5; ++i) csv.append({0.1 * i, 10.0 + i});
  }
  HistoryCsv csv = HistoryCsv::reload(folder / "history.csv", columns, 0.2);
  ASSERT_EQ(csv.row_count(), 3u);  // t = 0, 0.1, 0.2
  EXPECT_EQ(read_history_csv(folder / "history.csv").size(), 3u);
  csv.append({0.3, 99.0});
  const auto rows = read_history_csv(folder / "history.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[2], (std::vector<double>{0.1 * 2, 12.0}));
  EXPECT_EQ(rows[3], (std::vector<double>{0.3, 99.0}));
}

TEST(HistoryCsv, ReloadRefusesAFileWithOtherColumns) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  HistoryCsv(folder / "history.csv", {"time", "momentum.x"}).append({0.0, 1.0});
  EXPECT_THROW(HistoryCsv::reload(folder / "history.csv", {"time", "momentum.y"}, 1.0),
               std::runtime_error);
  EXPECT_EQ(HistoryCsv::reload(folder / "missing.csv", {"time"}, 1.0).row_count(), 0u);
}

TEST(HistoryCsv, ReadingNamesTheLineOfABadValue) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  tribo::io::write_file_atomically(folder / "h.csv", "time,x\n0,1\n0.1,oops\n");
  try {
    read_history_csv(folder / "h.csv");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("h.csv:3"), std::string::npos) << e.what();
  }
  tribo::io::write_file_atomically(folder / "short.csv", "time,x\n0\n");
  EXPECT_THROW(read_history_csv(folder / "short.csv"), std::runtime_error);
}

// Appended, not rewritten (issue 17): the header is written once, and rows after the first one
// go on the end of the same file (same inode: no rename per row).
TEST(HistoryCsv, HeaderOnceAndRowsAppendedInPlace) {
  const ScratchFolder scratch;
  const fs::path file = scratch.path / "history.csv";
  HistoryCsv csv(file, {"time", "momentum.x"});
  csv.append({0.0, 1.0});
  const auto inode = [&] {
    struct stat st {};
    ::stat(file.c_str(), &st);
    return st.st_ino;
  };
  const auto first = inode();
  for (int i = 1; i < 100; ++i) csv.append({0.01 * i, 1.0 + i});
  EXPECT_EQ(inode(), first);
  const std::string text = tribo::io::read_file(file);
  EXPECT_EQ(text.find("time,"), 0u);
  EXPECT_EQ(text.find("time,", 1), std::string::npos);  // header once
  EXPECT_EQ(read_history_csv(file).size(), 100u);
  EXPECT_EQ(csv.row_count(), 100u);
  EXPECT_EQ(csv.last_row(), (std::vector<double>{0.01 * 99, 100.0}));
}

// A kill in the middle of a row's write(2) (simulated: half a row on the end, no newline): the
// restart drops the partial row and the checkpoint's later rows, and the next rows follow whole.
TEST(HistoryCsv, ReloadDropsAPartialRowLeftByAKill) {
  const ScratchFolder scratch;
  const fs::path file = scratch.path / "history.csv";
  const std::vector<std::string> columns = {"time", "energy.total"};
  {
    HistoryCsv csv(file, columns);
    for (int i = 0; i < 4; ++i) csv.append({0.1 * i, 10.0 + i});
  }
  std::string text = tribo::io::read_file(file);
  tribo::io::write_file_atomically(file, text + "0.4,1");  // the kill: a row cut short
  HistoryCsv csv = HistoryCsv::reload(file, columns, 1.0);   // checkpoint after every whole row
  EXPECT_EQ(csv.row_count(), 4u);
  EXPECT_EQ(tribo::io::read_file(file), text);
  csv.append({0.4, 14.0});
  const auto rows = read_history_csv(file);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[4], (std::vector<double>{0.4, 14.0}));
  // Cut back to before the first row: the header stays, alone.
  HistoryCsv none = HistoryCsv::reload(file, columns, -1.0);
  EXPECT_EQ(none.row_count(), 0u);
  EXPECT_EQ(tribo::io::read_file(file), "time,energy.total\n");
  none.append({0.0, 10.0});
  EXPECT_EQ(tribo::io::read_file(file), "time,energy.total\n0,10\n");
}
