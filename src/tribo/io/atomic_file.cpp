#include "tribo/io/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <future>
#include <sstream>
#include <stdexcept>

namespace tribo::io {

namespace {

// Messages name the file the user asked for; the temporary's name only says which step failed.
[[noreturn]] void fail(std::string_view step, const std::filesystem::path& path, int error) {
  throw std::runtime_error(
      fmt::format("cannot write '{}': {}: {}", path.string(), step, std::strerror(error)));
}

// A name no other writer in this process or another one picks: the pid separates processes, the
// counter separates threads and successive writes. The leading dot hides it from `ls` and globs.
std::filesystem::path temporary_name(const std::filesystem::path& target) {
  static std::atomic<unsigned long> counter{0};
  std::string name = fmt::format(".{}.tmp.{}.{}", target.filename().string(),
                                 static_cast<long>(::getpid()), counter.fetch_add(1));
  return target.parent_path() / name;
}

void write_all(int fd, std::string_view bytes, const std::filesystem::path& target) {
  const char* data = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write", target, errno);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

// The deferred write in flight, and whether a DeferredWrites is active (main thread only).
struct Deferred {
  bool active = false;
  std::future<void> in_flight;
  void finish() {
    if (in_flight.valid()) in_flight.get();  // get() leaves it invalid, also when it throws
  }
};
Deferred& deferred() {
  static Deferred d;
  return d;
}

void write_now(const std::filesystem::path& target, std::string_view bytes);

}  // namespace

DeferredWrites::DeferredWrites() { deferred().active = true; }

DeferredWrites::~DeferredWrites() {
  try {
    deferred().finish();
  } catch (...) {
    // Destroyed while another exception unwinds (the run failed already): that one is reported.
  }
  deferred().active = false;
}

void DeferredWrites::finish() { deferred().finish(); }

void write_file_deferred(const std::filesystem::path& target, std::string bytes) {
  Deferred& d = deferred();
  d.finish();
  if (!d.active) {
    write_now(target, bytes);
    return;
  }
  d.in_flight = std::async(std::launch::async, [target, bytes = std::move(bytes)] { write_now(target, bytes); });
}

void write_file_atomically(const std::filesystem::path& target, std::string_view bytes) {
  deferred().finish();
  write_now(target, bytes);
}

namespace {

void write_now(const std::filesystem::path& target, std::string_view bytes) {
  if (target.filename().empty())
    throw std::runtime_error(fmt::format("cannot write '{}': not a file name", target.string()));
  const std::filesystem::path temporary = temporary_name(target);
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;  // before fmt::format, which may allocate and touch errno
    fail(fmt::format("create '{}'", temporary.filename().string()), target, error);
  }
  try {
    write_all(fd, bytes, target);
    // fsync before rename: otherwise a crash after the rename can expose a zero-length file
    // (the rename reaches the disk before the data on ext4 with delayed allocation).
    if (::fsync(fd) != 0) fail("fsync", target, errno);
    if (::close(fd) != 0) {
      fd = -1;
      fail("close", target, errno);
    }
    fd = -1;
    if (::rename(temporary.c_str(), target.c_str()) != 0) fail("rename", target, errno);
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  // Make the rename itself durable. Failure here does not make the file incomplete, so it is not
  // an error (some file systems refuse fsync on a directory).
  std::filesystem::path folder = target.parent_path().empty() ? "." : target.parent_path();
  int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw std::runtime_error(
        fmt::format("cannot read '{}': {}", file.string(), std::strerror(errno)));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad())
    throw std::runtime_error(
        fmt::format("cannot read '{}': {}", file.string(), std::strerror(errno)));
  return std::move(content).str();
}

}  // namespace tribo::io
