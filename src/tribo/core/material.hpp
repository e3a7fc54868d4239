#pragma once
// Material parameters as given in a deck. Constitutive updates live with each method (mpm/, pd/).
#include <optional>
#include <string>

namespace tribo {

enum class MaterialModel { LinearElastic, NeoHookean, Rigid, Pmb, Lps };

struct MaterialSpec {
  std::string name;
  MaterialModel model = MaterialModel::LinearElastic;
  double density = 1000.0;       // kg/m^3
  double youngs_modulus = 0.0;   // Pa
  double poisson_ratio = 0.0;    // -
  std::optional<double> critical_stretch;  // PD bond breaking; empty = unbreakable

  bool rigid() const { return model == MaterialModel::Rigid; }
  double shear_modulus() const { return youngs_modulus / (2.0 * (1.0 + poisson_ratio)); }
  // 3D bulk modulus K = E / (3 (1 - 2 nu)).
  double bulk_modulus() const { return youngs_modulus / (3.0 * (1.0 - 2.0 * poisson_ratio)); }
  double lame_lambda() const {
    return youngs_modulus * poisson_ratio / ((1.0 + poisson_ratio) * (1.0 - 2.0 * poisson_ratio));
  }
};

}  // namespace tribo
