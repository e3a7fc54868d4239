#include "tribo/mpm/particle_filling.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

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
    if (body.geometry.kind != Shape::Kind::Points) {
      // Rows of sub-cells along the first axis, one task each: the shape tests (with the clipped
      // fill up to 5 + 16^2 (2D) or 9 + 4^3 (3D) per cut sub-cell, each a ray cast for an STL body)
      // run in parallel; the particles are appended in the serial order (first axis fastest), so
      // the fill does not depend on the thread count.
      std::array<int, Dim> count{};
      long rows = 1;
      for (int d = 0; d < Dim; ++d) {
        count[d] = std::max(last[d] - first[d], 1);  // as deck_limits.cpp counts a flat body
        if (d > 0) rows *= count[d];
      }
      const bool clipped = spec.mpm.particle_fill == ParticleFill::Clipped;
      std::vector<std::vector<std::pair<double, Vec<Dim>>>> parts(static_cast<std::size_t>(rows));
#pragma omp parallel for schedule(dynamic, 4)
      for (long r = 0; r < rows; ++r) {
        IVec<Dim> k;
        long rest = r;
        for (int d = 1; d < Dim; ++d) {
          k[d] = first[d] + static_cast<int>(rest % count[d]);
          rest /= count[d];
        }
        auto& row = parts[static_cast<std::size_t>(r)];
        for (int i = 0; i < count[0]; ++i) {
          k[0] = first[0] + i;
          Vec<Dim> x;
          for (int d = 0; d < Dim; ++d) x[d] = grid.origin[d] + (k[d] + 0.5) * sub[d];
          if (clipped) {
            const CellOverlap part = cell_overlap(body.geometry, to_vec3<Dim>(x), to_vec3<Dim>(sub));
            if (part.fraction > 0.0) row.emplace_back(part.fraction, from_vec3<Dim>(part.centroid));
          } else if (body.geometry.contains(to_vec3<Dim>(x))) {
            row.emplace_back(1.0, x);
          }
        }
      }
      for (const auto& row : parts)
        for (const auto& [fraction, x] : row)
          particles.push_back(x, Vec<Dim>::Zero(), material.density * volume * fraction, volume * fraction,
                              static_cast<int>(b), body.material_index);
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
