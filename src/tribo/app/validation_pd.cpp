// Peridynamic validation problems (the friction-model comparison of issue 6 registers here).
#include "tribo/app/validation_problem.hpp"

namespace tribo::app {

void add_pd_validation_problems(std::vector<ValidationProblem>& /*problems*/) {}

}  // namespace tribo::app
