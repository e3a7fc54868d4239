#pragma once
// Per-particle (per-point) state declared once: a solver lists its arrays as a tuple of
// NamedArray (a name and a reference to the std::vector), and everything that must treat every
// array alike iterates over that list: the sort by cell permutes them together, checkpoints save
// and restore them under their names, the VTK writer checks their lengths, and a later exchange
// of particles between processes can pack them. A new array added to the list reaches all of
// them; one left out of it is caught by the struct's size guard (ArrayListCovers below).
//
// Iteration is a fold over the tuple at compile time: no allocation, no virtual call.
#include <cstddef>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tribo {

// One per-particle array: its name (checkpoint entries are "<solver>.<name>") and the vector.
// Array is std::vector<T> or const std::vector<T>.
template <class Array>
struct NamedArray {
  std::string_view name;
  Array& values;
};
template <class Array>
NamedArray(std::string_view, Array&) -> NamedArray<Array>;

// fn(name, values) for each array of the list, in list order.
template <class List, class Fn>
void for_each_array(List&& list, Fn&& fn) {
  std::apply([&fn](auto&... array) { (fn(array.name, array.values), ...); }, list);
}

// fn(values...) once, with every array of the list (for operations that must walk all arrays
// together, such as applying one permutation in a single pass).
template <class List, class Fn>
decltype(auto) apply_to_arrays(List&& list, Fn&& fn) {
  return std::apply([&fn](auto&... array) -> decltype(auto) { return fn(array.values...); }, list);
}

// True when a struct made only of std::vector members has exactly as many as the list names, so
// that a member added to the struct and forgotten in the list fails a static_assert. (Every
// std::vector<T> has the same size; the guard relies on the struct holding nothing else.)
template <class Struct, class List>
constexpr bool ArrayListCovers = sizeof(Struct) == std::tuple_size_v<std::remove_cvref_t<List>> * sizeof(std::vector<int>);

}  // namespace tribo
