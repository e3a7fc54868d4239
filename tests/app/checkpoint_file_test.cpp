// The checkpoint file format (io/checkpoint_file.hpp) and the checkpoint folder (app/checkpoint.hpp):
// what is written reads back byte for byte, and a damaged file is refused, never read half.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tribo/app/checkpoint.hpp"
#include "tribo/core/types.hpp"
#include "tribo/io/atomic_file.hpp"
#include "tribo/io/checkpoint_file.hpp"

namespace tribo::app {
namespace {

namespace fs = std::filesystem;

io::CheckpointImage sample_image() {
  io::CheckpointImage image;
  image.write_value("a.step", 1234L);
  image.write_value("a.time", 0.1 + 0.2);  // a value with no short decimal form
  image.write_array("a.position", std::vector<Vec2>{Vec2(1.0, -2.5), Vec2(1e-300, 3.0)});
  image.write_array("a.stress", std::vector<Mat3>{Mat3::Identity() * 7.0});
  image.write_array("a.empty", std::vector<double>{});
  image.write_string("a.text", "deck");
  return image;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tribo-checkpoint-file-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(CheckpointImage, EntriesReadBackBitForBitAfterSerialising) {
  io::CheckpointImage written = sample_image();
  const io::CheckpointImage read = io::CheckpointImage::parse(written.bytes(), "memory");
  long step = 0;
  double time = 0.0;
  std::vector<Vec2> position;
  std::vector<Mat3> stress;
  std::vector<double> empty{1.0};
  read.read_value("a.step", step);
  read.read_value("a.time", time);
  read.read_array("a.position", position);
  read.read_array("a.stress", stress);
  read.read_array("a.empty", empty);
  EXPECT_EQ(step, 1234);
  EXPECT_EQ(time, 0.1 + 0.2);  // exact: raw bytes, no decimal round trip
  ASSERT_EQ(position.size(), 2u);
  EXPECT_EQ(position[1], Vec2(1e-300, 3.0));
  ASSERT_EQ(stress.size(), 1u);
  EXPECT_EQ(stress[0], Mat3::Identity() * 7.0);
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(read.read_string("a.text"), "deck");
}

TEST(CheckpointImage, EveryFlippedByteIsDetected) {
  io::CheckpointImage image = sample_image();
  const std::string good = image.bytes();
  // Any single-byte change (header, names, data or the checksum itself) must be refused.
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x10);
    EXPECT_THROW(io::CheckpointImage::parse(bad, "flipped"), std::runtime_error) << "byte " << i;
  }
}

TEST(CheckpointImage, EveryTruncationIsDetected) {
  io::CheckpointImage image = sample_image();
  const std::string good = image.bytes();
  for (std::size_t n = 0; n < good.size(); ++n)
    EXPECT_THROW(io::CheckpointImage::parse(good.substr(0, n), "cut"), std::runtime_error) << n << " bytes";
}

TEST(CheckpointImage, AMissingEntryOrAWrongSizeIsAnErrorNamingIt) {
  io::CheckpointImage image = sample_image();
  const io::CheckpointImage read = io::CheckpointImage::parse(image.bytes(), "memory");
  double d = 0.0;
  try {
    read.read_value("a.nothing", d);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("a.nothing"), std::string::npos) << e.what();
  }
  int wrong = 0;  // a.step holds a long
  EXPECT_THROW(read.read_value("a.step", wrong), std::runtime_error);
  std::vector<Vec2> three(3);
  EXPECT_THROW(read.read_array_of_size("a.position", three), std::runtime_error);
}

TEST(CheckpointImage, ANameWrittenTwiceIsRefused) {
  io::CheckpointImage image;
  image.write_value("x", 1.0);
  EXPECT_THROW(image.write_value("x", 2.0), std::runtime_error);
}

TEST(CheckpointImage, AFileOfAnotherKindIsRefused) {
  EXPECT_THROW(io::CheckpointImage::parse("title: a deck\n", "deck.yaml"), std::runtime_error);
  EXPECT_THROW(io::CheckpointImage::parse("", "empty"), std::runtime_error);
}

TEST(CheckpointFolder, KeepsTheNewestTwoAndListsThemNewestFirst) {
  const fs::path dir = scratch("keep");
  const CheckpointFolder folder(dir);
  for (long step : {10L, 200L, 30L, 4000L}) {
    io::CheckpointImage image = sample_image();
    folder.write(image, step);
  }
  const std::vector<fs::path> files = folder.files();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].filename(), "checkpoint_000004000.bin");
  EXPECT_EQ(files[1].filename(), "checkpoint_000000200.bin");
  fs::remove_all(dir);
}

TEST(CheckpointFolder, ADamagedNewestFileIsSkippedForTheOneBefore) {
  const fs::path dir = scratch("damaged");
  const CheckpointFolder folder(dir);
  io::CheckpointImage a = sample_image();
  folder.write(a, 1);
  io::CheckpointImage b = sample_image();
  const fs::path newest = folder.write(b, 2);
  std::string bytes = io::read_file(newest);
  bytes.resize(bytes.size() / 2);  // as a disk that lost the tail would leave it
  std::ofstream(newest, std::ios::binary | std::ios::trunc) << bytes;
  std::vector<std::string> skipped;
  const auto loaded = folder.newest_readable(&skipped);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->file.filename(), "checkpoint_000000001.bin");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("checkpoint_000000002.bin"), std::string::npos) << skipped[0];
  fs::remove_all(dir);
}

TEST(CheckpointFolder, NoCheckpointGivesNothing) {
  const fs::path dir = scratch("none");
  EXPECT_FALSE(CheckpointFolder(dir).newest_readable().has_value());
  fs::remove_all(dir);
}

TEST(RemoveInterruptedWrites, RemovesOnlyTheTemporariesOfAtomicWrites) {
  const fs::path dir = scratch("temporaries");
  for (const char* name : {".frame_000001.vtu.tmp.1234.0", ".history.csv.tmp.99.12", "frame_000001.vtu",
                           ".hidden", "notes.tmp.1.2"})
    std::ofstream(dir / name) << "x";
  EXPECT_EQ(remove_interrupted_writes(dir), 2);
  EXPECT_FALSE(fs::exists(dir / ".frame_000001.vtu.tmp.1234.0"));
  EXPECT_TRUE(fs::exists(dir / "frame_000001.vtu"));
  EXPECT_TRUE(fs::exists(dir / ".hidden"));
  EXPECT_TRUE(fs::exists(dir / "notes.tmp.1.2"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tribo::app
