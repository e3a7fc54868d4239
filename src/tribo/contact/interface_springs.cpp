#include "tribo/contact/interface_springs.hpp"

namespace tribo::contact {

template <int Dim>
InterfaceTraction<Dim> interface_traction(const InterfaceSprings& springs, const Vec<Dim>& opening,
                                          const Vec<Dim>& unit_normal, double area) {
  InterfaceTraction<Dim> out;
  const double normal_opening = opening.dot(unit_normal);
  const Vec<Dim> tangential_opening = opening - normal_opening * unit_normal;
  // Nairn 2013: traction = D * opening; the spring pulls a toward b when the interface opens.
  out.normal_force = (area * springs.normal_stiffness * normal_opening) * unit_normal;
  out.tangential_force = (area * springs.tangential_stiffness) * tangential_opening;
  out.energy = 0.5 * area *
               (springs.normal_stiffness * normal_opening * normal_opening +
                springs.tangential_stiffness * tangential_opening.squaredNorm());
  return out;
}

bool spring_is_resolved(double stiffness_per_area, double area, double dt, double reduced_mass) {
  constexpr double kLimit = 2.467401100272340;  // (pi/2)^2
  return stiffness_per_area * area * dt * dt <= kLimit * reduced_mass;
}

template InterfaceTraction<2> interface_traction<2>(const InterfaceSprings&, const Vec<2>&, const Vec<2>&, double);
template InterfaceTraction<3> interface_traction<3>(const InterfaceSprings&, const Vec<3>&, const Vec<3>&, double);

}  // namespace tribo::contact
