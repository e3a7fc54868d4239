#include "tribo/pd/lattice.hpp"

#include <cmath>

namespace tribo::pd {

template <int Dim>
double point_volume(double spacing, double thickness) {
  const double cell = std::pow(spacing, Dim);
  return Dim == 2 ? cell * thickness : cell;
}

template <int Dim>
LatticeBodies<Dim> fill_bodies(const SimulationSpec& spec) {
  const double h = spec.pd.spacing;
  const double volume = point_volume<Dim>(h, spec.thickness);
  LatticeBodies<Dim> out;
  for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
    const BodySpec& body = spec.bodies[b];
    const MaterialSpec& material = spec.materials[body.material_index];
    Vec3 lo, hi;
    body.geometry.bounds(lo, hi);
    IVec<Dim> count;
    Vec3 start = lo;  // the first lattice cell's lower corner
    for (int d = 0; d < Dim; ++d) {
      const double cells = (hi[d] - lo[d]) / h;
      if (body.geometry.kind != Shape::Kind::Box) {
        count[d] = std::max(0, static_cast<int>(std::ceil(cells - 1e-9)));  // contains() decides
      } else {
        // A box holds the lattice cells that fit in it, centred: floor(L / h) of them (one for a
        // plate of h/2 to h), so that its points' surfaces never stand proud of its faces. With
        // the cells anchored at the lower corner, a box 1.5 h tall had its top row on its top
        // face, and a body set on that face started half a spacing deep in the contact's rest gap
        // (a disk at 10 spacings per radius on a floor 1.5 h thick: 573 N against a weight of
        // 12 N, thrown 12 mm up). A whole number of spacings fills as before.
        count[d] = static_cast<int>(std::floor(cells + 1e-9));
        if (count[d] == 0 && cells >= 0.5 - 1e-9) count[d] = 1;
        const double spare = hi[d] - lo[d] - count[d] * h;
        if (std::abs(spare) > 1e-9 * h) start[d] = lo[d] + 0.5 * spare;  // else exactly as before
      }
    }

    PointRange range{static_cast<int>(out.points.size()), 0};
    IVec<Dim> c = IVec<Dim>::Zero();
    bool empty = (count.array() <= 0).any();
    if (body.geometry.kind == Shape::Kind::Points) {
      // A point cloud: one point per position, with the file's volume or a lattice cell's.
      const std::vector<Vec3>& cloud = *body.geometry.cloud;
      const std::vector<double>* given = body.geometry.point_volumes.get();
      for (std::size_t p = 0; p < cloud.size(); ++p) {
        const double v = given ? (Dim == 2 ? (*given)[p] * spec.thickness : (*given)[p]) : volume;
        out.points.push_back(from_vec3<Dim>(cloud[p]), Vec<Dim>::Zero(), material.density * v, v,
                             static_cast<int>(b), body.material_index);
      }
      empty = true;
    }
    while (!empty) {
      Vec3 x = lo;
      for (int d = 0; d < Dim; ++d) x[d] = start[d] + (c[d] + 0.5) * h;
      if (body.geometry.contains(x))
        out.points.push_back(from_vec3<Dim>(x), Vec<Dim>::Zero(), material.density * volume, volume,
                             static_cast<int>(b), body.material_index);
      int d = 0;
      for (; d < Dim; ++d) {
        if (++c[d] < count[d]) break;
        c[d] = 0;
      }
      if (d == Dim) break;
    }
    range.end = static_cast<int>(out.points.size());
    out.bodies.push_back(range);

    Vec<Dim> centroid = Vec<Dim>::Zero();
    if (body.geometry.point_volumes) {  // points of unequal volume: the mass centre
      double mass = 0.0;
      for (int p = range.begin; p < range.end; ++p) {
        centroid += out.points.mass[p] * out.points.position[p];
        mass += out.points.mass[p];
      }
      centroid /= mass;
    } else {
      for (int p = range.begin; p < range.end; ++p) centroid += out.points.position[p];
      if (range.size() > 0) centroid /= range.size();
    }
    out.centroid.push_back(centroid);

    const Vec3 omega = body.angular_velocity;
    for (int p = range.begin; p < range.end; ++p) {
      const Vec3 r = to_vec3<Dim>(Vec<Dim>(out.points.position[p] - centroid));
      Vec3 w = omega;
      if (Dim == 2) w = Vec3(0.0, 0.0, omega.z());  // 2D: spin about z only
      out.points.velocity[p] = from_vec3<Dim>(Vec3(body.velocity + w.cross(r)));
    }
  }
  return out;
}

template double point_volume<2>(double, double);
template double point_volume<3>(double, double);
template LatticeBodies<2> fill_bodies<2>(const SimulationSpec&);
template LatticeBodies<3> fill_bodies<3>(const SimulationSpec&);

}  // namespace tribo::pd
