#include "tribo/io/checkpoint_file.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "tribo/io/atomic_file.hpp"

namespace tribo::io {

namespace {

constexpr std::string_view kMagic = "TRIBOCKP";
constexpr std::size_t kHeaderSize = 16;  // magic, version, reserved
constexpr std::size_t kChecksumSize = sizeof(std::uint64_t);

template <class T>
void append_plain(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <class T>
T load_plain(const std::string& in, std::size_t offset) {
  T value;
  std::memcpy(&value, in.data() + offset, sizeof(T));
  return value;
}

}  // namespace

std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

CheckpointImage::CheckpointImage() { reset(); }

void CheckpointImage::reset() {
  bytes_.clear();
  index_.clear();
  closed_ = false;
  source_.clear();
  bytes_.append(kMagic);
  append_plain<std::uint32_t>(bytes_, kFormatVersion);
  append_plain<std::uint32_t>(bytes_, 0);
}

void CheckpointImage::reserve(std::size_t payload) { bytes_.reserve(kHeaderSize + payload + kChecksumSize); }

std::size_t CheckpointImage::entry_bytes(std::string_view name, std::size_t size) {
  return sizeof(std::uint32_t) + name.size() + sizeof(std::uint64_t) + size;
}

void CheckpointImage::write_bytes(std::string_view name, const void* data, std::size_t size) {
  if (closed_) throw std::runtime_error("checkpoint: entry written after the image was closed");
  if (name.empty()) throw std::runtime_error("checkpoint: an entry needs a name");
  std::string key(name);
  if (index_.count(key)) throw std::runtime_error(fmt::format("checkpoint: entry '{}' written twice", key));
  append_plain<std::uint32_t>(bytes_, static_cast<std::uint32_t>(name.size()));
  bytes_.append(name);
  append_plain<std::uint64_t>(bytes_, static_cast<std::uint64_t>(size));
  index_.emplace(std::move(key), Span{bytes_.size(), size});
  if (size > 0) bytes_.append(static_cast<const char*>(data), size);
}

bool CheckpointImage::contains(std::string_view name) const {
  return index_.count(std::string(name)) != 0;
}

std::size_t CheckpointImage::entry_size(std::string_view name) const {
  const auto it = index_.find(std::string(name));
  if (it == index_.end())
    throw std::runtime_error(fmt::format("checkpoint{}{} has no entry '{}' (written by another version or "
                                         "another method?)",
                                         source_.empty() ? "" : " ", source_, name));
  return it->second.size;
}

void CheckpointImage::read_bytes(std::string_view name, void* data, std::size_t size) const {
  const std::size_t stored = entry_size(name);
  if (stored != size)
    throw std::runtime_error(fmt::format("checkpoint{}{}: entry '{}' holds {} bytes, expected {}",
                                         source_.empty() ? "" : " ", source_, name, stored, size));
  if (size > 0) std::memcpy(data, bytes_.data() + index_.find(std::string(name))->second.offset, size);
}

std::string CheckpointImage::read_string(std::string_view name) const {
  const std::size_t size = entry_size(name);
  return bytes_.substr(index_.find(std::string(name))->second.offset, size);
}

const std::string& CheckpointImage::bytes() {
  if (!closed_) {
    append_plain<std::uint64_t>(bytes_, fnv1a64(bytes_));
    closed_ = true;
  }
  return bytes_;
}

CheckpointImage CheckpointImage::parse(std::string bytes, const std::string& source) {
  const auto bad = [&](const std::string& why) {
    return std::runtime_error(fmt::format("'{}' is not a readable checkpoint: {}", source, why));
  };
  if (bytes.size() < kHeaderSize + kChecksumSize || std::string_view(bytes).substr(0, kMagic.size()) != kMagic)
    throw bad("no TRIBOCKP header");
  const auto version = load_plain<std::uint32_t>(bytes, kMagic.size());
  if (version != kFormatVersion)
    throw bad(fmt::format("format version {}, this program reads version {}", version, kFormatVersion));
  const std::size_t body_end = bytes.size() - kChecksumSize;
  if (load_plain<std::uint64_t>(bytes, body_end) != fnv1a64(std::string_view(bytes).substr(0, body_end)))
    throw bad("checksum mismatch (truncated or corrupted)");

  CheckpointImage image;
  image.index_.clear();
  image.source_ = source;
  std::size_t at = kHeaderSize;
  while (at < body_end) {
    if (body_end - at < sizeof(std::uint32_t)) throw bad("truncated entry name");
    const auto name_size = load_plain<std::uint32_t>(bytes, at);
    at += sizeof(std::uint32_t);
    if (body_end - at < name_size + sizeof(std::uint64_t)) throw bad("truncated entry");
    std::string name = bytes.substr(at, name_size);
    at += name_size;
    const auto size = load_plain<std::uint64_t>(bytes, at);
    at += sizeof(std::uint64_t);
    if (body_end - at < size) throw bad(fmt::format("entry '{}' runs past the end", name));
    if (!image.index_.emplace(name, Span{at, static_cast<std::size_t>(size)}).second)
      throw bad(fmt::format("entry '{}' appears twice", name));
    at += size;
  }
  image.bytes_ = std::move(bytes);
  image.closed_ = true;
  return image;
}

void write_checkpoint(const std::filesystem::path& file, CheckpointImage& image) {
  write_file_atomically(file, image.bytes());
}

CheckpointImage read_checkpoint(const std::filesystem::path& file) {
  return CheckpointImage::parse(read_file(file), file.string());
}

}  // namespace tribo::io
