#pragma once
// Typed exceptions. Caught once in main: DeckError exits 2, SimulationError exits 3.
#include <stdexcept>
#include <string>

namespace tribo {

// Where in a deck a value came from; line and column are 1-based, 0 when unknown.
struct DeckLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string key;  // dotted path, e.g. "mpm.grid.cell"
};

class DeckError : public std::runtime_error {
 public:
  DeckError(DeckLocation where, const std::string& what);
  const DeckLocation& where() const { return where_; }

 private:
  DeckLocation where_;
};

// A run that cannot go on (NaN, particles leaving the grid, unstable time step).
class SimulationError : public std::runtime_error {
 public:
  SimulationError(long step, double time, const std::string& what);
  long step() const { return step_; }
  double time() const { return time_; }

 private:
  long step_;
  double time_;
};

}  // namespace tribo
