#include "tribo/io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "../support/scratch_folder.hpp"

namespace fs = std::filesystem;
using tribo::test_support::ScratchFolder;  // a fresh, empty folder per test
using tribo::test_support::entries_in;
using tribo::io::read_file;
using tribo::io::write_file_atomically;

TEST(AtomicFile, WritesTheBytesExactlyIncludingZeros) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  const std::string bytes("head\0\x01\xff tail\n", 12);
  write_file_atomically(folder / "a.bin", bytes);
  EXPECT_EQ(read_file(folder / "a.bin"), bytes);
  EXPECT_EQ(fs::file_size(folder / "a.bin"), 12u);
}

TEST(AtomicFile, ReplacesOldContentAndLeavesNoTemporaryFile) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  write_file_atomically(folder / "run.pvd", "a long first version of the file\n");
  write_file_atomically(folder / "run.pvd", "short\n");
  // The new content replaces the old one entirely (no tail of the longer first version).
  EXPECT_EQ(read_file(folder / "run.pvd"), "short\n");
  // Only the target is in the folder: the temporary was renamed, not copied.
  EXPECT_EQ(entries_in(folder), 1u);
}

TEST(AtomicFile, WritesAnEmptyFile) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  write_file_atomically(folder / "empty.txt", "");
  ASSERT_TRUE(fs::exists(folder / "empty.txt"));
  EXPECT_EQ(fs::file_size(folder / "empty.txt"), 0u);
}

TEST(AtomicFile, MissingFolderThrowsNamingThePathAndTheReason) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  const fs::path target = folder / "no_such_folder" / "history.csv";
  try {
    write_file_atomically(target, "x");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find((folder / "no_such_folder").string()), std::string::npos) << what;
    EXPECT_NE(what.find("No such file or directory"), std::string::npos) << what;
  }
  EXPECT_EQ(entries_in(folder), 0u);
}

TEST(AtomicFile, FailedRenameRemovesTheTemporaryAndKeepsTheTarget) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  // A non-empty directory cannot be replaced by a file: rename(2) fails after the data is written.
  fs::create_directories(folder / "frame.vtu");
  std::ofstream(folder / "frame.vtu" / "keep.txt") << "kept";
  EXPECT_THROW(write_file_atomically(folder / "frame.vtu", "data"), std::runtime_error);
  EXPECT_TRUE(fs::is_directory(folder / "frame.vtu"));
  EXPECT_EQ(read_file(folder / "frame.vtu" / "keep.txt"), "kept");
  EXPECT_EQ(entries_in(folder), 1u);  // no temporary left beside it
}

TEST(AtomicFile, ReadingAMissingFileThrowsNamingIt) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  try {
    read_file(folder / "absent.csv");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("absent.csv"), std::string::npos) << e.what();
  }
}
