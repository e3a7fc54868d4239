// Validation: a pre-notched plate pulled apart breaks along its notch.
// Reference: the damage pattern of mode-I fracture from a pre-crack (Silling & Askari 2005, the
// pre-cracked plate; Ha & Bobaru 2010): loaded normal to the notch, the plate fails by a crack
// that runs from the notch tip on along the notch's line to the far edge. Checks:
// (1) the two halves separated: no chain of intact bonds joins the pulled top rows to the
//     bottom rows (a crack path may zig-zag by a row, so this is asked of connectivity, not of
//     the bonds crossing one line);
// (2) the fracture stayed on the notch's line: every point that lost more than 20% of its
//     bonds lies within two horizons of it (no branching off it, no cracking at the grips);
// (3) ahead of the tip the damage was made by the run: it was 0 there at the start.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../../pd/spec_builder.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;

template <int Dim>
void pull_notched_plate(MaterialModel model, double poisson, int n) {
  const double h = 1e-3, E = 1e9, rho = 1000.0, s_c = 0.005;
  const double W = n * h, y_notch = 0.5 * W, notch_tip = 0.4 * W;
  SimulationSpec spec = pd_spec(Dim, h);
  spec.thickness = h;
  MaterialSpec material = pd_material("plate", model, rho, E, poisson);
  material.critical_stretch = s_c;
  const int m = add_material(spec, material);
  add_body(spec, "plate", m, box(Dim, Vec3::Zero(), Vec3(W, W, Dim == 3 ? 3 * h : 0.0)));
  // The notch lies between two lattice rows, from outside the left edge to 0.4 W.
  PdSpec::Precrack notch;
  notch.points = {Vec3(-h, y_notch, 0.0), Vec3(notch_tip, y_notch, 0.0)};
  spec.pd.precracks.push_back(notch);
  // Pull the top and bottom three rows apart at 0.5 m/s each: a strain rate of 2 v / W.
  const double v = 0.5;
  BoundaryConditionSpec top, bottom;
  top.region = box(Dim, Vec3(-1.0, W - 3 * h, -1.0), Vec3(1.0, 1.0, 1.0));
  top.velocity[1] = v;
  bottom.region = box(Dim, Vec3(-1.0, -1.0, -1.0), Vec3(1.0, 3 * h, 1.0));
  bottom.velocity[1] = -v;
  spec.boundary_conditions = {top, bottom};
  PdSimulation<Dim> sim(spec);

  const auto& X = sim.particles().reference_position;
  std::vector<double> initial_damage = sim.particles().damage;
  // Run past the nominal breaking strain s_c of the whole plate (t = s_c W / 2v), so that the
  // crack has time to cross the 0.6 W ahead of the tip at a fraction of the wave speed.
  const double t_end = 1.5 * s_c * W / (2.0 * v);
  while (sim.time() < t_end) sim.step();
  sim.check_health();

  // (1) Flood the intact-bond graph from the top rows; the bottom rows must stay unreached.
  const BondFamilies& bonds = sim.bonds();
  std::vector<char> reached(X.size(), 0);
  std::vector<int> stack;
  for (std::size_t i = 0; i < X.size(); ++i)
    if (X[i].y() > W - 3 * h) reached[i] = 1, stack.push_back(static_cast<int>(i));
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
      const int j = bonds.neighbor[b];
      if (sim.bond_intact(b) && !reached[j]) reached[j] = 1, stack.push_back(j);
    }
  }
  long bottom_reached = 0;
  for (std::size_t i = 0; i < X.size(); ++i) bottom_reached += X[i].y() < 3 * h && reached[i];
  EXPECT_EQ(bottom_reached, 0) << "the halves are still joined";

  // (2) and (3).
  const double delta = spec.pd.horizon * h;
  double farthest = 0.0, ahead_initial = 0.0, ahead_final = 0.0;
  for (std::size_t i = 0; i < X.size(); ++i) {
    const double d = sim.particles().damage[i];
    const double off_line = std::abs(X[i].y() - y_notch);
    if (d > 0.2) farthest = std::max(farthest, off_line);
    if (off_line < h && X[i].x() > notch_tip + 2 * delta) {
      ahead_initial = std::max(ahead_initial, initial_damage[i]);
      ahead_final = std::max(ahead_final, d);
    }
  }
  std::printf(
      "damage > 0.2 at most %.1f spacings off the notch's line (horizon %.2f); ahead of "
      "the tip: %.2f at start, %.2f at end\n",
      farthest / h, spec.pd.horizon, ahead_initial, ahead_final);
  EXPECT_LT(farthest, 2.0 * delta);
  EXPECT_EQ(ahead_initial, 0.0);
  EXPECT_GT(ahead_final, 0.2);
}

TEST(NotchedPlate, PmbPlateBreaksAlongItsNotch) {
  pull_notched_plate<2>(MaterialModel::Pmb, 1.0 / 3.0, 60);
}

TEST(NotchedPlate, LpsPlateBreaksAlongItsNotch) {
  pull_notched_plate<2>(MaterialModel::Lps, 0.3, 60);
}

TEST(NotchedPlate, PmbSlabIn3dBreaksAlongItsNotch) {
  pull_notched_plate<3>(MaterialModel::Pmb, 0.25, 40);
}

}  // namespace
}  // namespace tribo::pd
