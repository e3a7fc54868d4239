#include "tribo/pd/material_constants.hpp"

#include <cmath>
#include <numbers>

namespace tribo::pd {

namespace {
constexpr double pi = std::numbers::pi;

// Plane-stress bulk modulus of the sheet, E / (2 (1 - nu)); the 3D one is MaterialSpec's.
double plane_stress_bulk_modulus(const MaterialSpec& m) {
  return m.youngs_modulus / (2.0 * (1.0 - m.poisson_ratio));
}
}  // namespace

template <int Dim>
double pmb_micromodulus(const MaterialSpec& material, double horizon, double thickness) {
  if constexpr (Dim == 3) {
    return 18.0 * material.bulk_modulus() / (pi * std::pow(horizon, 4));
  } else {
    return 9.0 * material.youngs_modulus / (pi * thickness * std::pow(horizon, 3));
  }
}

template <int Dim>
double full_horizon_length_integral(double horizon, double thickness) {
  if constexpr (Dim == 3) {
    return pi * std::pow(horizon, 4);
  } else {
    return 2.0 * pi / 3.0 * thickness * std::pow(horizon, 3);
  }
}

template <int Dim>
double lps_bulk_modulus(const MaterialSpec& material) {
  if constexpr (Dim == 3) {
    return material.bulk_modulus();
  } else {
    return plane_stress_bulk_modulus(material);
  }
}

template <int Dim>
double lps_shear_factor(const MaterialSpec& material) {
  return (Dim == 3 ? 15.0 : 8.0) * material.shear_modulus();
}

template <int Dim>
double p_wave_modulus(const MaterialSpec& material) {
  return lps_bulk_modulus<Dim>(material) + 2.0 * material.shear_modulus() * (1.0 - 1.0 / Dim);
}

template <int Dim>
double equivalent_micromodulus(const MaterialSpec& material, double horizon, double thickness) {
  const double m = p_wave_modulus<Dim>(material);
  if constexpr (Dim == 3) {
    return 10.0 * m / (pi * std::pow(horizon, 4));
  } else {
    return 8.0 * m / (pi * thickness * std::pow(horizon, 3));
  }
}

template double pmb_micromodulus<2>(const MaterialSpec&, double, double);
template double pmb_micromodulus<3>(const MaterialSpec&, double, double);
template double full_horizon_length_integral<2>(double, double);
template double full_horizon_length_integral<3>(double, double);
template double lps_bulk_modulus<2>(const MaterialSpec&);
template double lps_bulk_modulus<3>(const MaterialSpec&);
template double lps_shear_factor<2>(const MaterialSpec&);
template double lps_shear_factor<3>(const MaterialSpec&);
template double p_wave_modulus<2>(const MaterialSpec&);
template double p_wave_modulus<3>(const MaterialSpec&);
template double equivalent_micromodulus<2>(const MaterialSpec&, double, double);
template double equivalent_micromodulus<3>(const MaterialSpec&, double, double);

}  // namespace tribo::pd
