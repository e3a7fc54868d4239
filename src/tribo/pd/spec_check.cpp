#include "tribo/pd/spec_check.hpp"

#include <fmt/format.h>

#include <cmath>

#include "tribo/core/error.hpp"
#include "tribo/pd/material_constants.hpp"

namespace tribo::pd {

namespace {
[[noreturn]] void fail(const SimulationSpec& spec, const std::string& key,
                       const std::string& what) {
  throw DeckError(DeckLocation{spec.source_file, 0, 0, key}, what);
}
}  // namespace

template <int Dim>
void check_pd_spec(const SimulationSpec& spec) {
  if (spec.dimension != Dim)
    fail(spec, "dimension",
         fmt::format("the PD solver was built for {}D, got {}", Dim, spec.dimension));
  if (!(spec.pd.spacing > 0.0))
    fail(spec, "pd.spacing", fmt::format("must be > 0 m, got {}", spec.pd.spacing));
  if (!(spec.pd.horizon > 0.0))
    fail(spec, "pd.horizon", fmt::format("must be > 0 spacings, got {}", spec.pd.horizon));
  if (!(spec.pd.damping >= 0.0))
    fail(spec, "pd.damping", fmt::format("must be >= 0 1/s, got {}", spec.pd.damping));
  if (Dim == 2 && !(spec.thickness > 0.0))
    fail(spec, "thickness", fmt::format("must be > 0 m, got {}", spec.thickness));
  if (spec.time.dt && !(*spec.time.dt > 0.0))
    fail(spec, "time.dt", fmt::format("must be > 0 s, got {}", *spec.time.dt));
  if (spec.time.cfl && !(*spec.time.cfl > 0.0))
    fail(spec, "time.cfl", fmt::format("must be > 0, got {}", *spec.time.cfl));

  for (std::size_t k = 0; k < spec.materials.size(); ++k) {
    const MaterialSpec& m = spec.materials[k];
    const std::string key = fmt::format("materials[{}]", k);
    if (m.model != MaterialModel::Pmb && m.model != MaterialModel::Lps &&
        m.model != MaterialModel::Rigid)
      fail(spec, key + ".model",
           fmt::format("material '{}': method pd takes pmb, lps or rigid", m.name));
    if (m.rigid()) continue;
    if (!(m.density > 0.0))
      fail(spec, key + ".density", fmt::format("must be > 0 kg/m^3, got {}", m.density));
    if (!(m.youngs_modulus > 0.0))
      fail(spec, key + ".youngs_modulus", fmt::format("must be > 0 Pa, got {}", m.youngs_modulus));
    if (m.model == MaterialModel::Pmb &&
        std::abs(m.poisson_ratio - pmb_poisson_ratio<Dim>()) > 1e-6)
      fail(spec, key + ".poisson_ratio",
           fmt::format("PMB in {}D has Poisson ratio {} (got {}); use lps for others", Dim,
                       Dim == 3 ? "1/4" : "1/3", m.poisson_ratio));
    const double nu_max = Dim == 3 ? 0.5 : 1.0;  // 2D plane stress allows nu up to 1
    if (m.model == MaterialModel::Lps && !(m.poisson_ratio > -1.0 && m.poisson_ratio < nu_max))
      fail(spec, key + ".poisson_ratio",
           fmt::format("must lie in (-1, {}), got {}", nu_max, m.poisson_ratio));
    if (m.critical_stretch && !(*m.critical_stretch > 0.0))
      fail(spec, key + ".critical_stretch",
           fmt::format("must be > 0, got {}", *m.critical_stretch));
  }
  for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
    const BodySpec& body = spec.bodies[b];
    const int index =
        body.material_index >= 0 ? body.material_index : spec.material_index(body.material);
    if (index < 0 || index >= static_cast<int>(spec.materials.size()))
      fail(spec, fmt::format("bodies[{}].material", b),
           fmt::format("body '{}': unknown material '{}'", body.name, body.material));
  }
}

template void check_pd_spec<2>(const SimulationSpec&);
template void check_pd_spec<3>(const SimulationSpec&);

}  // namespace tribo::pd
