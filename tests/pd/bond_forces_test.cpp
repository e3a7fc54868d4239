// PMB and LPS bond forces: Newton's third law, central forces, forces as the gradient of the
// strain energy, exact energies of uniform stretches, breaking by critical stretch, and the
// PD stress estimate against Hooke's law in the bulk.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "spec_builder.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;

template <int Dim>
SimulationSpec block_spec(MaterialModel model, double poisson, int n, double h = 1e-3) {
  SimulationSpec spec = pd_spec(Dim, h);
  spec.thickness = h;
  spec.output.fields.push_back("stress");
  const int m = add_material(spec, pd_material("m", model, 1000.0, 1e9, poisson));
  add_body(spec, "block", m, box(Dim, Vec3::Zero(), Vec3::Constant(n * h)));
  return spec;
}

// Random displacements of 1e-3 spacings.
template <int Dim>
void jiggle(PdSimulation<Dim>& sim, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1e-6, 1e-6);
  for (auto& x : sim.position())
    for (int d = 0; d < Dim; ++d) x[d] += u(rng);
  sim.recompute_forces();
}

template <int Dim>
void expect_balanced(const PdSimulation<Dim>& sim) {
  Vec<Dim> total = Vec<Dim>::Zero();
  Vec3 torque = Vec3::Zero();
  double largest = 0.0;
  for (std::size_t i = 0; i < sim.force().size(); ++i) {
    total += sim.force()[i];
    torque += cross_moment<Dim>(sim.particles().position[i], sim.force()[i]);
    largest = std::max(largest, sim.force()[i].norm());
  }
  ASSERT_GT(largest, 0.0);
  // Pairwise equal and opposite forces along the current bond: both sums cancel to round-off.
  EXPECT_LT(total.norm() / largest, 1e-10);
  EXPECT_LT(torque.norm() / (largest * 1e-2), 1e-10);
}

TEST(BondForces, PmbForcesAreEqualOppositeAndCentral) {
  PdSimulation<3> sim(block_spec<3>(MaterialModel::Pmb, 0.25, 6));
  jiggle(sim, 1);
  expect_balanced(sim);
}

TEST(BondForces, LpsForcesAreEqualOppositeAndCentral) {
  PdSimulation<3> sim(block_spec<3>(MaterialModel::Lps, 0.3, 6));
  jiggle(sim, 2);
  expect_balanced(sim);
  PdSimulation<2> sim2(block_spec<2>(MaterialModel::Lps, 0.2, 8));
  jiggle(sim2, 3);
  expect_balanced(sim2);
}

// F = -dW/dx by central differences of the strain energy, on every component of a few points.
template <int Dim>
void expect_force_is_energy_gradient(MaterialModel model, double poisson) {
  PdSimulation<Dim> sim(block_spec<Dim>(model, poisson, 5));
  jiggle(sim, 7);
  const std::vector<Vec<Dim>> force = sim.force();
  const double step = 1e-9;
  const int n = static_cast<int>(force.size());
  for (int i : {0, n / 3, n / 2, n - 1}) {
    for (int d = 0; d < Dim; ++d) {
      const double x0 = sim.position()[i][d];
      sim.position()[i][d] = x0 + step;
      sim.recompute_forces();
      const double plus = sim.energy().strain;
      sim.position()[i][d] = x0 - step;
      sim.recompute_forces();
      const double minus = sim.energy().strain;
      sim.position()[i][d] = x0;
      const double gradient = (plus - minus) / (2 * step);
      // Central differences are O(step^2) accurate; the energies' round-off is the limit.
      EXPECT_NEAR(-gradient, force[i][d], 1e-5 * force[i].norm()) << "point " << i << " dir " << d;
    }
  }
}

TEST(BondForces, PmbForceIsTheGradientOfTheStrainEnergy) {
  expect_force_is_energy_gradient<3>(MaterialModel::Pmb, 0.25);
  expect_force_is_energy_gradient<2>(MaterialModel::Pmb, 1.0 / 3.0);
}

TEST(BondForces, LpsForceIsTheGradientOfTheStrainEnergy) {
  expect_force_is_energy_gradient<3>(MaterialModel::Lps, 0.3);
  expect_force_is_energy_gradient<2>(MaterialModel::Lps, 0.2);
}

TEST(BondForces, LpsEnergyOfAnIsotropicStretchIsClassicalAtEveryPoint) {
  // Under y = (1 + s) X every extension is e = s |xi|, so theta = Dim s exactly (m is the same
  // discrete sum) and the deviatoric extension vanishes, at surface points too:
  // W = kappa (Dim s)^2 / 2 per unit volume, the classical energy of eps = s I.
  for (double nu : {0.1, 0.3}) {
    PdSimulation<3> sim(block_spec<3>(MaterialModel::Lps, nu, 5));
    const double s = 1e-4;
    for (auto& x : sim.position()) x *= 1.0 + s;
    sim.recompute_forces();
    const MaterialSpec& m = sim.spec().materials[0];
    const double volume = std::pow(5e-3, 3);
    const double K = m.youngs_modulus / (3 * (1 - 2 * nu));
    EXPECT_NEAR(sim.energy().strain / (0.5 * K * 9 * s * s * volume), 1.0, 1e-6);
  }
}

TEST(BondForces, BulkStressOfAUniformStrainIsHookesLaw) {
  // sigma = (1/2) sum_j f_ij (x) xi_ij beta V_j at the centre of a block whose families and
  // correction factors are all complete, against sigma = lambda tr(eps) I + 2 mu eps. The
  // tolerance, 3%, is the bulk cubic lattice's anisotropy with delta = 3.015 h: the surface
  // correction makes the axial response exact, the cross term lambda stays 1.5-2.7% low.
  const double eps = 1e-4;
  for (MaterialModel model : {MaterialModel::Pmb, MaterialModel::Lps}) {
    const double nu = 0.25;
    PdSimulation<3> sim(block_spec<3>(model, nu, 15));
    for (auto& x : sim.position()) x.x() *= 1.0 + eps;  // uniaxial strain along x
    sim.recompute_forces();
    const int centre = 7 + 15 * (7 + 15 * 7);
    const Mat3 sigma = sim.particles().stress[centre];
    const MaterialSpec& m = sim.spec().materials[0];
    const double lambda = m.lame_lambda(), mu = m.shear_modulus();
    std::printf("model %d: sigma_xx / (lambda + 2 mu) eps = %.4f, sigma_yy / lambda eps = %.4f\n",
                int(model), sigma(0, 0) / ((lambda + 2 * mu) * eps), sigma(1, 1) / (lambda * eps));
    EXPECT_NEAR(sigma(0, 0) / ((lambda + 2 * mu) * eps), 1.0, 0.03) << int(model);
    EXPECT_NEAR(sigma(1, 1) / (lambda * eps), 1.0, 0.03) << int(model);
    EXPECT_NEAR(sigma(0, 1) / (mu * eps), 0.0, 1e-6);
  }
}

TEST(BondBreaking, ABondBreaksForGoodPastTheCriticalStretchAndNotBefore) {
  for (MaterialModel model : {MaterialModel::Pmb, MaterialModel::Lps}) {
    const double h = 1e-3, s_c = 0.01;
    SimulationSpec spec = pd_spec(3, h);
    MaterialSpec material = pd_material("m", model, 1000, 1e9, 0.25);
    material.critical_stretch = s_c;
    const int m = add_material(spec, material);
    add_body(spec, "pair", m, box(3, Vec3::Zero(), Vec3(2 * h, h, h)));  // two points, one bond
    PdSimulation<3> sim(spec);
    ASSERT_EQ(sim.bonds().bond_count(), 2);
    const Vec3 x0 = sim.position()[0], x1 = sim.position()[1];
    sim.position()[1] = x0 + (1 + 0.99 * s_c) * (x1 - x0);
    sim.recompute_forces();
    EXPECT_EQ(sim.intact_bond_count(), 2);
    EXPECT_GT(sim.force()[0].x(), 0.0);  // pulled towards point 1
    sim.position()[1] = x0 + (1 + 1.01 * s_c) * (x1 - x0);
    sim.recompute_forces();
    EXPECT_EQ(sim.intact_bond_count(), 0);
    EXPECT_DOUBLE_EQ(sim.particles().damage[0], 1.0);
    EXPECT_DOUBLE_EQ(sim.particles().damage[1], 1.0);
    EXPECT_EQ(sim.force()[0].norm(), 0.0);
    sim.position()[1] = x1;  // back to rest: the bond stays broken
    sim.recompute_forces();
    EXPECT_EQ(sim.intact_bond_count(), 0);
  }
}

TEST(BondBreaking, CompressionDoesNotBreakBonds) {
  const double h = 1e-3;
  SimulationSpec spec = pd_spec(3, h);
  MaterialSpec material = pd_material("m", MaterialModel::Pmb, 1000, 1e9, 0.25);
  material.critical_stretch = 0.01;
  add_body(spec, "pair", add_material(spec, material), box(3, Vec3::Zero(), Vec3(2 * h, h, h)));
  PdSimulation<3> sim(spec);
  const Vec3 x0 = sim.position()[0], x1 = sim.position()[1];
  sim.position()[1] = x0 + 0.9 * (x1 - x0);  // stretch -0.1
  sim.recompute_forces();
  EXPECT_EQ(sim.intact_bond_count(), 2);
  EXPECT_LT(sim.force()[0].x(), 0.0);  // pushed away from point 1
}

}  // namespace
}  // namespace tribo::pd
