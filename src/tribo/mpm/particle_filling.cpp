#include "tribo/mpm/particle_filling.hpp"

#include <cmath>

#include "tribo/core/error.hpp"

namespace tribo::mpm {

template <int Dim>
void fill_bodies(const SimulationSpec& spec, const Grid<Dim>& grid, Particles<Dim>& particles) {
  const int ppc = spec.mpm.particles_per_cell;
  const Vec<Dim> sub = grid.cell / ppc;
  const double thickness = Dim == 2 ? spec.thickness : 1.0;
  const double volume = sub.prod() * thickness;

  for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
    const BodySpec& body = spec.bodies[b];
    const MaterialSpec& material = spec.materials[body.material_index];
    Vec3 lo, hi;
    body.geometry.bounds(lo, hi);
    // Sub-cell index range covering the bounds.
    IVec<Dim> first, last;
    for (int d = 0; d < Dim; ++d) {
      first[d] = static_cast<int>(std::floor((lo[d] - grid.origin[d]) / sub[d]));
      last[d] = static_cast<int>(std::ceil((hi[d] - grid.origin[d]) / sub[d]));
    }
    const std::size_t begin = particles.size();
    IVec<Dim> k = first;
    if (body.geometry.kind == Shape::Kind::Points) {
      // A point cloud: one particle per point, with the file's volume or a sub-cell's.
      const std::vector<Vec3>& cloud = *body.geometry.cloud;
      const std::vector<double>* given = body.geometry.point_volumes.get();
      for (std::size_t p = 0; p < cloud.size(); ++p) {
        const double v = given ? (*given)[p] * thickness : volume;
        particles.push_back(from_vec3<Dim>(cloud[p]), Vec<Dim>::Zero(), material.density * v, v,
                            static_cast<int>(b), body.material_index);
      }
    }
    while (body.geometry.kind != Shape::Kind::Points) {
      Vec<Dim> x;
      for (int d = 0; d < Dim; ++d) x[d] = grid.origin[d] + (k[d] + 0.5) * sub[d];
      if (body.geometry.contains(to_vec3<Dim>(x)))
        particles.push_back(x, Vec<Dim>::Zero(), material.density * volume, volume,
                            static_cast<int>(b), body.material_index);
      // Odometer increment over the sub-cell box.
      int d = 0;
      while (d < Dim && ++k[d] >= last[d]) {
        k[d] = first[d];
        ++d;
      }
      if (d == Dim) break;
    }
    if (particles.size() == begin)
      throw DeckError({spec.source_file, 0, 0, "bodies[" + std::to_string(b) + "].geometry"},
                      "body '" + body.name + "' holds no material point (smaller than a sub-cell?)");

    // Rigid-body initial velocity about the mass centre.
    Vec<Dim> centroid = Vec<Dim>::Zero();
    double mass = 0.0;
    for (std::size_t p = begin; p < particles.size(); ++p) {
      centroid += particles.mass[p] * particles.position[p];
      mass += particles.mass[p];
    }
    centroid /= mass;
    const Vec3 v0 = body.velocity;
    for (std::size_t p = begin; p < particles.size(); ++p) {
      const Vec3 r = to_vec3<Dim>(Vec<Dim>(particles.position[p] - centroid));
      particles.velocity[p] = from_vec3<Dim>(v0 + body.angular_velocity.cross(r));
    }
  }
}

template void fill_bodies<2>(const SimulationSpec&, const Grid<2>&, Particles<2>&);
template void fill_bodies<3>(const SimulationSpec&, const Grid<3>&, Particles<3>&);

}  // namespace tribo::mpm
