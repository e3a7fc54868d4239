#pragma once
// The deck reader: YAML (docs/deck.md) to tribo::SimulationSpec, with every default filled in and
// every name resolved (material_index, material_indices). Any problem with the input — a missing
// file, bytes that are not text, malformed YAML, an unknown key, a wrong type, a value out of range,
// an unknown name, contradictory options — is a tribo::DeckError whose location names the file,
// the 1-based line and column of the offending text and its dotted key path
// (`bodies[1].geometry.box.min`). No yaml-cpp exception escapes.
#include <filesystem>
#include <string>

#include "tribo/core/error.hpp"
#include "tribo/core/simulation_spec.hpp"

namespace tribo::io {

// Reads and validates the deck at `file`; SimulationSpec::source_file is `file` as given.
SimulationSpec read_deck(const std::filesystem::path& file);

// Validates a deck held in memory; `source_name` is the file name used in messages.
SimulationSpec parse_deck(const std::string& yaml_text, const std::string& source_name);

}  // namespace tribo::io
