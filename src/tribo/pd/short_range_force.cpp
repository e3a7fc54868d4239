#include "tribo/pd/short_range_force.hpp"

#include "tribo/pd/material_constants.hpp"

namespace tribo::pd {

template <int Dim>
double contact_micromodulus(const MaterialSpec& material, double horizon, double thickness) {
  switch (material.model) {
    case MaterialModel::Pmb:
      return pmb_micromodulus<Dim>(material, horizon, thickness);
    case MaterialModel::Lps:
      return equivalent_micromodulus<Dim>(material, horizon, thickness);
    default:
      return 0.0;
  }
}

double pair_micromodulus(double c_a, double c_b) {
  if (c_a > 0.0 && c_b > 0.0) return 2.0 * c_a * c_b / (c_a + c_b);
  return c_a > 0.0 ? c_a : c_b;
}

template double contact_micromodulus<2>(const MaterialSpec&, double, double);
template double contact_micromodulus<3>(const MaterialSpec&, double, double);

}  // namespace tribo::pd
