#pragma once
// Particle (material point, or PD lattice point) storage as structure-of-arrays: one contiguous
// array per field, so that each per-particle loop streams only the fields it reads.
#include <cstddef>
#include <tuple>
#include <vector>

#include "tribo/core/named_arrays.hpp"
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

  // Every array above, by name (named_arrays.hpp), in declaration order; `self` is a Particles
  // or a const Particles. The sort, checkpoints and the VTK writer iterate over this list.
  template <class Self>
  static auto arrays(Self& self) {
    return std::tuple{NamedArray{"position", self.position},
                      NamedArray{"reference_position", self.reference_position},
                      NamedArray{"velocity", self.velocity},
                      NamedArray{"mass", self.mass},
                      NamedArray{"volume", self.volume},
                      NamedArray{"reference_volume", self.reference_volume},
                      NamedArray{"body", self.body},
                      NamedArray{"material", self.material},
                      NamedArray{"stress", self.stress},
                      NamedArray{"damage", self.damage}};
  }

  std::size_t size() const { return position.size(); }

  void reserve(std::size_t n) {
    for_each_array(arrays(*this), [n](std::string_view, auto& values) { values.reserve(n); });
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

// A member added to Particles and not to arrays() fails here.
static_assert(ArrayListCovers<Particles<2>, decltype(Particles<2>::arrays(std::declval<Particles<2>&>()))> &&
                  ArrayListCovers<Particles<3>, decltype(Particles<3>::arrays(std::declval<Particles<3>&>()))>,
              "every per-particle array of Particles must be listed in Particles::arrays()");

}  // namespace tribo
