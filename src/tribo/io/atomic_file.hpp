#pragma once
// Output files are complete or absent: a run killed mid-write (or a full disk) must never leave a
// truncated .vtu, .pvd, history.csv or summary.json behind for ParaView or a plot script to choke
// on.
#include <filesystem>
#include <string>
#include <string_view>

namespace tribo::io {

// Writes `bytes` to a temporary file in the target's folder, flushes and fsyncs it, then renames it
// over `target` (rename(2) is atomic within one file system, hence the same folder). Throws
// std::runtime_error naming the path and the errno text; on failure the temporary is removed and
// the old target, if any, is left as it was.
// Before it writes, the deferred writes (below) queued are finished, so that files reach the
// disk, and their names appear, in the order the program wrote them.
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes);

// While a DeferredWrites lives (the run driver holds one for the run), write_file_deferred() hands
// the same complete-or-absent write to a background thread and returns: the frames of a run (a
// .vtu of 2.6 MB and the .pvd, each fsynced twice) cost 0.6 s of an oblique-disks run of 3 s
// waiting on the disk, now overlapped with the next steps. The thread writes them one at a time in
// the order they were handed over; the main thread waits only when 256 MiB are queued. A plain
// write, finish() and the destructor wait for the queue to drain; a failed deferred write is
// rethrown (the same message, naming its file) by the next deferred write, plain write or
// finish(), and the writes queued after it are dropped. Without a DeferredWrites,
// write_file_deferred() writes at once. Main thread only.
class DeferredWrites {
 public:
  DeferredWrites();
  ~DeferredWrites();  // finishes the queued writes; an error there is lost, call finish() first
  DeferredWrites(const DeferredWrites&) = delete;
  DeferredWrites& operator=(const DeferredWrites&) = delete;
  void finish();  // waits until every queued write is done; rethrows a failed one's error
};
void write_file_deferred(const std::filesystem::path& target, std::string bytes);

// The whole content of a file (for reloading a .pvd or history.csv on restart). Throws
// std::runtime_error naming the path when it cannot be read.
std::string read_file(const std::filesystem::path& file);

}  // namespace tribo::io
