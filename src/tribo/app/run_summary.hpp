#pragma once
// The end of a run: the conservation figures of a completed run and DIR/summary.json (DESIGN.md,
// output folder; docs/reliability.md for the momentum balance).
#include "tribo/app/checkpoint.hpp"
#include "tribo/app/run_driver.hpp"
#include "tribo/core/simulation.hpp"
#include "tribo/core/simulation_spec.hpp"

namespace tribo::app {

// Sums over the deformable (not rigid) particles: momentum sum m v, sum |m v| (the momentum that
// moves, the scale of the balance: the total can be zero, two bodies colliding head on, and
// round-off divided by it is noise) and mass.
template <int Dim>
Vec<Dim> total_momentum(const Simulation<Dim>& sim);
template <int Dim>
double momentum_magnitude(const Simulation<Dim>& sim);
template <int Dim>
double deformable_mass(const Simulation<Dim>& sim);
// Particles of the whole run: every process's (collective on several processes).
template <int Dim>
long total_particles(const Simulation<Dim>& sim);

// Fills report.energy_error, momentum_error, momentum_balance and momentum_balance_scale from the
// state at the end and the driver's record of the start; `mass` is the deformable mass.
template <int Dim>
void measure_conservation(const Simulation<Dim>& sim, const SimulationSpec& spec, const DriverState& driver,
                          double mass, RunReport& report);

// Writes report.directory / "summary.json" (atomically). `dt` is the solver's last step, `frames`
// the number of frames written.
void write_summary(const RunReport& report, const SimulationSpec& spec, const RunOptions& options, double dt,
                   int frames);

}  // namespace tribo::app
