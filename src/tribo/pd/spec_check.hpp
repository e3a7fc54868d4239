#pragma once
// The checks a PD run needs of its spec beyond what the deck reader does; each failure is a
// DeckError naming the deck key.
#include "tribo/core/simulation_spec.hpp"

namespace tribo::pd {

// Throws DeckError for: a dimension other than Dim, pd.spacing <= 0, pd.horizon <= 0, a 2D
// thickness <= 0, a material that is not pmb / lps / rigid, PMB with the wrong Poisson ratio
// (1/4 in 3D, 1/3 in 2D), non-positive density or Young's modulus, a critical stretch <= 0,
// a body naming an unknown material, pd.damping < 0, and non-positive time.dt or time.cfl.
template <int Dim>
void check_pd_spec(const SimulationSpec& spec);

}  // namespace tribo::pd
