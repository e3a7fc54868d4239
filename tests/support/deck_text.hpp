#pragma once
// Deck texts shared by the reader tests: minimal MPM and PD decks (an elastic block on a rigid floor)
// to which a test appends its own section, and the reader's error for a text ("" when it reads).
#include <string>

#include "tribo/io/deck_reader.hpp"

namespace tribo::test_support {

// Ends inside `mpm:`; a test appends `  contact: ...` lines.
inline const char* const kMpmBlockOnFloorDeck = R"(method: mpm
time: {end: 1, dt: 1.0e-4}
materials:
  - {name: block, youngs_modulus: 1.0e6, poisson_ratio: 0.3}
  - {name: floor, model: rigid}
bodies:
  - {name: block, material: block, geometry: {box: {min: [0.2, 0.2], max: [0.4, 0.4]}}}
  - {name: floor, material: floor, geometry: {box: {min: [0, 0], max: [1, 0.2]}}}
mpm:
  grid: {min: [0, 0], max: [1, 1], cell: 0.05}
)";

// Ends inside `pd:`; a test appends `  contact: ...`.
inline const char* const kPdBlockOnFloorDeck = R"(method: pd
time: {end: 1.0e-4}
materials:
  - {name: block, model: pmb, density: 1000, youngs_modulus: 1.0e6, poisson_ratio: 0.3333333333333333}
  - {name: floor, model: rigid}
bodies:
  - {name: block, material: block, geometry: {box: {min: [0.1, 0.1], max: [0.14, 0.12]}}}
  - {name: floor, material: floor, geometry: {box: {min: [0, 0.09], max: [0.3, 0.1]}}}
pd:
  spacing: 0.0025
)";

inline std::string deck_error(const std::string& text) {
  try {
    io::parse_deck(text, "test.yaml");
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

}  // namespace tribo::test_support
