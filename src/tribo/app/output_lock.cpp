#include "tribo/app/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

namespace tribo::app {

namespace fs = std::filesystem;

namespace {

std::string holder_text() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown host");
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char when[32] = {};
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return fmt::format("pid {} on {}, since {}\n", static_cast<long>(getpid()), host, when);
}

std::string read_holder(int fd) {
  char buffer[512] = {};
  const ssize_t got = pread(fd, buffer, sizeof buffer - 1, 0);
  std::string text = got > 0 ? std::string(buffer, static_cast<std::size_t>(got)) : std::string();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text.empty() ? "a process that has not written its name yet" : text;
}

}  // namespace

OutputLock::OutputLock(const fs::path& directory) {
  fs::create_directories(directory);
  const fs::path file = directory / kFileName;
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw std::runtime_error(
        fmt::format("cannot create the lock file {}: {}", file.string(), std::strerror(errno)));
  int rc;
  do {
    rc = ::flock(fd_, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int error = errno;
    const std::string holder = error == EWOULDBLOCK ? read_holder(fd_) : std::string(std::strerror(error));
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw OutputFolderBusy(fmt::format(
          "the output folder {} is in use by another tribo run ({}); wait for it to end, stop it, or give "
          "another --output",
          directory.string(), holder));
    throw std::runtime_error(fmt::format("cannot lock {}: {}", file.string(), holder));
  }
  const std::string text = holder_text();
  if (::ftruncate(fd_, 0) == 0) {
    const ssize_t written = ::pwrite(fd_, text.data(), text.size(), 0);
    (void)written;  // the name is a courtesy to the next run; the lock holds without it
  }
}

OutputLock::~OutputLock() {
  // The file stays (removing it would let a third run lock a new file while a second one waits
  // on the old); closing releases the lock.
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace tribo::app
