// PD material constants against the classical energies they are defined to match, integrated
// here by quadrature over the horizon (not by the closed forms the code uses).
#include "tribo/pd/material_constants.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "spec_builder.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;
constexpr double pi = std::numbers::pi;

// int_0^delta r^k dr by the midpoint rule.
double radial_integral(double delta, int k) {
  const int n = 20000;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += std::pow((i + 0.5) * delta / n, k);
  return sum * delta / n;
}

TEST(PmbMicromodulus, ThreeDimensionalFormMatchesTheEnergyOfAnIsotropicStretch) {
  // W = (1/4) c s^2 int_H |xi| dV must equal (9/2) K s^2 (Silling & Askari 2005).
  const MaterialSpec m = pd_material("m", MaterialModel::Pmb, 2200, 72e9, 0.25);
  const double delta = 1.5e-3, s = 1e-3;
  const double c = pmb_micromodulus<3>(m, delta, 1.0);
  const double W = 0.25 * c * s * s * 4.0 * pi * radial_integral(delta, 3);
  EXPECT_NEAR(W / (4.5 * m.bulk_modulus() * s * s), 1.0, 1e-6);
  EXPECT_NEAR(c / (18.0 * m.bulk_modulus() / (pi * std::pow(delta, 4))), 1.0, 1e-12);
}

TEST(PmbMicromodulus, TwoDimensionalFormMatchesThePlaneStressEnergyOfAnIsotropicStretch) {
  // Plane stress, nu = 1/3: W = E s^2 / (1 - nu) per unit volume; the PD sum over a sheet of
  // thickness t is (1/4) c s^2 t int_0^delta r 2 pi r dr.
  const MaterialSpec m = pd_material("m", MaterialModel::Pmb, 1000, 1e9, 1.0 / 3.0);
  const double delta = 3e-3, t = 2e-3, s = 1e-3;
  const double c = pmb_micromodulus<2>(m, delta, t);
  const double W = 0.25 * c * s * s * t * 2.0 * pi * radial_integral(delta, 2);
  EXPECT_NEAR(W / (m.youngs_modulus * s * s / (1.0 - m.poisson_ratio)), 1.0, 1e-6);
  EXPECT_NEAR(c / (9.0 * m.youngs_modulus / (pi * t * std::pow(delta, 3))), 1.0, 1e-12);
}

TEST(PmbMicromodulus, FullHorizonLengthIntegralIsTheQuadratureValue) {
  EXPECT_NEAR(full_horizon_length_integral<3>(2e-3, 1.0) / (4 * pi * radial_integral(2e-3, 3)), 1.0,
              1e-6);
  EXPECT_NEAR(
      full_horizon_length_integral<2>(2e-3, 0.1) / (0.1 * 2 * pi * radial_integral(2e-3, 2)), 1.0,
      1e-6);
}

TEST(LpsConstants, PlaneStressBulkModulusAndShearFactorsAreTheClassicalOnes) {
  const MaterialSpec m = pd_material("m", MaterialModel::Lps, 1000, 1e9, 0.3);
  EXPECT_DOUBLE_EQ(lps_bulk_modulus<3>(m), m.bulk_modulus());
  // Plane stress: sigma_xx + sigma_yy = 2 kappa (eps_xx + eps_yy) with kappa = E / (2 (1 - nu)).
  EXPECT_NEAR(lps_bulk_modulus<2>(m), 1e9 / (2 * 0.7), 1e-3);
  EXPECT_NEAR(lps_shear_factor<3>(m), 15 * m.shear_modulus(), 1e-3);
  EXPECT_NEAR(lps_shear_factor<2>(m), 8 * m.shear_modulus(), 1e-3);
}

TEST(LpsConstants, EquivalentMicromodulusIsPmbsForPmbsPoissonRatio) {
  const MaterialSpec m3 = pd_material("m", MaterialModel::Lps, 1000, 1e9, 0.25);
  const MaterialSpec m2 = pd_material("m", MaterialModel::Lps, 1000, 1e9, 1.0 / 3.0);
  EXPECT_NEAR(equivalent_micromodulus<3>(m3, 1e-3, 1.0) / pmb_micromodulus<3>(m3, 1e-3, 1.0), 1.0,
              1e-12);
  EXPECT_NEAR(equivalent_micromodulus<2>(m2, 1e-3, 0.5) / pmb_micromodulus<2>(m2, 1e-3, 0.5), 1.0,
              1e-12);
}

}  // namespace
}  // namespace tribo::pd
