// The MPM solver on 2 and 3 processes (ctest label mpi) against the same deck on one, step by step:
// the example decks (cracks included) that have no option that is one-process only. Issue 16 asks for
// the history within 1e-9 relative of the one-process run over the first 100 steps (more where
// the bodies touch later); a fixed process count must repeat bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "tribo/io/deck_reader.hpp"
#include "tribo/mpm/mpm_simulation.hpp"

namespace tribo::mpm {
namespace {

using parallel::Communicator;

// One case: an example deck, optionally with one text edit, and the steps to compare.
struct Case {
  std::string name;
  std::string deck;
  int steps = 100;
  std::string edit_from, edit_to;  // empty: the deck as it is
  // After the last step the processes' particle counts are within 10% of their mean: the solver
  // rebalanced its boxes (every 100 steps, when the counts drift more than that).
  bool balanced_at_end = false;
  std::string edit2_from = {}, edit2_to = {};  // a second edit, or none
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

// Relative agreement of the history: a process count changes only the order in which nodal sums
// add particles' terms (round-off, 1e-16 relative per sum); 100 steps of an explicit scheme
// amplify it by the number of steps times the contact's sensitivity, far below 1e-9 unless a
// contact decision flips, which is what this test must catch.
constexpr double kRelative = 1e-9;

std::array<double, 4> parts(const EnergyBreakdown& e) { return {e.kinetic, e.strain, e.potential, e.frictional}; }

template <int Dim>
void compare_runs(const SimulationSpec& spec, const std::string& deck, int steps, bool balanced_at_end) {
  const auto world = Communicator::world();
  ASSERT_GT(world.size(), 1) << "run under mpiexec with 2 or more processes";
  auto one = make_simulation<Dim>(spec);
  auto many = make_simulation<Dim>(spec, world);
  auto again = make_simulation<Dim>(spec, world);  // the same process count: bit for bit
  ASSERT_EQ(one->dt(), many->dt()) << deck << ": the time step comes from every particle";
  const long long total = world.sum(static_cast<long long>(many->particles().size()));
  ASSERT_EQ(total, static_cast<long long>(one->particles().size())) << deck << ": every particle has one owner";
  const int materials = static_cast<int>(spec.materials.size());
  double force_scale = 0.0;  // N (per m in 2D): the largest contact or crack force so far, one process
  for (int step = 1; step <= steps; ++step) {
    one->step();
    many->step();
    again->step();
    many->check_health();
    again->check_health();
    const auto e1 = parts(one->energy()), en = parts(many->energy()), ea = parts(again->energy());
    // Scale: the largest energy of the run so far (the potential starts at 0, friction too).
    double scale = 0.0;
    for (double v : e1) scale += std::abs(v);
    for (int k = 0; k < 4; ++k) {
      ASSERT_LE(std::abs(en[k] - e1[k]), kRelative * scale + 1e-300)
          << deck << ": energy term " << k << " at step " << step << " on " << world.size() << " processes";
      ASSERT_EQ(std::memcmp(&en[k], &ea[k], sizeof(double)), 0) << deck << ": not repeatable at step " << step;
    }
    for (int a = 0; a < materials; ++a)
      for (int b = 0; b < materials; ++b) {
        const Vec3 f1 = one->contact_force(a, b), fn = many->contact_force(a, b), fa = again->contact_force(a, b);
        ASSERT_LE((fn - f1).norm(), kRelative * std::max(f1.norm(), 1.0) + 1e-300)
            << deck << ": contact force " << a << "-" << b << " at step " << step;
        ASSERT_EQ(fn, fa) << deck << ": contact force not repeatable at step " << step;
      }
    // A crack force is relative to the run's largest force so far (the platens' on the cracked
    // plate): a crack face node whose contact decision is borderline (faces coincident, approach
    // ~0) may decide otherwise on the sums of another process count, as at step 51 of the plate
    // on 3 processes, where the crack carried 4e-6 N/m of the platens' 531 N/m and the runs
    // differed by 2e-9 N/m (4e-12 of the run's force).
    for (int a = 0; a < materials; ++a)
      for (int b = 0; b < materials; ++b) force_scale = std::max(force_scale, one->contact_force(a, b).norm());
    for (int c = 0; c < static_cast<int>(spec.mpm.cracks.size()); ++c) {
      const Vec3 f1 = one->crack_force(c), fn = many->crack_force(c), fa = again->crack_force(c);
      force_scale = std::max(force_scale, f1.norm());
      ASSERT_LE((fn - f1).norm(), kRelative * std::max(force_scale, 1.0) + 1e-300)
          << deck << ": crack force " << c << " at step " << step;
      ASSERT_EQ(fn, fa) << deck << ": crack force not repeatable at step " << step;
    }
    const Vec3 i1 = one->external_impulse(), in = many->external_impulse();
    ASSERT_LE((in - i1).norm(), kRelative * std::max(i1.norm(), 1e-12)) << deck << ": external impulse at step " << step;
    ASSERT_NEAR(many->time_step_limit(), one->time_step_limit(), kRelative * one->time_step_limit()) << deck;
  }
  if (balanced_at_end) {
    const double count = static_cast<double>(many->particles().size());
    const double mean = world.sum(count) / world.size(), most = world.max(count);
    EXPECT_LE(most, 1.1 * mean) << deck << ": the boxes were not rebalanced (" << most << " particles on one "
                                << "process, mean " << mean << ")";
  }
  // The cracks: every process holds and moves all of them, as one process does.
  const std::vector<SurfaceMesh> s1 = one->surfaces(), sn = many->surfaces();
  ASSERT_EQ(s1.size(), sn.size()) << deck;
  const double extent = (spec.mpm.grid_max - spec.mpm.grid_min).norm();
  for (std::size_t m = 0; m < s1.size(); ++m) {
    ASSERT_EQ(s1[m].points.size(), sn[m].points.size()) << deck;
    for (std::size_t k = 0; k < s1[m].points.size(); ++k)
      ASSERT_LE((sn[m].points[k] - s1[m].points[k]).norm(), kRelative * extent) << deck << ": crack point " << k;
  }
  // Each process's particles against the one-process run's, found by their reference position.
  const auto key = [](const Vec<Dim>& x) {
    std::array<double, Dim> k;
    for (int d = 0; d < Dim; ++d) k[d] = x[d];
    return k;
  };
  std::map<std::array<double, Dim>, std::size_t> index;
  const Particles<Dim>& all = one->particles();
  double speed = 0.0;
  for (std::size_t p = 0; p < all.size(); ++p) {
    index.emplace(key(all.reference_position[p]), p);
    speed = std::max(speed, all.velocity[p].norm());
  }
  const double length = (spec.mpm.grid_max - spec.mpm.grid_min).norm();
  const Particles<Dim>& mine = many->particles();
  for (std::size_t p = 0; p < mine.size(); ++p) {
    const auto found = index.find(key(mine.reference_position[p]));
    ASSERT_NE(found, index.end()) << deck << ": a particle of no one-process run";
    const std::size_t q = found->second;
    ASSERT_LE((mine.position[p] - all.position[q]).norm(), kRelative * length) << deck << ": particle position";
    ASSERT_LE((mine.velocity[p] - all.velocity[q]).norm(), kRelative * std::max(speed, 1.0)) << deck;
  }
}

class DistributedMpm : public ::testing::TestWithParam<Case> {};

TEST_P(DistributedMpm, HistoryWithinOneBillionthOfOneProcessAndRepeatable) {
  const Case& c = GetParam();
  const std::string path = std::string(TRIBO_SOURCE_DIR) + "/examples/" + c.deck;
  SimulationSpec spec;
  if (c.edit_from.empty()) {
    spec = io::read_deck(path);
  } else {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find(c.edit_from);
    ASSERT_NE(at, std::string::npos) << c.deck << " no longer holds " << c.edit_from;
    text.replace(at, c.edit_from.size(), c.edit_to);
    if (!c.edit2_from.empty()) {
      const auto at2 = text.find(c.edit2_from);
      ASSERT_NE(at2, std::string::npos) << c.deck << " no longer holds " << c.edit2_from;
      text.replace(at2, c.edit2_from.size(), c.edit2_to);
    }
    spec = io::parse_deck(text, c.name);
  }
  if (spec.dimension == 2) compare_runs<2>(spec, c.name, c.steps, c.balanced_at_end);
  else compare_runs<3>(spec, c.name, c.steps, c.balanced_at_end);
}

// USL with the displacement check against a rigid floor (and the same block moved to the middle of
// the floor, where a cut between 2 processes goes through it and its contact), USL with the
// position check between two deformable disks (300 steps: they touch at step ~140), rolling on a
// rigid floor, MUSL with a deformable ring, 3D MUSL; logistic-regression normals between two
// deformable bodies. Each deck's bodies are cut by the boxes of 2
// and 3 processes: without the halo sum every case but the block at the floor's end fails on 2.
INSTANTIATE_TEST_SUITE_P(
    ExampleDecks, DistributedMpm,
    ::testing::Values(Case{"incline", "incline.yaml", 100, "", "", false},
                      Case{"incline_block_mid_floor", "incline.yaml", 100, "min: [0.1, 0.1], max: [0.2, 0.15]",
                           "min: [0.45, 0.1], max: [0.55, 0.15]", false},
                      // The block slides at 5 m/s across the cut: the counts drift, the boxes are
                      // rebalanced at steps 100 and 200 and the particles move. With static
                      // friction the slip history of the nodes (which decides mu_s or mu_k at each
                      // node) must follow them to their new holders.
                      Case{"incline_block_crossing_boxes", "incline.yaml", 201,
                           "min: [0.1, 0.1], max: [0.2, 0.15]}}\n    velocity: [0, 0]",
                           "min: [0.35, 0.1], max: [0.45, 0.15]}}\n    velocity: [5, 0]", true},
                      Case{"incline_crossing_boxes_static_friction", "incline.yaml", 201,
                           "min: [0.1, 0.1], max: [0.2, 0.15]}}\n    velocity: [0, 0]",
                           "min: [0.35, 0.1], max: [0.45, 0.15]}}\n    velocity: [5, 0]", true,
                           "law: coulomb, friction: 0.3}",
                           "law: coulomb, friction: 0.3, static_friction: 0.5, slip_weakening_distance: 0.002}"},
                      Case{"oblique_disks", "oblique-disks.yaml", 300, "", "", false},
                      // Logistic-regression normals fit each contact node to the particles
                      // around it; at a node shared by two processes some of them are the
                      // other's (ghosts, MpmSimulation::build_regression_neighbourhoods).
                      Case{"oblique_disks_logistic_regression", "oblique-disks.yaml", 300,
                           "normals: average-volume-gradient", "normals: logistic-regression", false},
                      Case{"elastic_floor_logistic_regression", "validation/incline-elastic-floor.yaml", 100,
                           "  contact:\n    pairs:",
                           "  contact:\n    normals: logistic-regression\n    position: {method: position, offset: 0.8}\n"
                           "    pairs:",
                           false},
                      // A velocity boundary condition whose region ends on a node (the floor's
                      // end at x = 1): the node must be held on every process as on one (it was
                      // not, from the sub-grid's own rounding of its node positions).
                      Case{"elastic_floor", "validation/incline-elastic-floor.yaml", 100, "", "", false},
                      // The penalty normal law: node-local, its springs' energy summed over the
                      // counted nodes (ContactAccumulator::stored_energy).
                      Case{"elastic_floor_penalty", "validation/incline-elastic-floor.yaml", 100,
                           "  contact:\n    pairs:", "  contact:\n    normal_law: penalty\n    pairs:", false},
                      Case{"rolling_disk_penalty", "validation/rolling-disk.yaml", 100,
                           "  contact:\n    pairs:", "  contact:\n    normal_law: penalty\n    pairs:", false},
                      // Slip at the surface (since stop 24 across processes): the node fields'
                      // second and velocity moments summed over the shared nodes before centring.
                      // Control: without that sum this case leaves the one-process run at step 4
                      // on 3 processes (the boxes cut the interface there; on 2 they do not).
                      Case{"elastic_floor_surface_slip", "validation/incline-elastic-floor.yaml", 100,
                           "  contact:\n    pairs:", "  contact:\n    slip: surface\n    pairs:", false},
                      Case{"rolling_cylinder", "rolling-cylinder.yaml", 100, "", "", false},
                      Case{"ring_cloud", "ring-cloud.yaml", 100, "", "", false},
                      Case{"gear_press", "gear-press.yaml", 100, "", "", false},
                      // Cracks (issue 16): the crack fields of a shared node ranked alike on every
                      // holder (its crack masks ORed across them), each crack surface particle
                      // moved by the process whose box holds it, crack contact counted once.
                      // The plate: 300 steps (its crack closes from step ~40). Until stop 21 it
                      // left the one-process run on 3 processes from step 40 (1e-4 of the crack
                      // force, 3% by step 75): its crack passes exactly through a node, which a
                      // sub-grid placed by its own rounded origin put on the other side; node
                      // positions and cell coordinates now come from the global origin
                      // (Grid::coordinate), and it agrees to 1e-14. The wedge slides on its crack.
                      // The block's closed crack carries the load: 100 steps, as issue 16 asks. At
                      // step 198 a node of its closed crack (faces coincident, approach ~0)
                      // decides otherwise on 2 and 3 processes for one step; the one-process run
                      // does the same when its platen speed is changed by 1e-12 (a one-step jump
                      // of 1.3e-8 of the crack force at step 193, then back to 1e-12): the
                      // decision is ill-conditioned, not the exchange.
                      // The rest of the validation decks, as they are (issue 16: every example and
                      // validation deck).
                      Case{"incline_frictionless", "validation/incline-frictionless.yaml", 100, "", "", false},
                      Case{"incline_slip", "validation/incline-slip.yaml", 100, "", "", false},
                      Case{"incline_static_slip", "validation/incline-static-slip.yaml", 100, "", "", false},
                      Case{"incline_stick", "validation/incline-stick.yaml", 100, "", "", false},
                      Case{"rolling_disk", "validation/rolling-disk.yaml", 100, "", "", false},
                      Case{"slide_to_rest", "validation/slide-to-rest.yaml", 100, "", "", false},
                      Case{"sphere_incline", "validation/sphere-incline.yaml", 100, "", "", false},
                      Case{"velocity_weakening", "validation/velocity-weakening.yaml", 100, "", "", false},
                      Case{"cracked_plate", "cracked-plate.yaml", 300, "", "", false},
                      Case{"crack_friction", "validation/crack-friction.yaml", 300, "", "", false},
                      Case{"crack_compression", "validation/crack-compression.yaml", 100, "", "", false},
                      Case{"crack_tension", "validation/crack-tension.yaml", 100, "", "", false}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace tribo::mpm
