// Validation: an undamped vibrating PD body conserves its total energy.
// Reference: conservation of energy (no damping, no loads, no breaking): kinetic + strain is
// constant. A free bar starts in its first free-free axial mode, v_x = v0 cos(pi X / L), and
// vibrates for 10 periods of 2 L / c. Velocity Verlet is symplectic: its energy error stays
// bounded, O((omega dt)^2) for the resolved mode; tolerance 0.5% (the issue's) on the largest
// |E(t) - E(0)| / E(0) over the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "../../pd/spec_builder.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;

template <int Dim>
double largest_energy_drift(MaterialModel model, double poisson, int nx, int ny, Vec3 gravity) {
  const double h = 1e-3, E = 1e9, rho = 1000.0, v0 = 0.5;
  const double L = nx * h;
  SimulationSpec spec = pd_spec(Dim, h);
  spec.thickness = h;
  spec.gravity = gravity;
  const int m = add_material(spec, pd_material("bar", model, rho, E, poisson));
  add_body(spec, "bar", m, box(Dim, Vec3::Zero(), Vec3(L, ny * h, Dim == 3 ? ny * h : 0.0)));
  // The mode shape is an initial velocity field the deck cannot give: set it per point.
  PdSimulation<Dim> sim(spec);
  const auto& X = sim.particles().reference_position;
  for (std::size_t i = 0; i < X.size(); ++i)
    sim.velocity()[i].x() = v0 * std::cos(std::numbers::pi * X[i].x() / L);

  const double period = 2.0 * L / std::sqrt(E / rho);
  const double e0 = sim.energy().total();
  double drift = 0.0;
  while (sim.time() < 10.0 * period) {
    sim.step();
    drift = std::max(drift, std::abs(sim.energy().total() - e0) / e0);
  }
  return drift;
}

TEST(EnergyConservation, VibratingPmbBarIn3dKeepsItsEnergy) {
  const double drift = largest_energy_drift<3>(MaterialModel::Pmb, 0.25, 48, 4, Vec3::Zero());
  std::printf("pmb-3d: largest |dE| / E0 over 10 periods = %.2e\n", drift);
  EXPECT_LT(drift, 5e-3);
}

TEST(EnergyConservation, VibratingLpsBarIn3dKeepsItsEnergy) {
  const double drift = largest_energy_drift<3>(MaterialModel::Lps, 0.3, 48, 4, Vec3::Zero());
  std::printf("lps-3d: largest |dE| / E0 over 10 periods = %.2e\n", drift);
  EXPECT_LT(drift, 5e-3);
}

TEST(EnergyConservation, VibratingLpsStripIn2dKeepsItsEnergy) {
  const double drift = largest_energy_drift<2>(MaterialModel::Lps, 0.25, 60, 6, Vec3::Zero());
  std::printf("lps-2d: largest |dE| / E0 over 10 periods = %.2e\n", drift);
  EXPECT_LT(drift, 5e-3);
}

TEST(EnergyConservation, FallingVibratingPmbStripKeepsKineticPlusStrainPlusPotential) {
  const double drift =
      largest_energy_drift<2>(MaterialModel::Pmb, 1.0 / 3.0, 60, 6, Vec3(0.0, -9.81, 0.0));
  std::printf("pmb-2d with gravity: largest |dE| / E0 over 10 periods = %.2e\n", drift);
  EXPECT_LT(drift, 5e-3);
}

}  // namespace
}  // namespace tribo::pd
