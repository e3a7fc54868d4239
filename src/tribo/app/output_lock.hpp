#pragma once
// An exclusive lock on a run's output folder (docs/reliability.md, "One run per output folder"):
// flock(2) on DIR/.tribo.lock, held for the life of the object. The file names its holder (pid,
// host, start time) so that a second run can say who has the folder; the kernel drops the lock
// when the holder exits, however it exits (kill -9 included), so a stale file never blocks.
#include <filesystem>
#include <stdexcept>
#include <string>

namespace tribo::app {

// Thrown when another process holds the folder; what() names it. `tribo run` exits 1.
class OutputFolderBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputLock {
 public:
  // Creates the folder if needed and takes the lock without waiting; throws OutputFolderBusy when
  // another process holds it, std::runtime_error when the lock file cannot be made.
  explicit OutputLock(const std::filesystem::path& directory);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  static constexpr const char* kFileName = ".tribo.lock";

 private:
  int fd_ = -1;
};

}  // namespace tribo::app
