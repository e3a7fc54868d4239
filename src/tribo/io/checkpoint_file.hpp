#pragma once
// The checkpoint file: named entries of raw bytes behind a magic word, closed by a checksum, so
// that a restart reads a checkpoint whole or refuses it (a truncated, foreign or corrupted file is
// an error naming the file, never a state read half). Written with write_file_atomically: a run
// killed while writing one leaves the previous checkpoints as they were.
//
// Layout (little-endian, the machine's own doubles; a checkpoint is for restarting on the machine
// type that wrote it, not an exchange format):
//   "TRIBOCKP"  u32 format version  u32 0
//   per entry:  u32 name length, name bytes, u64 data length, data bytes
//   u64 FNV-1a hash of every byte before it
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tribo/core/simulation.hpp"

namespace tribo::io {

// One checkpoint in memory: written entry by entry (StateWriter), then bytes(); or parsed from
// bytes and read entry by entry (StateReader).
class CheckpointImage final : public StateWriter, public StateReader {
 public:
  static constexpr std::uint32_t kFormatVersion = 1;

  CheckpointImage();

  // Back to an empty, open image, keeping the buffer: a run that re-takes its in-memory snapshot
  // reuses one allocation instead of holding the old image while the new one grows.
  void reset();
  // Room for `payload` bytes of entries (their names and sizes included, entry_bytes below) and
  // the checksum, so that writing them never reallocates.
  void reserve(std::size_t payload);
  // Bytes one entry takes in the image: its name's length, the name, its size, the data.
  static std::size_t entry_bytes(std::string_view name, std::size_t size);

  // Throws std::runtime_error for an empty or repeated name, or after bytes().
  void write_bytes(std::string_view name, const void* data, std::size_t size) override;
  void write_string(std::string_view name, std::string_view text) {
    write_bytes(name, text.data(), text.size());
  }

  std::size_t entry_size(std::string_view name) const override;
  void read_bytes(std::string_view name, void* data, std::size_t size) const override;
  std::string read_string(std::string_view name) const;
  bool contains(std::string_view name) const;

  // The file's content; closes the image for writing (appends the checksum once).
  const std::string& bytes();

  // Parses a file's content; `source` names it in messages. Throws std::runtime_error for a
  // wrong magic word or version, a truncated entry or a checksum that does not match.
  static CheckpointImage parse(std::string bytes, const std::string& source);

 private:
  struct Span {
    std::size_t offset, size;
  };
  std::string bytes_;
  std::unordered_map<std::string, Span> index_;
  bool closed_ = false;
  std::string source_;  // for messages when parsed
};

// FNV-1a, 64 bits (Fowler, Noll, Vo): a checksum against torn or corrupted files, not a defence
// against tampering.
std::uint64_t fnv1a64(std::string_view bytes);

// write_file_atomically(file, image.bytes()).
void write_checkpoint(const std::filesystem::path& file, CheckpointImage& image);
// read_file + parse.
CheckpointImage read_checkpoint(const std::filesystem::path& file);

}  // namespace tribo::io
