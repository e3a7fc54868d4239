#include "tribo/core/error.hpp"

#include <fmt/format.h>

namespace tribo {

namespace {
std::string format_deck_message(const DeckLocation& w, const std::string& what) {
  std::string place = w.file.empty() ? std::string("deck") : w.file;
  if (w.line > 0) place += fmt::format(":{}:{}", w.line, w.column);
  if (!w.key.empty()) return fmt::format("{}: {}: {}", place, w.key, what);
  return fmt::format("{}: {}", place, what);
}
}  // namespace

DeckError::DeckError(DeckLocation where, const std::string& what)
    : std::runtime_error(format_deck_message(where, what)), where_(std::move(where)) {}

SimulationError::SimulationError(long step, double time, const std::string& what)
    : std::runtime_error(fmt::format("step {}, t = {:.6g} s: {}", step, time, what)),
      step_(step),
      time_(time) {}

}  // namespace tribo
