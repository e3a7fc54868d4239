// Validation: the effective Young's modulus of a PD bar in static tension.
// Reference: Hooke's law in uniaxial stress, eps = sigma / E. A free bar is pulled by equal and
// opposite end loads (sigma A spread over the end layer of points) and brought to rest by
// mass-proportional damping (dynamic relaxation, ~critical for the first axial mode);
// E_eff = sigma / eps, with eps from the mean axial displacement of the lattice columns at L/4
// and 3L/4, away from the loaded ends.
// Tolerance 3% (the issue's): what is left is the discrete horizon's error in the bulk (<= 1.6%
// with delta = 3.015 h, docs/pd.md) and the surface layers' residual stiffening after the
// surface correction, which falls as 1/width; the bars are wide enough for both to fit.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "../../pd/spec_builder.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;

struct BarResult {
  double youngs_modulus = 0.0;       // Pa
  double kinetic_over_strain = 0.0;  // residual motion after the relaxation
};

// A bar of nx x ny (x nz) points of spacing 1 mm, E = 1 GPa, pulled at sigma = 1 MPa.
template <int Dim>
BarResult pull_bar(MaterialModel model, double poisson, int nx, int ny, int nz) {
  const double h = 1e-3, E = 1e9, rho = 1000.0, sigma = 1e6;
  const double L = nx * h;
  SimulationSpec spec = pd_spec(Dim, h);
  spec.thickness = h;
  const int m = add_material(spec, pd_material("bar", model, rho, E, poisson));
  add_body(spec, "bar", m, box(Dim, Vec3::Zero(), Vec3(L, ny * h, Dim == 3 ? nz * h : 0.0)));
  const double c = std::sqrt(E / rho);
  spec.pd.damping = 2.0 * std::numbers::pi * c / L;  // 2 omega_1 of the free-free bar
  PdSimulation<Dim> sim(spec);

  const double area = Dim == 3 ? ny * h * nz * h : ny * h * spec.thickness;
  const auto& X = sim.particles().reference_position;
  int left = 0, right = 0;
  for (const auto& x : X) {
    left += x.x() < h;
    right += x.x() > L - h;
  }
  for (std::size_t i = 0; i < X.size(); ++i) {
    if (X[i].x() < h) sim.applied_force()[i].x() = -sigma * area / left;
    if (X[i].x() > L - h) sim.applied_force()[i].x() = sigma * area / right;
  }
  // The slowest mode decays as exp(-omega_1 t) = exp(-pi c t / L): e^-12 after 4 L / c.
  while (sim.time() < 4.0 * L / c) sim.step();

  const double x1 = (nx / 4 + 0.5) * h, x2 = (3 * nx / 4 + 0.5) * h;
  double u1 = 0, u2 = 0;
  int n1 = 0, n2 = 0;
  for (std::size_t i = 0; i < X.size(); ++i) {
    const double u = sim.particles().position[i].x() - X[i].x();
    if (std::abs(X[i].x() - x1) < 0.25 * h) u1 += u, ++n1;
    if (std::abs(X[i].x() - x2) < 0.25 * h) u2 += u, ++n2;
  }
  const double strain = (u2 / n2 - u1 / n1) / (x2 - x1);
  const EnergyBreakdown e = sim.energy();
  return {sigma / strain, e.kinetic / e.strain};
}

void expect_modulus(const BarResult& r, const char* what) {
  const double E = 1e9;
  ::testing::Test::RecordProperty(what, std::to_string(r.youngs_modulus / E));
  std::printf("%s: E_eff / E = %.4f (kinetic / strain energy %.1e)\n", what, r.youngs_modulus / E,
              r.kinetic_over_strain);
  EXPECT_LT(r.kinetic_over_strain, 1e-6) << "the bar has not come to rest";
  EXPECT_NEAR(r.youngs_modulus / E, 1.0, 0.03);
}

TEST(ElasticBar, PmbBarIn3dHasTheInputYoungsModulus) {
  expect_modulus(pull_bar<3>(MaterialModel::Pmb, 0.25, 30, 20, 20), "pmb-3d");
}

TEST(ElasticBar, PmbBarIn2dPlaneStressHasTheInputYoungsModulus) {
  expect_modulus(pull_bar<2>(MaterialModel::Pmb, 1.0 / 3.0, 60, 24, 1), "pmb-2d");
}

TEST(ElasticBar, LpsBarIn2dPlaneStressHasTheInputYoungsModulus) {
  expect_modulus(pull_bar<2>(MaterialModel::Lps, 1.0 / 3.0, 60, 24, 1), "lps-2d");
}

TEST(ElasticBar, LpsBarWithAnotherPoissonRatioHasTheInputYoungsModulus) {
  expect_modulus(pull_bar<2>(MaterialModel::Lps, 0.2, 60, 24, 1), "lps-2d-nu0.2");
}

}  // namespace
}  // namespace tribo::pd
