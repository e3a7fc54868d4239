#pragma once
// `tribo validate`: built-in problems with analytic references, printed as one table.
#include <ostream>
#include <string>

namespace tribo::app {

void set_validation_threads(int threads);
// Runs one problem (or all when name is empty); prints the table; true when every row passes.
// Throws std::invalid_argument for an unknown problem name.
bool run_validation(const std::string& name, std::ostream& out);

}  // namespace tribo::app
