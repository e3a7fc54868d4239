#pragma once
// Moving particles (PD points) between processes through the solver's one list of per-particle
// arrays (core/named_arrays.hpp): whatever a solver lists there travels, and nothing else has to
// know its arrays. A message holds, array after array in list order, the selected entries as raw
// bytes; the receiver appends them in the same order. Every element type must be a trivially
// copyable value (numbers) or an Eigen fixed-size vector or matrix (copied through its
// coefficients); anything else (a pointer, a std::vector) fails to compile.
#include <cstddef>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "tribo/core/named_arrays.hpp"
#include "tribo/parallel/communicator.hpp"

namespace tribo::parallel {

namespace detail {
template <class T>
concept FixedSizeEigen = requires(T value) {
  { value.data() };
  T::SizeAtCompileTime;
} && (T::SizeAtCompileTime > 0) && std::is_trivially_copyable_v<typename T::Scalar>;

template <class T>
constexpr std::size_t entry_bytes() {
  if constexpr (FixedSizeEigen<T>) {
    return sizeof(typename T::Scalar) * static_cast<std::size_t>(T::SizeAtCompileTime);
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "per-particle arrays must hold plain values to travel");
    return sizeof(T);
  }
}

template <class T>
void write_entry(std::byte* out, const T& value) {
  if constexpr (FixedSizeEigen<T>) std::memcpy(out, value.data(), entry_bytes<T>());
  else std::memcpy(out, &value, sizeof(T));
}

template <class T>
void read_entry(T& value, const std::byte* in) {
  if constexpr (FixedSizeEigen<T>) std::memcpy(value.data(), in, entry_bytes<T>());
  else std::memcpy(&value, in, sizeof(T));
}
}  // namespace detail

// Bytes one particle takes in a message of this list.
template <class List>
std::size_t bytes_per_particle(List&& list) {
  std::size_t bytes = 0;
  for_each_array(list, [&bytes](std::string_view, auto& values) {
    bytes += detail::entry_bytes<typename std::remove_reference_t<decltype(values)>::value_type>();
  });
  return bytes;
}

// Appends the entries `indices` of every array of the list to `buffer`.
template <class List>
void pack_particles(List&& list, std::span<const std::size_t> indices, std::vector<std::byte>& buffer) {
  for_each_array(list, [&](std::string_view, auto& values) {
    using T = typename std::remove_reference_t<decltype(values)>::value_type;
    constexpr std::size_t bytes = detail::entry_bytes<T>();
    const std::size_t start = buffer.size();
    buffer.resize(start + indices.size() * bytes);
    std::byte* out = buffer.data() + start;
    for (std::size_t k = 0; k < indices.size(); ++k) detail::write_entry(out + k * bytes, values[indices[k]]);
  });
}

// Appends the particles of a message made by pack_particles (same list) to every array; returns
// how many arrived. A buffer that is not a whole number of particles is an error.
template <class List>
std::size_t unpack_particles(List&& list, std::span<const std::byte> buffer) {
  const std::size_t per_particle = bytes_per_particle(list);
  if (per_particle == 0 || buffer.size() % per_particle != 0)
    throw std::runtime_error("unpack_particles: message is not a whole number of particles");
  const std::size_t count = buffer.size() / per_particle;
  std::size_t offset = 0;
  for_each_array(list, [&](std::string_view, auto& values) {
    using T = typename std::remove_reference_t<decltype(values)>::value_type;
    constexpr std::size_t bytes = detail::entry_bytes<T>();
    const std::size_t start = values.size();
    values.resize(start + count);
    for (std::size_t k = 0; k < count; ++k) detail::read_entry(values[start + k], buffer.data() + offset + k * bytes);
    offset += count * bytes;
  });
  return count;
}

// Writes the particles of a message made by pack_particles (same list) into the entries `indices`
// of every array, in order (a refresh of copies held at those places); returns the rest of the
// message. A message shorter than the indices is an error.
template <class List>
std::span<const std::byte> unpack_particles_into(List&& list, std::span<const std::size_t> indices,
                                                 std::span<const std::byte> buffer) {
  const std::size_t bytes_here = indices.size() * bytes_per_particle(list);
  if (buffer.size() < bytes_here) throw std::runtime_error("unpack_particles_into: the message is short");
  std::size_t offset = 0;
  for_each_array(list, [&](std::string_view, auto& values) {
    using T = typename std::remove_reference_t<decltype(values)>::value_type;
    constexpr std::size_t bytes = detail::entry_bytes<T>();
    for (std::size_t k = 0; k < indices.size(); ++k) detail::read_entry(values[indices[k]], buffer.data() + offset + k * bytes);
    offset += indices.size() * bytes;
  });
  return buffer.subspan(bytes_here);
}

// Appends the entries `indices` of every array of `from` to the arrays of `to`, a list of the same
// types in the same order (a selection of particles into another set of arrays).
template <class From, class To>
void copy_particles(From&& from, std::span<const std::size_t> indices, To&& to) {
  std::vector<std::byte> buffer;
  pack_particles(from, indices, buffer);
  unpack_particles(to, buffer);
}

// Keeps the entries `order` of every array, in that order (a permutation or a selection).
template <class List>
void select_particles(List&& list, std::span<const std::size_t> order) {
  for_each_array(list, [&](std::string_view, auto& values) {
    std::remove_reference_t<decltype(values)> picked;
    picked.reserve(order.size());
    for (std::size_t k : order) picked.push_back(values[k]);
    values = std::move(picked);
  });
}

// Removes the particles whose `leaving` flag is set, keeping the others in their order.
template <class List>
void erase_particles(List&& list, std::span<const char> leaving) {
  for_each_array(list, [&](std::string_view, auto& values) {
    if (values.size() != leaving.size()) throw std::runtime_error("erase_particles: arrays of different lengths");
    std::size_t kept = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (!leaving[i]) values[kept++] = values[i];
    values.resize(kept);
  });
}

// Sends every particle to the rank owner[i] (owner.size() == the arrays' length). Afterwards this
// rank holds, in order, the particles it kept (in their old order), then the arrivals from rank
// 0, 1, ... each in its sender's order: the result depends only on the data and the process
// count, never on message timing, so runs on a fixed number of processes repeat bit for bit.
// Returns the number of particles that left this rank.
template <class List>
std::size_t migrate_particles(List&& list, std::span<const int> owner, const Communicator& comm) {
  const int size = comm.size();
  std::vector<std::vector<std::size_t>> outgoing(static_cast<std::size_t>(size));
  std::vector<char> leaving(owner.size(), 0);
  std::size_t left = 0;
  for (std::size_t i = 0; i < owner.size(); ++i) {
    if (owner[i] < 0 || owner[i] >= size) throw std::runtime_error("migrate_particles: owner out of range");
    if (owner[i] == comm.rank()) continue;
    outgoing[static_cast<std::size_t>(owner[i])].push_back(i);
    leaving[i] = 1;
    ++left;
  }
  std::vector<std::vector<std::byte>> send(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r)
    if (r != comm.rank()) pack_particles(list, outgoing[static_cast<std::size_t>(r)], send[static_cast<std::size_t>(r)]);
  std::vector<std::vector<std::byte>> received = comm.all_to_all(std::move(send));
  if (left > 0) erase_particles(list, leaving);
  for (int r = 0; r < size; ++r)
    if (r != comm.rank()) unpack_particles(list, received[static_cast<std::size_t>(r)]);
  return left;
}

}  // namespace tribo::parallel
