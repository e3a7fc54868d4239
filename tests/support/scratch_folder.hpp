#pragma once
// Helpers shared by the test programs (tests/*/..._test.cpp include them by relative path).
// ScratchFolder: an empty folder for one test, named after the test suite, the test and the process
// (worktrees run ctest at once), removed with everything in it when the test ends.
#include <unistd.h>  // getpid
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <string>

namespace tribo::test_support {

struct ScratchFolder {
  std::filesystem::path path;
  ScratchFolder() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path = std::filesystem::temp_directory_path() / ("tribo_" + std::string(info->test_suite_name()) + "_" +
                                                     std::to_string(::getpid()) + "_" + info->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
};

// How many entries (files and folders) `folder` holds.
inline std::size_t entries_in(const std::filesystem::path& folder) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++n;
  return n;
}

}  // namespace tribo::test_support
