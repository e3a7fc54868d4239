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
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes);

// The whole content of a file (for reloading a .pvd or history.csv on restart). Throws
// std::runtime_error naming the path when it cannot be read.
std::string read_file(const std::filesystem::path& file);

}  // namespace tribo::io
