#pragma once
// Measurements behind the validation of the PD friction models (issue 6; docs/pd-friction.md),
// shared by `tribo validate` (src/tribo/app/validation_pd.cpp) and the tests. Each runs a
// PdSimulation in memory from a spec (usually an example deck) and returns what it measured.
#include <string>

#include "tribo/core/simulation_spec.hpp"

namespace tribo::pd {

// A block dragged over a plate: the means over t >= average_from (every step) of the tangential
// (x) and normal (y) contact force on `block` by `plate`, and mu_eff = |<F_t>| / <F_n>.
struct SlidingFriction {
  double tangential = 0.0;  // N, mean of F_x
  double normal = 0.0;      // N, mean of F_y
  double mu_eff = 0.0;
};
template <int Dim>
SlidingFriction measure_sliding_friction(const SimulationSpec& spec, const std::string& block,
                                         const std::string& plate, double average_from);

// Every point moved as one rigid body, x(t) = c + u t + R(omega t)(X - c) with c the points'
// centroid, for `duration`: the contact forces are evaluated at each step of spec's dt (or the
// stable one), and friction's dissipated power integrated (trapezoid). 2D only (omega about z).
struct RigidCorotation {
  double frictional_energy = 0.0;  // J
  double kinetic_energy = 0.0;     // J, of the rigid motion
  double pairs_in_contact = 0.0;   // at the start
};
RigidCorotation measure_corotation_dissipation(const SimulationSpec& spec, double angular_velocity,
                                               const Vec2& translation_velocity, double duration);

// A free run to spec.time.end: the largest |L(t) - L(0)| / |L(0)| of the total angular momentum
// about the origin (sampled every step), and the frictional energy dissipated.
struct AngularMomentumDrift {
  double initial = 0.0;  // |L(0)|, kg m^2/s (per thickness in 2D)
  double max_relative_drift = 0.0;
  double frictional_energy = 0.0;  // J
  double kinetic_energy = 0.0;     // J, at the start
};
template <int Dim>
AngularMomentumDrift measure_angular_momentum_drift(const SimulationSpec& spec);

// A run to spec.time.end: the travel of `body`'s centroid along x.
template <int Dim>
double measure_centroid_travel(const SimulationSpec& spec, const std::string& body);

// A run to spec.time.end (or until `body` stops, when stop_when_at_rest): the x motion of its
// centroid. acceleration: least-squares parabola through the centroid's x at every step from
// fit_from on (the block has settled on its contact by then).
struct CentroidMotion {
  double travel = 0.0;        // m, x(end) - x(0)
  double acceleration = 0.0;  // m/s^2, fitted
  double final_velocity = 0.0;
  double mean_velocity = 0.0;  // m/s, mean x velocity over the steps from fit_from on
  double stop_time = -1.0;    // s, first time the x velocity reached <= 0 (-1: never)
};
template <int Dim>
CentroidMotion measure_centroid_motion(const SimulationSpec& spec, const std::string& body,
                                       double fit_from, bool stop_when_at_rest = false);

}  // namespace tribo::pd
