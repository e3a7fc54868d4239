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

// The deferred writes of a run (frames and the .pvd) go through one background queue.

TEST(DeferredWrites, WritesEveryQueuedFileInOrderByFinish) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  tribo::io::DeferredWrites writes;
  // The same file three times: the last content handed over must be the one left, so the queue
  // keeps the program's order (a .pvd rewritten after each frame relies on it).
  for (int i = 0; i < 20; ++i)
    tribo::io::write_file_deferred(folder / ("frame_" + std::to_string(i) + ".vtu"),
                                   std::string(100000 + i, static_cast<char>('a' + i % 26)));
  tribo::io::write_file_deferred(folder / "run.pvd", "first");
  tribo::io::write_file_deferred(folder / "run.pvd", "second");
  tribo::io::write_file_deferred(folder / "run.pvd", "third");
  writes.finish();
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(fs::file_size(folder / ("frame_" + std::to_string(i) + ".vtu")), 100000u + i) << i;
  EXPECT_EQ(read_file(folder / "run.pvd"), "third");
  EXPECT_EQ(entries_in(folder), 21u);  // no temporaries left
}

TEST(DeferredWrites, APlainWriteComesAfterTheQueuedOnes) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  tribo::io::DeferredWrites writes;
  tribo::io::write_file_deferred(folder / "history.csv", std::string(4000000, 'x'));
  // A plain write of the same name drains the queue first, so it is the one that stays.
  write_file_atomically(folder / "history.csv", "plain");
  EXPECT_EQ(read_file(folder / "history.csv"), "plain");
}

TEST(DeferredWrites, AFailedWriteIsRethrownAndTheWritesAfterItAreDropped) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  tribo::io::DeferredWrites writes;
  try {
    tribo::io::write_file_deferred(folder / "no_such_folder" / "frame_0.vtu", "data");
    // Refused here if the worker has failed already, else queued behind the failing write.
    tribo::io::write_file_deferred(folder / "after.vtu", "data");
    writes.finish();
    tribo::io::write_file_deferred(folder / "later.vtu", "data");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("frame_0.vtu"), std::string::npos) << e.what();
  }
  // A file queued behind the failed one would follow a frame that is missing: not written.
  EXPECT_FALSE(fs::exists(folder / "after.vtu"));
  EXPECT_FALSE(fs::exists(folder / "later.vtu"));
  // The error was reported once; the queue works again.
  tribo::io::write_file_deferred(folder / "again.vtu", "ok");
  writes.finish();
  EXPECT_EQ(read_file(folder / "again.vtu"), "ok");
}

TEST(DeferredWrites, WithoutOneADeferredWriteIsImmediate) {
  const ScratchFolder scratch;
  tribo::io::write_file_deferred(scratch.path / "now.txt", "now");
  EXPECT_EQ(read_file(scratch.path / "now.txt"), "now");
}
