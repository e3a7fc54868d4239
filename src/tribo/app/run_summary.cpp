#include "tribo/app/run_summary.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <span>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "tribo/io/atomic_file.hpp"

namespace tribo::app {

namespace {

// sum over the deformable (not rigid) particles p of term(p), in particle order.
template <int Dim, class T, class Term>
T sum_over_deformable(const Simulation<Dim>& sim, T sum, Term term) {
  const Particles<Dim>& p = sim.particles();
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!sim.spec().materials[p.material[i]].rigid()) sum += term(p, i);
  if (sim.process_count() > 1) {  // each process summed its own particles
    if constexpr (std::is_same_v<T, double>) sim.sum_over_processes(std::span<double>(&sum, 1));
    else sim.sum_over_processes(std::span<double>(sum.data(), static_cast<std::size_t>(sum.size())));
  }
  return sum;
}

}  // namespace

template <int Dim>
Vec<Dim> total_momentum(const Simulation<Dim>& sim) {
  return sum_over_deformable<Dim>(sim, Vec<Dim>(Vec<Dim>::Zero()),
                                  [](const Particles<Dim>& p, std::size_t i) -> Vec<Dim> { return p.mass[i] * p.velocity[i]; });
}

template <int Dim>
double momentum_magnitude(const Simulation<Dim>& sim) {
  return sum_over_deformable<Dim>(
      sim, 0.0, [](const Particles<Dim>& p, std::size_t i) { return p.mass[i] * p.velocity[i].norm(); });
}

template <int Dim>
double deformable_mass(const Simulation<Dim>& sim) {
  return sum_over_deformable<Dim>(sim, 0.0, [](const Particles<Dim>& p, std::size_t i) { return p.mass[i]; });
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

namespace {

// A double as the summary has always written it, and as history.csv and run.pvd write times:
// the shortest round-trip form, "0" and "3" for whole numbers (nlohmann would write "0.0"; scripts
// that match the last good time against the history's text rely on it), null for NaN or infinity.
nlohmann::ordered_json number(double value) {
  if (std::isfinite(value) && value == std::trunc(value) && std::abs(value) < 9.0e15)
    return static_cast<std::int64_t>(value);
  return value;  // nlohmann writes NaN and infinity as null
}

}  // namespace

// nlohmann::ordered_json keeps the keys in the order they are set (DESIGN.md's order).
void write_summary(const RunReport& report, const SimulationSpec& spec, const RunOptions& options, double dt,
                   int frames) {
  using Json = nlohmann::ordered_json;
  Json summary = {{"title", spec.title},
                  {"method", spec.method == Method::Mpm ? "mpm" : "pd"},
                  {"dimension", spec.dimension},
                  {"particles", report.particles},
                  {"steps", report.steps},
                  {"dt", number(dt)},
                  {"simulated_time", number(report.simulated_time)},
                  {"wall_time", number(report.wall_seconds)},
                  {"particle_updates_per_second", number(report.particle_updates_per_second)},
                  {"threads", omp_get_max_threads()},  // per process
                  {"processes", report.processes},
                  {"frames", frames}};
  if (report.processes > 1) summary["communication_share"] = number(report.communication_share);
  if (options.restart) summary["restarted_from"] = {{"step", report.first_step}, {"time", number(report.first_time)}};
  summary["conservation"] = {
      {"energy_relative_error", number(report.energy_error)},
      {"momentum_relative_error", number(report.momentum_error)},
      {"momentum_balance", number(report.momentum_balance)},
      {"momentum_balance_scale", number(report.momentum_balance_scale)},
      {"note", "momentum_balance = |P(end) - P(0) - J| / S: J the impulse of gravity, boundary conditions "
               "and rigid bodies on the deformable bodies, summed over the steps as the solver applied it; "
               "S = max(sum |m v| at the start, at the end, sum over steps of |J_step|) in N s; ~1e-12 "
               "for a correct MPM run, null when the solver does not record J. momentum_relative_error "
               "(kept for old readers) compares with gravity's impulse alone and misleads with rigid "
               "bodies or a zero total; energy_relative_error: |E(end) - E(0)| / max(|E(0)|, kinetic + "
               "strain), E with gravity's potential and friction's work"}};
  summary["exit_reason"] = report.exit_reason;
  summary["exit_code"] = report.exit_code;
  if (report.last_good_step >= 0)
    summary["last_good_state"] = {{"step", report.last_good_step}, {"time", number(report.last_good_time)}};
  if (!report.checkpoint.empty())
    summary["checkpoint"] = std::filesystem::relative(report.checkpoint, report.directory).string();
  // Strings that are not UTF-8 (a title read from a Latin-1 deck) are written with U+FFFD in their
  // place instead of throwing at the end of a run.
  io::write_file_atomically(report.directory / "summary.json",
                            summary.dump(2, ' ', false, Json::error_handler_t::replace) + "\n");
}

template Vec<2> total_momentum<2>(const Simulation<2>&);
template Vec<3> total_momentum<3>(const Simulation<3>&);
template double momentum_magnitude<2>(const Simulation<2>&);
template double momentum_magnitude<3>(const Simulation<3>&);
template <int Dim>
long total_particles(const Simulation<Dim>& sim) {
  double count = static_cast<double>(sim.particles().size());  // exact below 2^53
  sim.sum_over_processes(std::span<double>(&count, 1));
  return static_cast<long>(count);
}

template long total_particles<2>(const Simulation<2>&);
template long total_particles<3>(const Simulation<3>&);
template double deformable_mass<2>(const Simulation<2>&);
template double deformable_mass<3>(const Simulation<3>&);
template void measure_conservation<2>(const Simulation<2>&, const SimulationSpec&, const DriverState&, double,
                                      RunReport&);
template void measure_conservation<3>(const Simulation<3>&, const SimulationSpec&, const DriverState&, double,
                                      RunReport&);

}  // namespace tribo::app
