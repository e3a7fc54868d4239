#pragma once
// Small MPM problems built in C++ (no deck reader), shared by the validation tests of this folder.
#include <cmath>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/mpm_simulation.hpp"
#include "../../support/shapes.hpp"

namespace tribo::testing {

using test_support::ball_shape;
using test_support::box_shape;

inline MaterialSpec elastic_material(const std::string& name, double density, double E, double nu) {
  MaterialSpec m;
  m.name = name;
  m.model = MaterialModel::LinearElastic;
  m.density = density;
  m.youngs_modulus = E;
  m.poisson_ratio = nu;
  return m;
}

inline BodySpec body(const std::string& name, int material, const Shape& shape, Vec3 v = Vec3::Zero()) {
  BodySpec b;
  b.name = name;
  b.material = "";
  b.material_index = material;
  b.geometry = shape;
  b.velocity = v;
  return b;
}

// Centroid and mean velocity of one body (mass-weighted).
template <int Dim>
Vec<Dim> body_centroid(const Simulation<Dim>& sim, int body_index) {
  const Particles<Dim>& p = sim.particles();
  Vec<Dim> sum = Vec<Dim>::Zero();
  double mass = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.body[i] == body_index) {
      sum += p.mass[i] * p.position[i];
      mass += p.mass[i];
    }
  return sum / mass;
}

template <int Dim>
Vec<Dim> body_velocity(const Simulation<Dim>& sim, int body_index) {
  const Particles<Dim>& p = sim.particles();
  Vec<Dim> sum = Vec<Dim>::Zero();
  double mass = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.body[i] == body_index) {
      sum += p.mass[i] * p.velocity[i];
      mass += p.mass[i];
    }
  return sum / mass;
}

}  // namespace tribo::testing
