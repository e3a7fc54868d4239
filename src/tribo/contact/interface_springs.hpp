#pragma once
// Imperfect interface: linear springs per unit area across a bonded interface (Nairn 2013, CMES
// 92:271, "Modeling imperfect interfaces in the material point method using multimaterial methods";
// NairnMPM LinearInterface with Dnt = Dnc). The traction on side a is D delta, delta = u_b - u_a
// the opening; the force on a over a contact area Ac is
//   F_a = Ac (D_n (delta.n) n + D_t (delta - (delta.n) n)),
// and b receives -F_a. The stored energy is Ac (D_n delta_n^2 + D_t |delta_t|^2) / 2.
#include "tribo/core/types.hpp"

namespace tribo::contact {

struct InterfaceSprings {
  double normal_stiffness = 0.0;      // D_n, Pa/m
  double tangential_stiffness = 0.0;  // D_t, Pa/m
};

template <int Dim>
struct InterfaceTraction {
  Vec<Dim> normal_force = Vec<Dim>::Zero();      // on a, N, along n
  Vec<Dim> tangential_force = Vec<Dim>::Zero();  // on a, N, in the interface plane
  double energy = 0.0;                           // J stored in the springs
};

template <int Dim>
InterfaceTraction<Dim> interface_traction(const InterfaceSprings& springs, const Vec<Dim>& opening,
                                          const Vec<Dim>& unit_normal, double area);

// An explicit spring of stiffness k = D Ac between masses with reduced mass m_red is integrated
// stably by the explicit step dt while k dt^2 / m_red stays below pi^2/4 (NairnMPM's bound for the
// interface; the central-difference limit is 4). Past it, the interface is treated as perfect
// (stick) in that direction, as NairnMPM does.
bool spring_is_resolved(double stiffness_per_area, double area, double dt, double reduced_mass);

}  // namespace tribo::contact
