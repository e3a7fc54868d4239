#include "tribo/io/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
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

// The deferred writes: one background thread takes them in the order they were handed over, so
// files still reach the disk, and their names appear, in the program's order, while the main
// thread goes on. A frame's .vtu is followed at once by the .pvd that names it; with one write in
// flight the .pvd waited for the .vtu's fsync, and the steps stood still for every frame.
// The queue is bounded in bytes (below), so a run that makes frames faster than the disk takes
// them waits instead of holding them all. After a failed write the queue is dropped (the later
// files would name or follow a file that is missing) and the error waits for the main thread.
struct Deferred {
  bool active = false;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::pair<std::filesystem::path, std::string>> queue;
  std::size_t queued_bytes = 0;
  bool busy = false;  // the worker is writing a job it has taken off the queue
  bool stopping = false;
  std::exception_ptr error;
  std::thread worker;

  void start();
  void stop();
  void push(std::filesystem::path target, std::string bytes);
  void finish();  // main thread: waits until every queued write is done; rethrows a failure
  void run();     // the worker
};

// Frames of a large run are tens of MB each; two of them in memory bounds what a slow disk costs
// in memory, and one frame always fits whatever its size.
constexpr std::size_t kMaxQueuedBytes = std::size_t{256} << 20;

Deferred& deferred() {
  static Deferred d;
  return d;
}

void write_now(const std::filesystem::path& target, std::string_view bytes);

void Deferred::start() {
  // One DeferredWrites at a time (the run driver's); a second would leave the first's worker
  // running unjoined.
  if (worker.joinable()) throw std::logic_error("DeferredWrites: one is active already");
  {
    std::lock_guard lock(mutex);
    stopping = false;
    error = nullptr;
  }
  worker = std::thread([this] { run(); });  // if this throws, writes stay immediate
  active = true;
}

void Deferred::stop() {
  {
    std::lock_guard lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  if (worker.joinable()) worker.join();
  std::lock_guard lock(mutex);
  active = false;
  queue.clear();
  queued_bytes = 0;
}

void Deferred::run() {
  std::unique_lock lock(mutex);
  for (;;) {
    changed.wait(lock, [&] { return stopping || !queue.empty(); });
    if (queue.empty()) return;  // stopping, and nothing left to write
    auto job = std::move(queue.front());
    queue.pop_front();
    busy = true;
    lock.unlock();
    std::exception_ptr failure;
    try {
      write_now(job.first, job.second);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    busy = false;
    queued_bytes -= job.second.size();
    if (failure && !error) {
      error = failure;
      for (const auto& dropped : queue) queued_bytes -= dropped.second.size();
      queue.clear();
    }
    changed.notify_all();
  }
}

void Deferred::push(std::filesystem::path target, std::string bytes) {
  std::unique_lock lock(mutex);
  changed.wait(lock, [&] {
    return error || queue.empty() || queued_bytes + bytes.size() <= kMaxQueuedBytes;
  });
  if (error) {
    std::exception_ptr failure = std::exchange(error, nullptr);
    std::rethrow_exception(failure);
  }
  const std::size_t size = bytes.size();
  queue.emplace_back(std::move(target), std::move(bytes));
  queued_bytes += size;  // after the push, which may throw
  lock.unlock();
  changed.notify_all();
}

void Deferred::finish() {
  std::unique_lock lock(mutex);
  changed.wait(lock, [&] { return queue.empty() && !busy; });
  if (error) {
    std::exception_ptr failure = std::exchange(error, nullptr);
    std::rethrow_exception(failure);
  }
}

}  // namespace

DeferredWrites::DeferredWrites() { deferred().start(); }

DeferredWrites::~DeferredWrites() {
  try {
    deferred().finish();
  } catch (...) {
    // Destroyed while another exception unwinds (the run failed already): that one is reported.
  }
  deferred().stop();
}

void DeferredWrites::finish() { deferred().finish(); }

void write_file_deferred(const std::filesystem::path& target, std::string bytes) {
  Deferred& d = deferred();
  if (!d.active) {
    write_now(target, bytes);
    return;
  }
  d.push(target, std::move(bytes));
}

void write_file_atomically(const std::filesystem::path& target, std::string_view bytes) {
  if (deferred().active) deferred().finish();
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
