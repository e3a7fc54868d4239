#include "tribo/app/run_summary.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "tribo/io/summary_json.hpp"

namespace tribo::app {

template <int Dim>
Vec<Dim> total_momentum(const Simulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  Vec<Dim> sum = Vec<Dim>::Zero();
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) sum += p.mass[i] * p.velocity[i];
  return sum;
}

template <int Dim>
double momentum_magnitude(const Simulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  double sum = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) sum += p.mass[i] * p.velocity[i].norm();
  return sum;
}

template <int Dim>
double deformable_mass(const Simulation<Dim>& sim) {
  const Particles<Dim>& p = sim.particles();
  double m = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) m += p.mass[i];
  return m;
}

template <int Dim>
void measure_conservation(const Simulation<Dim>& sim, const SimulationSpec& spec, const DriverState& driver,
                          double mass, RunReport& report) {
  const EnergyBreakdown& energy0 = driver.energy0;
  const EnergyBreakdown energy1 = sim.energy();
  const double scale = std::max({std::abs(energy0.total()), energy1.kinetic + energy1.strain,
                                 energy0.kinetic + energy0.strain, 1e-300});
  report.energy_error = std::abs(energy1.total() - energy0.total()) / scale;
  // The old figure (kept under its old key): the change beyond gravity's impulse without ramp,
  // relative to the largest total momentum. It reads ~1 for two bodies whose total is zero
  // and for any deck with a rigid floor; the balance below replaces it.
  const Vec<Dim> gravity = from_vec3<Dim>(spec.gravity);
  const Vec<Dim> momentum0 = from_vec3<Dim>(driver.momentum0);
  const Vec<Dim> expected = momentum0 + mass * gravity * sim.time();
  const Vec<Dim> p1 = total_momentum(sim);
  const double pscale = std::max({momentum0.norm(), p1.norm(), expected.norm(), 1e-300});
  report.momentum_error = (p1 - expected).norm() / pscale;
  // The balance: P(end) - P(0) against the sum of the external impulses the solver recorded
  // (gravity, boundary conditions, rigid bodies), relative to the momentum that moved: sum |m v|
  // at the start and at the end, and the sum of the impulses' norms over the steps.
  const Vec<Dim> impulse = from_vec3<Dim>(driver.external_impulse);
  const double balance_scale = std::max({driver.momentum_abs0, momentum_magnitude(sim), driver.impulse_flux, 1e-300});
  report.momentum_balance = (p1 - momentum0 - impulse).norm() / balance_scale;
  report.momentum_balance_scale = balance_scale;
}

void write_summary(const RunReport& report, const SimulationSpec& spec, const RunOptions& options, double dt,
                   int frames) {
  io::JsonObject summary;
  summary.set("title", spec.title)
      .set("method", spec.method == Method::Mpm ? "mpm" : "pd")
      .set("dimension", spec.dimension)
      .set("particles", report.particles)
      .set("steps", report.steps)
      .set("dt", dt)
      .set("simulated_time", report.simulated_time)
      .set("wall_time", report.wall_seconds)
      .set("particle_updates_per_second", report.particle_updates_per_second)
      .set("threads", omp_get_max_threads())
      .set("frames", frames);
  if (options.restart) {
    io::JsonObject restart;
    restart.set("step", report.first_step).set("time", report.first_time);
    summary.set("restarted_from", std::move(restart));
  }
  io::JsonObject conservation;
  conservation.set("energy_relative_error", report.energy_error)
      .set("momentum_relative_error", report.momentum_error)
      .set("momentum_balance", report.momentum_balance)
      .set("momentum_balance_scale", report.momentum_balance_scale)
      .set("note", "momentum_balance = |P(end) - P(0) - J| / S: J the impulse of gravity, boundary conditions "
                   "and rigid bodies on the deformable bodies, summed over the steps as the solver applied it; "
                   "S = max(sum |m v| at the start, at the end, sum over steps of |J_step|) in N s; ~1e-12 "
                   "for a correct MPM run, null when the solver does not record J. momentum_relative_error "
                   "(kept for old readers) compares with gravity's impulse alone and misleads with rigid "
                   "bodies or a zero total; energy_relative_error: |E(end) - E(0)| / max(|E(0)|, kinetic + "
                   "strain), E with gravity's potential and friction's work");
  summary.set("conservation", std::move(conservation));
  summary.set("exit_reason", report.exit_reason).set("exit_code", report.exit_code);
  if (report.last_good_step >= 0) {
    io::JsonObject good;
    good.set("step", report.last_good_step).set("time", report.last_good_time);
    summary.set("last_good_state", std::move(good));
  }
  if (!report.checkpoint.empty())
    summary.set("checkpoint", std::filesystem::relative(report.checkpoint, report.directory).string());
  io::write_json_atomically(report.directory / "summary.json", summary);
}

template Vec<2> total_momentum<2>(const Simulation<2>&);
template Vec<3> total_momentum<3>(const Simulation<3>&);
template double momentum_magnitude<2>(const Simulation<2>&);
template double momentum_magnitude<3>(const Simulation<3>&);
template double deformable_mass<2>(const Simulation<2>&);
template double deformable_mass<3>(const Simulation<3>&);
template void measure_conservation<2>(const Simulation<2>&, const SimulationSpec&, const DriverState&, double,
                                      RunReport&);
template void measure_conservation<3>(const Simulation<3>&, const SimulationSpec&, const DriverState&, double,
                                      RunReport&);

}  // namespace tribo::app
