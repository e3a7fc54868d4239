#pragma once
// Lookups shared by the descriptor tables of the deck's options (contact/contact_laws.hpp,
// core/material_models.hpp, core/option_descriptors.hpp): whether a row's key list names a key,
// and the row of an enumerator.
#include <array>
#include <cstddef>
#include <string_view>

namespace tribo {

// Whether `keys` ("" pads) names `key`.
template <std::size_t N>
constexpr bool lists_key(const std::array<std::string_view, N>& keys, std::string_view key) {
  for (std::string_view k : keys)
    if (!k.empty() && k == key) return true;
  return false;
}

// The row of `table` whose member `value` is `wanted` (the first row when none is: every
// enumerator has a row, which the tables' tests check through the names).
template <class D, std::size_t N, class E>
constexpr const D& row_of(const std::array<D, N>& table, E D::*value, E wanted) {
  for (const D& d : table)
    if (d.*value == wanted) return d;
  return table[0];
}

}  // namespace tribo
