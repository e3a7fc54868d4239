#include "tribo/io/pvd_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "tribo/io/atomic_file.hpp"
#include "../support/scratch_folder.hpp"

namespace fs = std::filesystem;
using tribo::test_support::ScratchFolder;  // a fresh, empty folder per test
using tribo::test_support::entries_in;
using tribo::io::PvdEntry;
using tribo::io::PvdWriter;
using tribo::io::read_pvd;

TEST(PvdWriter, NothingIsWrittenBeforeTheFirstFrame) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  PvdWriter pvd(folder / "run.pvd");
  EXPECT_FALSE(fs::exists(folder / "run.pvd"));
  EXPECT_TRUE(pvd.entries().empty());
}

TEST(PvdWriter, EachAddLeavesACompleteCollectionOfTheFramesSoFar) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  PvdWriter pvd(folder / "run.pvd");
  pvd.add(0.0, "frames/frame_000000.vtu");
  // After one frame the file is already a whole document a killed run could leave behind.
  std::string text = tribo::io::read_file(folder / "run.pvd");
  EXPECT_EQ(text.rfind("<?xml", 0), 0u);
  EXPECT_NE(text.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 11), "</VTKFile>\n");
  EXPECT_EQ(read_pvd(folder / "run.pvd").size(), 1u);

  pvd.add(0.01, "frames/frame_000001.vtu");
  pvd.add(0.01, "frames/cracks_000001.vtu", 1);
  const auto entries = read_pvd(folder / "run.pvd");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].file, "frames/frame_000001.vtu");
  EXPECT_EQ(entries[2].part, 1);
  EXPECT_EQ(entries[2].time, 0.01);
  EXPECT_EQ(entries_in(folder), 1u);  // no temporaries left behind
}

TEST(PvdWriter, TimesAndFileNamesRoundTripExactly) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  PvdWriter pvd(folder / "run.pvd");
  // 0.1 + 0.2 is not 0.3 in binary: the written decimal must still read back to the same double.
  const double t1 = 0.1 + 0.2, t2 = 1.0 / 3.0, t3 = 1.25e-7;
  pvd.add(t1, "a&b <c>.vtu");
  pvd.add(t2, "quote\"d.vtu");
  pvd.add(t3, "frames/x.vtu");
  const auto entries = read_pvd(folder / "run.pvd");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].time, t1);
  EXPECT_EQ(entries[1].time, t2);
  EXPECT_EQ(entries[2].time, t3);
  EXPECT_EQ(entries[0].file, "a&b <c>.vtu");
  EXPECT_EQ(entries[1].file, "quote\"d.vtu");
}

TEST(PvdWriter, ReloadKeepsFramesUpToTheRestartTimeAndRewritesTheFile) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  {
    PvdWriter pvd(folder / "run.pvd");
    for (int i = 0; i < 5; ++i)
      pvd.add(0.01 * i, "frames/frame_00000" + std::to_string(i) + ".vtu");
  }
  // Restart from the checkpoint at t = 0.02: the frames at 0.03 and 0.04 will be redone.
  PvdWriter pvd = PvdWriter::reload(folder / "run.pvd", 0.02);
  ASSERT_EQ(pvd.entries().size(), 3u);
  EXPECT_EQ(pvd.entries().back().time, 0.02);
  EXPECT_EQ(read_pvd(folder / "run.pvd").size(), 3u);

  pvd.add(0.03, "frames/frame_000003.vtu");
  const auto entries = read_pvd(folder / "run.pvd");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[3].time, 0.03);
  EXPECT_EQ(entries[3].file, "frames/frame_000003.vtu");
}

TEST(PvdWriter, ReloadOfAMissingFileStartsEmpty) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  PvdWriter pvd = PvdWriter::reload(folder / "run.pvd", 1.0);
  EXPECT_TRUE(pvd.entries().empty());
  EXPECT_FALSE(fs::exists(folder / "run.pvd"));
}

TEST(PvdWriter, ReadingRejectsAFileThatIsNotACollection) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  tribo::io::write_file_atomically(folder / "a.pvd", "<VTKFile type=\"UnstructuredGrid\"/>\n");
  EXPECT_THROW(read_pvd(folder / "a.pvd"), std::runtime_error);
  tribo::io::write_file_atomically(
      folder / "b.pvd",
      "<VTKFile type=\"Collection\"><Collection><DataSet file=\"x.vtu\"/></Collection></VTKFile>");
  EXPECT_THROW(read_pvd(folder / "b.pvd"), std::runtime_error);  // no timestep
  tribo::io::write_file_atomically(
      folder / "c.pvd",
      "<VTKFile type=\"Collection\"><Collection><DataSet timestep=\"abc\" file=\"x.vtu\"/>"
      "</Collection></VTKFile>");
  EXPECT_THROW(read_pvd(folder / "c.pvd"), std::runtime_error);
}

TEST(PvdWriter, ReadingAcceptsAttributesInAnyOrder) {
  const ScratchFolder scratch;
  const fs::path& folder = scratch.path;
  tribo::io::write_file_atomically(
      folder / "p.pvd",
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n<Collection>\n"
      "  <DataSet file='f0.vtu' part=\"2\"  timestep = \"0.5\"/>\n"
      "</Collection>\n</VTKFile>\n");
  const auto entries = read_pvd(folder / "p.pvd");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].time, 0.5);
  EXPECT_EQ(entries[0].file, "f0.vtu");
  EXPECT_EQ(entries[0].part, 2);
}
