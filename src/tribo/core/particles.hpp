#pragma once
// Particle (material point, or PD lattice point) storage as structure-of-arrays: one contiguous
// array per field, so that each per-particle loop streams only the fields it reads.
#include <cstddef>
#include <vector>

#include "tribo/core/types.hpp"

namespace tribo {

template <int Dim>
struct Particles {
  std::vector<Vec<Dim>> position;          // m, current
  std::vector<Vec<Dim>> reference_position;  // m, at t = 0 (displacement = position - reference)
  std::vector<Vec<Dim>> velocity;          // m/s
  std::vector<double> mass;                // kg
  std::vector<double> volume;              // m^3 (2D: area times thickness), current
  std::vector<double> reference_volume;    // m^3
  std::vector<int> body;                   // index into SimulationSpec::bodies
  std::vector<int> material;               // index into SimulationSpec::materials
  std::vector<Mat3> stress;                // Pa, Cauchy; 3x3 so plane strain keeps sigma_zz
  std::vector<double> damage;              // PD: fraction of broken bonds; MPM: 0

  std::size_t size() const { return position.size(); }

  void reserve(std::size_t n) {
    position.reserve(n);
    reference_position.reserve(n);
    velocity.reserve(n);
    mass.reserve(n);
    volume.reserve(n);
    reference_volume.reserve(n);
    body.reserve(n);
    material.reserve(n);
    stress.reserve(n);
    damage.reserve(n);
  }

  void push_back(const Vec<Dim>& x, const Vec<Dim>& v, double m, double vol, int body_index,
                 int material_index) {
    position.push_back(x);
    reference_position.push_back(x);
    velocity.push_back(v);
    mass.push_back(m);
    volume.push_back(vol);
    reference_volume.push_back(vol);
    body.push_back(body_index);
    material.push_back(material_index);
    stress.push_back(Mat3::Zero());
    damage.push_back(0.0);
  }
};

}  // namespace tribo
