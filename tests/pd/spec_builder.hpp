#pragma once
// Small helpers that build PD SimulationSpecs in C++ for the tests (the deck reader is io/'s).
#include <string>

#include "tribo/core/simulation_spec.hpp"
#include "../support/shapes.hpp"

namespace tribo::pd::testing {

inline MaterialSpec pd_material(const std::string& name, MaterialModel model, double density,
                                double youngs_modulus, double poisson_ratio) {
  MaterialSpec m;
  m.name = name;
  m.model = model;
  m.density = density;
  m.youngs_modulus = youngs_modulus;
  m.poisson_ratio = poisson_ratio;
  return m;
}

inline Shape box(int dimension, const Vec3& min, const Vec3& max) {
  return test_support::box_shape(dimension, min, max);
}
inline Shape ball(int dimension, const Vec3& center, double radius) {
  return test_support::ball_shape(dimension, center, radius);
}

// A PD spec with no bodies yet; add them with add_body.
inline SimulationSpec pd_spec(int dimension, double spacing, double horizon = 3.015) {
  SimulationSpec spec;
  spec.method = Method::Pd;
  spec.dimension = dimension;
  spec.thickness = 1.0;
  spec.pd.spacing = spacing;
  spec.pd.horizon = horizon;
  spec.time.end = 1.0;
  spec.output.fields = {"velocity", "displacement", "damage"};
  return spec;
}

inline int add_material(SimulationSpec& spec, const MaterialSpec& m) {
  spec.materials.push_back(m);
  return static_cast<int>(spec.materials.size()) - 1;
}

inline BodySpec& add_body(SimulationSpec& spec, const std::string& name, int material,
                          const Shape& geometry, const Vec3& velocity = Vec3::Zero()) {
  BodySpec b;
  b.name = name;
  b.material = spec.materials[material].name;
  b.material_index = material;
  b.geometry = geometry;
  b.velocity = velocity;
  spec.bodies.push_back(b);
  return spec.bodies.back();
}

}  // namespace tribo::pd::testing
