#include "tribo/pd/friction_measurements.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {

namespace {

int body_material(const SimulationSpec& spec, const std::string& name) {
  const int b = spec.body_index(name);
  if (b < 0) throw std::invalid_argument(fmt::format("no body named '{}'", name));
  return spec.material_index(spec.bodies[b].material);
}

// Steps until time.end, with the driver's half-step slack.
template <int Dim, class Visit>
void run_to_end(PdSimulation<Dim>& sim, double end, Visit&& visit) {
  while (sim.time() < end - 0.5 * sim.dt()) {
    sim.step();
    visit(sim);
  }
  sim.check_health();
}

template <int Dim>
Vec3 angular_momentum(const PdSimulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  Vec3 sum = Vec3::Zero();
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid())
      sum += cross_moment<Dim>(p.position[i], Vec<Dim>(p.mass[i] * p.velocity[i]));
  return sum;
}

}  // namespace

template <int Dim>
SlidingFriction measure_sliding_friction(const SimulationSpec& spec, const std::string& block,
                                         const std::string& plate, double average_from) {
  PdSimulation<Dim> sim(spec);
  const int a = body_material(spec, block), b = body_material(spec, plate);
  Vec3 sum = Vec3::Zero();
  long samples = 0;
  run_to_end(sim, spec.time.end, [&](const PdSimulation<Dim>& s) {
    if (s.time() < average_from) return;
    sum += s.contact_force(a, b);
    ++samples;
  });
  if (samples == 0) throw std::invalid_argument("sliding friction: empty averaging window");
  SlidingFriction out;
  out.tangential = sum.x() / samples;
  out.normal = sum.y() / samples;
  out.mu_eff = out.normal > 0.0 ? std::abs(out.tangential) / out.normal : 0.0;
  return out;
}

RigidCorotation measure_corotation_dissipation(const SimulationSpec& spec, double omega,
                                               const Vec2& u, double duration) {
  PdSimulation<2> sim(spec);
  std::vector<Vec2>& x = sim.position();
  std::vector<Vec2>& v = sim.velocity();
  const std::vector<Vec2> X = x;
  Vec2 c = Vec2::Zero();
  for (const Vec2& p : X) c += p;
  c /= static_cast<double>(X.size());

  auto place = [&](double t) {
    const double angle = omega * t;
    Mat2 R;
    R << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
    const Vec2 centre = c + u * t;
    for (std::size_t i = 0; i < X.size(); ++i) {
      x[i] = centre + R * (X[i] - c);
      const Vec2 r = x[i] - centre;
      v[i] = u + omega * Vec2(-r.y(), r.x());
    }
    sim.recompute_forces();
  };

  RigidCorotation out;
  place(0.0);
  const Particles<2>& p = sim.particles();
  for (std::size_t i = 0; i < p.size(); ++i)
    out.kinetic_energy += 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
  out.pairs_in_contact = sim.contact() ? static_cast<double>(sim.contact()->pairs_in_contact()) : 0;
  const double dt = sim.dt();
  const long steps = std::max(1L, std::lround(duration / dt));
  double power = sim.frictional_power();
  for (long n = 1; n <= steps; ++n) {
    place(n * duration / steps);
    const double next = sim.frictional_power();
    out.frictional_energy += 0.5 * (duration / steps) * (power + next);
    power = next;
  }
  return out;
}

template <int Dim>
AngularMomentumDrift measure_angular_momentum_drift(const SimulationSpec& spec) {
  PdSimulation<Dim> sim(spec);
  AngularMomentumDrift out;
  const Vec3 l0 = angular_momentum(sim);
  out.initial = l0.norm();
  out.kinetic_energy = sim.energy().kinetic;
  if (!(out.initial > 0.0)) throw std::invalid_argument("angular momentum drift: L(0) = 0");
  run_to_end(sim, spec.time.end, [&](const PdSimulation<Dim>& s) {
    out.max_relative_drift =
        std::max(out.max_relative_drift, (angular_momentum(s) - l0).norm() / out.initial);
  });
  out.frictional_energy = sim.frictional_work();
  return out;
}

template <int Dim>
double measure_centroid_travel(const SimulationSpec& spec, const std::string& body) {
  PdSimulation<Dim> sim(spec);
  const int b = spec.body_index(body);
  if (b < 0) throw std::invalid_argument(fmt::format("no body named '{}'", body));
  const PointRange range = sim.body_points()[b];
  auto centroid_x = [&] {
    const Particles<Dim>& p = sim.particles();
    double m = 0.0, mx = 0.0;
    for (int i = range.begin; i < range.end; ++i) {
      m += p.mass[i];
      mx += p.mass[i] * p.position[i].x();
    }
    return mx / m;
  };
  const double x0 = centroid_x();
  run_to_end(sim, spec.time.end, [](const PdSimulation<Dim>&) {});
  return centroid_x() - x0;
}

template <int Dim>
CentroidMotion measure_centroid_motion(const SimulationSpec& spec, const std::string& body,
                                       double fit_from, bool stop_when_at_rest) {
  PdSimulation<Dim> sim(spec);
  const int b = spec.body_index(body);
  if (b < 0) throw std::invalid_argument(fmt::format("no body named '{}'", body));
  const PointRange range = sim.body_points()[b];
  auto centroid = [&](double& x, double& v) {
    const Particles<Dim>& p = sim.particles();
    double m = 0.0, mx = 0.0, mv = 0.0;
    for (int i = range.begin; i < range.end; ++i) {
      m += p.mass[i];
      mx += p.mass[i] * p.position[i].x();
      mv += p.mass[i] * p.velocity[i].x();
    }
    x = mx / m;
    v = mv / m;
  };
  double x0, v0;
  centroid(x0, v0);
  // Least squares x = c0 + c1 t + c2 t^2 over the samples (t shifted to fit_from): normal
  // equations of the 3 x 3 Vandermonde system.
  double S[5] = {0, 0, 0, 0, 0}, T[3] = {0, 0, 0};
  CentroidMotion out;
  double x = x0, v = v0;
  while (sim.time() < spec.time.end - 0.5 * sim.dt()) {
    sim.step();
    centroid(x, v);
    if (sim.time() >= fit_from) {
      const double t = sim.time() - fit_from;
      double tk = 1.0;
      for (int k = 0; k < 5; ++k, tk *= t) S[k] += tk;
      T[0] += x - x0;
      T[1] += (x - x0) * t;
      T[2] += (x - x0) * t * t;
      out.mean_velocity += v;
    }
    if (out.stop_time < 0.0 && v <= 0.0 && v0 > 0.0) {
      out.stop_time = sim.time();
      if (stop_when_at_rest) break;
    }
  }
  sim.check_health();
  out.travel = x - x0;
  out.final_velocity = v;
  if (S[0] > 0.0) out.mean_velocity /= S[0];
  if (S[0] >= 3.0) {
    Eigen::Matrix3d A;
    A << S[0], S[1], S[2], S[1], S[2], S[3], S[2], S[3], S[4];
    const Eigen::Vector3d c = A.ldlt().solve(Eigen::Vector3d(T[0], T[1], T[2]));
    out.acceleration = 2.0 * c[2];
  }
  return out;
}

template CentroidMotion measure_centroid_motion<2>(const SimulationSpec&, const std::string&,
                                                   double, bool);
template CentroidMotion measure_centroid_motion<3>(const SimulationSpec&, const std::string&,
                                                   double, bool);

template SlidingFriction measure_sliding_friction<2>(const SimulationSpec&, const std::string&,
                                                     const std::string&, double);
template SlidingFriction measure_sliding_friction<3>(const SimulationSpec&, const std::string&,
                                                     const std::string&, double);
template AngularMomentumDrift measure_angular_momentum_drift<2>(const SimulationSpec&);
template AngularMomentumDrift measure_angular_momentum_drift<3>(const SimulationSpec&);
template double measure_centroid_travel<2>(const SimulationSpec&, const std::string&);
template double measure_centroid_travel<3>(const SimulationSpec&, const std::string&);

}  // namespace tribo::pd
