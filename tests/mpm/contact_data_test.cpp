// The particle-to-grid pass fills only the contact arrays that contact_data_needed() names, and
// only at nodes two fields share (issue 17: the others cost a 3D block on a rigid floor half of
// its scatter). This checks the claim behind it: multimaterial contact gives the same momenta, impulses, frictional work and slip
// state, bit for bit, when every other contact array is zero, for every normal method, position
// check, law and stage, with two deformable fields, three (lumped partners) and a rigid one. A new
// read of an array by the contact code (contact_normal.cpp, contact_detection.cpp,
// contact_pair.cpp) that contact_data_needed() does not know of fails here. Exact equality is the
// point: the solver's runs must stay bit for bit those of a pass that fills every array.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/mpm/multimaterial_contact.hpp"

namespace tribo::mpm {
namespace {

SimulationSpec deck(int deformable, bool with_rigid, ContactLaw law) {
  SimulationSpec spec;
  spec.dimension = 2;
  const int materials = deformable + (with_rigid ? 1 : 0);
  for (int m = 0; m < materials; ++m) {
    MaterialSpec mat;
    mat.name = std::string(1, static_cast<char>('a' + m));
    mat.model = m < deformable ? MaterialModel::LinearElastic : MaterialModel::Rigid;
    mat.density = 1000.0;
    mat.youngs_modulus = 1e6;
    mat.poisson_ratio = 0.3;
    spec.materials.push_back(mat);
  }
  for (int a = 0; a < materials; ++a)
    for (int b = a + 1; b < materials; ++b) {
      ContactPairSpec pair;
      pair.materials = {spec.materials[a].name, spec.materials[b].name};
      pair.material_indices = {a, b};
      pair.law.law = law;
      if (law == ContactLaw::Coulomb) {
        pair.law.friction = 0.3;
        pair.law.adhesion = 10.0;
      }
      if (law == ContactLaw::ImperfectInterface) {
        pair.law.normal_stiffness = 1e9;
        pair.law.tangential_stiffness = 1e8;
      }
      spec.mpm.contact.pairs.push_back(pair);
    }
  return spec;
}

// Random but fixed node data: most entries hold mass, velocities point every way (half the pairs
// approach), displacements and positions put about half of them in overlap.
NodeFields<2> random_nodes(const Grid<2>& grid, int fields, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  NodeFields<2> nodes;
  nodes.allocate(grid.node_count(), fields);
  const double cell_volume = grid.cell_volume();
  for (long n = 0; n < grid.node_count(); ++n)
    for (int f = 0; f < fields; ++f) {
      const long i = n * fields + f;
      if (u(rng) < -0.6) continue;  // an empty entry
      const double m = 1.0 + 0.5 * u(rng);
      nodes.mass[i] = m;
      nodes.momentum[i] = m * Vec2(u(rng), u(rng));
      nodes.force[i] = Vec2(u(rng), u(rng));
      nodes.volume[i] = (0.5 + 0.4 * u(rng)) * cell_volume;
      nodes.volume_gradient[i] = Vec2(u(rng), u(rng));
      nodes.mass_gradient[i] = Vec2(u(rng), u(rng));
      nodes.mass_displacement[i] = m * 0.1 * grid.cell[0] * Vec2(u(rng), u(rng));
      nodes.mass_position[i] = m * (grid.node_position(n) + grid.cell[0] * Vec2(u(rng), u(rng)));
    }
  return nodes;
}

// The arrays left out zeroed everywhere, and every contact array zeroed at nodes where fewer than
// two fields hold mass (the second scatter pass fills only nodes that two fields share).
void zero_unneeded(NodeFields<2>& nodes, unsigned needed) {
  const long F = nodes.fields;
  for (std::size_t i = 0; i < nodes.mass.size(); ++i) {
    const long base = static_cast<long>(i) / F * F;
    int present = 0;
    for (long f = 0; f < F; ++f) present += nodes.mass[base + f] > 0.0;
    const unsigned keep = present < 2 ? 0u : needed;
    if (!(keep & kContactVolume)) {
      nodes.volume[i] = 0.0;
      nodes.volume_gradient[i].setZero();
    }
    if (!(keep & kContactMassGradient)) nodes.mass_gradient[i].setZero();
    if (!(keep & kContactDisplacement)) nodes.mass_displacement[i].setZero();
    if (!(keep & kContactPosition)) nodes.mass_position[i].setZero();
  }
}

struct Outcome {
  std::vector<Vec2> momentum;
  std::vector<Vec2> impulse;
  double work = 0.0;
  std::vector<double> slip;
};

Outcome apply(NodeFields<2> nodes, const Grid<2>& grid, const FieldLayout& layout, const MpmContactSpec& settings,
              ContactStage stage) {
  ContactAccumulator<2> accumulator;
  accumulator.resize(layout.fields);
  SlipHistory history;
  history.resize(nodes.nodes, layout.fields);
  apply_multimaterial_contact<2>(nodes, grid, layout, settings, 1e-4, stage, &accumulator, nullptr, &history);
  return {nodes.momentum, accumulator.pair_impulse, accumulator.frictional_work, history.slip};
}

TEST(ContactDataNeeded, ContactReadsNoArrayLeftOut) {
  const Grid<2> grid(Vec2(0, 0), Vec2(0.01, 0.01), Vec2(0.001, 0.001));
  const ContactNormalMethod normals[] = {ContactNormalMethod::MaxVolumeGradient,   ContactNormalMethod::MaxGradient,
                                         ContactNormalMethod::AverageVolumeGradient, ContactNormalMethod::MassGradient,
                                         ContactNormalMethod::Specified,          ContactNormalMethod::LogisticRegression};
  const ContactLaw laws[] = {ContactLaw::Coulomb, ContactLaw::Stick, ContactLaw::Frictionless,
                             ContactLaw::ImperfectInterface};
  struct Fields {
    int deformable;
    bool rigid;
  };
  const Fields layouts[] = {{2, false}, {3, false}, {2, true}};
  int cases = 0;
  for (const Fields& fl : layouts)
    for (ContactLaw law : laws) {
      SimulationSpec spec = deck(fl.deformable, fl.rigid, law);
      const FieldLayout layout = FieldLayout::from(spec);
      const NodeFields<2> full = random_nodes(grid, layout.fields, 17u + static_cast<unsigned>(cases));
      for (ContactNormalMethod normal : normals)
        for (bool check : {true, false})
          for (ContactPositionMethod method : {ContactPositionMethod::Displacement, ContactPositionMethod::Position}) {
            MpmContactSpec& c = spec.mpm.contact;
            c.normals = normal;
            c.specified_normal = Vec3(0.6, 0.8, 0.0);
            c.displacement_check = check;
            c.position_method = method;
            const unsigned needed = contact_data_needed(spec, layout);
            ASSERT_NE(needed & kContactVolume, 0u);
            NodeFields<2> reduced = full;
            zero_unneeded(reduced, needed);
            for (ContactStage stage : {ContactStage::AfterExtrapolation, ContactStage::AfterMomentumUpdate}) {
              std::ostringstream trace;
              trace << "fields " << layout.fields << " law " << int(law) << " normals " << int(normal) << " check "
                    << check << " method " << int(method) << " stage " << int(stage);
              SCOPED_TRACE(trace.str());
              const Outcome a = apply(full, grid, layout, c, stage);
              const Outcome b = apply(reduced, grid, layout, c, stage);
              // The case must exercise contact: some node's momenta changed.
              ASSERT_NE(a.momentum, full.momentum);
              EXPECT_EQ(a.momentum, b.momentum);
              EXPECT_EQ(a.impulse, b.impulse);
              EXPECT_EQ(a.work, b.work);
              EXPECT_EQ(a.slip, b.slip);
              ++cases;
            }
          }
    }
  EXPECT_EQ(cases, 3 * 4 * 6 * 2 * 2 * 2);
}

TEST(ContactDataNeeded, SetsAreThoseTheScatterHas) {
  // Default contact (logistic-regression normals, which start from the volume gradients, and the
  // position check): volume and position only, as the 3D block on a rigid floor of
  // bench/app_mpm_rigid_floor.cpp.
  SimulationSpec spec = deck(1, true, ContactLaw::Coulomb);
  const FieldLayout layout = FieldLayout::from(spec);
  EXPECT_EQ(contact_data_needed(spec, layout), kContactVolume | kContactPosition);
  spec.mpm.contact.position_method = ContactPositionMethod::Displacement;  // the incline decks
  EXPECT_EQ(contact_data_needed(spec, layout), kContactVolume | kContactDisplacement);
  spec.mpm.contact.position_method = ContactPositionMethod::Position;
  spec.mpm.contact.displacement_check = false;
  EXPECT_EQ(contact_data_needed(spec, layout), unsigned{kContactVolume});
  spec.mpm.contact.normals = ContactNormalMethod::MassGradient;  // no instance of its own
  EXPECT_EQ(contact_data_needed(spec, layout), unsigned{kContactAll});
  spec.mpm.contact.normals = ContactNormalMethod::MaxVolumeGradient;
  spec.mpm.contact.slip = ContactSlipPoint::Surface;  // the moments read every node's position
  EXPECT_EQ(contact_data_needed(spec, layout), unsigned{kContactAll});
  // One field: no contact data at all.
  SimulationSpec single = deck(1, false, ContactLaw::Coulomb);
  EXPECT_EQ(contact_data_needed(single, FieldLayout::from(single)), 0u);
}

}  // namespace
}  // namespace tribo::mpm
