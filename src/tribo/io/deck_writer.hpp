#pragma once
// The deck writer: a SimulationSpec back to YAML, the `DIR/deck.yaml` of a run (DESIGN.md). Every
// key of the run's method is written with its value, defaults filled in, so the file records
// exactly what ran. For every spec that parse_deck returns, parse_deck(write_deck(spec)) gives
// back the same spec (numbers are written in their shortest exact form).
#include <string>

#include "tribo/core/simulation_spec.hpp"

namespace tribo::io {

std::string write_deck(const SimulationSpec& spec);

}  // namespace tribo::io
