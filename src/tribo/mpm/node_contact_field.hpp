#pragma once
// A node's velocity-field entries as the ContactField of contact_detection.hpp: one entry as it is,
// or several lumped into their centre of mass (Nairn et al. 2018: a material against the others;
// a crack field's materials, crack_contact.cpp).
#include "tribo/mpm/contact_detection.hpp"
#include "tribo/mpm/node_fields.hpp"

namespace tribo::mpm {

template <int Dim>
ContactField<Dim> contact_field_at(const NodeFields<Dim>& nodes, long i, bool rigid) {
  ContactField<Dim> f;
  f.mass = nodes.mass[i];
  f.momentum = nodes.momentum[i];
  f.volume = nodes.volume[i];
  f.volume_gradient = nodes.volume_gradient[i];
  f.mass_gradient = nodes.mass_gradient[i];
  f.displacement = nodes.mass_displacement[i] / f.mass;
  f.position = nodes.mass_position[i] / f.mass;
  f.rigid = rigid;
  f.force = nodes.force[i];
  return f;
}

// Sums of deformable entries; field() gives their centre-of-mass displacement and position.
template <int Dim>
struct FieldLump {
  ContactField<Dim> sum;  // every member starts at zero
  Vec<Dim> mass_displacement = Vec<Dim>::Zero();
  Vec<Dim> mass_position = Vec<Dim>::Zero();

  void add(const NodeFields<Dim>& nodes, long i) {
    sum.mass += nodes.mass[i];
    sum.momentum += nodes.momentum[i];
    sum.volume += nodes.volume[i];
    sum.volume_gradient += nodes.volume_gradient[i];
    sum.mass_gradient += nodes.mass_gradient[i];
    sum.force += nodes.force[i];
    mass_displacement += nodes.mass_displacement[i];
    mass_position += nodes.mass_position[i];
  }
  ContactField<Dim> field() const {
    ContactField<Dim> f = sum;
    if (f.mass > 0.0) {
      f.displacement = mass_displacement / f.mass;
      f.position = mass_position / f.mass;
    }
    return f;
  }
};

}  // namespace tribo::mpm
