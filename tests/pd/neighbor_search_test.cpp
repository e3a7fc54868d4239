// Bond families from the cell-list search against a brute-force O(N^2) search, and the lattice
// neighbour counts that follow from geometry alone.
#include "tribo/pd/neighbor_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "spec_builder.hpp"
#include "tribo/pd/lattice.hpp"

namespace tribo::pd {
namespace {

using namespace tribo::pd::testing;

template <int Dim>
LatticeBodies<Dim> lattice_of(const Shape& shape, double h) {
  SimulationSpec spec = pd_spec(Dim, h);
  const int m = add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e9, 0.25));
  add_body(spec, "b", m, shape);
  return fill_bodies<Dim>(spec);
}

template <int Dim>
BondFamilies families(const LatticeBodies<Dim>& lattice, double horizon, PartialVolumeRule rule,
                      const std::vector<char>* bonded = nullptr) {
  NeighborSearchInput<Dim> input;
  input.reference_position = &lattice.points.reference_position;
  input.volume = &lattice.points.reference_volume;
  input.group = &lattice.points.body;
  input.bonded = bonded;
  input.horizon = horizon;
  input.spacing = 1e-3;
  input.rule = rule;
  return build_bond_families<Dim>(input);
}

// Lattice vectors n != 0 with |n| within the radius (in spacings), counted by enumeration.
int lattice_points_within(int dim, double radius, bool inclusive) {
  int count = 0;
  const int k = static_cast<int>(radius) + 1;
  for (int a = -k; a <= k; ++a)
    for (int b = -k; b <= k; ++b)
      for (int c = (dim == 3 ? -k : 0); c <= (dim == 3 ? k : 0); ++c) {
        const double r2 = a * a + b * b + c * c;
        if (r2 == 0) continue;
        if (inclusive ? r2 <= radius * radius : r2 < radius * radius) ++count;
      }
  return count;
}

TEST(NeighborSearch, InteriorPointHasEveryLatticePointWithinTheFamilyRadius) {
  const double h = 1e-3;
  for (auto rule : {PartialVolumeRule::Pdlammps, PartialVolumeRule::Hhb}) {
    const auto lattice = lattice_of<3>(box(3, Vec3::Zero(), Vec3::Constant(11 * h)), h);
    const BondFamilies bonds = families(lattice, 3.015 * h, rule);
    const int centre = 5 + 11 * (5 + 11 * 5);
    const double radius = rule == PartialVolumeRule::Hhb ? 3.515 : 3.015;
    EXPECT_EQ(bonds.end(centre) - bonds.begin(centre), lattice_points_within(3, radius, false));
  }
  const auto square = lattice_of<2>(box(2, Vec3::Zero(), Vec3(11 * h, 11 * h, 0)), h);
  const BondFamilies bonds2 = families(square, 3.015 * h, PartialVolumeRule::Pdlammps);
  EXPECT_EQ(bonds2.end(60) - bonds2.begin(60), 28);  // the 28 of |n| <= 3 in a square lattice
}

TEST(NeighborSearch, AHorizonOfWholeSpacingsKeepsThePointsAtExactlyThatDistance) {
  // LAMMPS' bench cube uses delta = 3 h; (3, 0, 0) h must be in the family (r <= delta).
  const double h = 5e-4;
  const auto lattice = lattice_of<3>(box(3, Vec3::Zero(), Vec3::Constant(9 * h)), h);
  NeighborSearchInput<3> input;
  input.reference_position = &lattice.points.reference_position;
  input.volume = &lattice.points.reference_volume;
  input.group = &lattice.points.body;
  input.horizon = 3 * h;
  input.spacing = h;
  input.rule = PartialVolumeRule::Pdlammps;
  const BondFamilies bonds = build_bond_families<3>(input);
  const int centre = 4 + 9 * (4 + 9 * 4);
  EXPECT_EQ(bonds.end(centre) - bonds.begin(centre), lattice_points_within(3, 3.0, true));
}

TEST(NeighborSearch, CellListFamiliesEqualBruteForceFamilies) {
  const double h = 1e-3, delta = 3.015 * h;
  const auto lattice = lattice_of<3>(ball(3, Vec3(0.01, 0.02, -0.003), 6.3 * h), h);
  const auto& x = lattice.points.reference_position;
  for (auto rule : {PartialVolumeRule::Pdlammps, PartialVolumeRule::Hhb}) {
    const BondFamilies bonds = families(lattice, delta, rule);
    const double radius = family_radius(rule, delta, h);
    for (std::size_t i = 0; i < x.size(); ++i) {
      std::set<int> expected, found;
      for (std::size_t j = 0; j < x.size(); ++j) {
        const double r = (x[j] - x[i]).norm();
        const bool inside =
            rule == PartialVolumeRule::Hhb ? r < radius * (1 - 1e-12) : r <= radius * (1 + 1e-12);
        if (j != i && inside) expected.insert(static_cast<int>(j));
      }
      for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) found.insert(bonds.neighbor[b]);
      ASSERT_EQ(found, expected) << "point " << i;
      EXPECT_TRUE(std::is_sorted(bonds.neighbor.begin() + bonds.begin(i),
                                 bonds.neighbor.begin() + bonds.end(i)));
    }
  }
}

TEST(NeighborSearch, EveryBondIsStoredFromBothEndsWithTheSameLengthAndWeight) {
  const double h = 1e-3;
  const auto lattice = lattice_of<2>(ball(2, Vec3(0.003, 0.004, 0), 7.5 * h), h);
  const BondFamilies bonds = families(lattice, 3.015 * h, PartialVolumeRule::Hhb);
  for (int i = 0; i < bonds.point_count(); ++i)
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
      const int j = bonds.neighbor[b];
      const auto first = bonds.neighbor.begin() + bonds.begin(j);
      const auto last = bonds.neighbor.begin() + bonds.end(j);
      const auto back = std::lower_bound(first, last, i);
      ASSERT_TRUE(back != last && *back == i);
      const std::int64_t q = back - bonds.neighbor.begin();
      EXPECT_DOUBLE_EQ(bonds.reference_length[q], bonds.reference_length[b]);
      EXPECT_DOUBLE_EQ(bonds.neighbor_volume(q), bonds.neighbor_volume(b));
    }
}

TEST(NeighborSearch, PointsOfOtherBodiesAndUnbondedPointsGetNoBonds) {
  const double h = 1e-3;
  SimulationSpec spec = pd_spec(2, h);
  const int m = add_material(spec, pd_material("m", MaterialModel::Pmb, 1000, 1e9, 1.0 / 3.0));
  add_body(spec, "a", m, box(2, Vec3::Zero(), Vec3(5 * h, 5 * h, 0)));
  add_body(spec, "b", m, box(2, Vec3(5 * h, 0, 0), Vec3(10 * h, 5 * h, 0)));  // touching a
  const auto lattice = fill_bodies<2>(spec);
  std::vector<char> bonded(lattice.points.size(), 1);
  bonded[0] = 0;
  const BondFamilies bonds = families(lattice, 3.015 * h, PartialVolumeRule::Hhb, &bonded);
  EXPECT_EQ(bonds.end(0) - bonds.begin(0), 0);
  for (int i = 0; i < bonds.point_count(); ++i)
    for (std::int64_t b = bonds.begin(i); b < bonds.end(i); ++b) {
      EXPECT_EQ(lattice.points.body[bonds.neighbor[b]], lattice.points.body[i]);
      EXPECT_NE(bonds.neighbor[b], 0);
    }
}

TEST(PartialVolume, FractionIsOneInsideFallsLinearlyAndIsHalfAtTheHorizon) {
  const double h = 1.0, delta = 3.0;
  EXPECT_DOUBLE_EQ(partial_volume_fraction(2.5, delta, h), 1.0);
  EXPECT_DOUBLE_EQ(partial_volume_fraction(2.75, delta, h), 0.75);
  EXPECT_DOUBLE_EQ(partial_volume_fraction(3.0, delta, h), 0.5);
  EXPECT_DOUBLE_EQ(partial_volume_fraction(3.5, delta, h), 0.0);
  EXPECT_DOUBLE_EQ(family_radius(PartialVolumeRule::Hhb, delta, h), 3.5);
  EXPECT_DOUBLE_EQ(family_radius(PartialVolumeRule::Pdlammps, delta, h), 3.0);
}

TEST(PartialVolume, AutomaticRuleIsPdlammpsIn2dAndHhbIn3d) {
  EXPECT_EQ(partial_volume_rule<2>(PdSpec::PartialVolume::Automatic), PartialVolumeRule::Pdlammps);
  EXPECT_EQ(partial_volume_rule<3>(PdSpec::PartialVolume::Automatic), PartialVolumeRule::Hhb);
  EXPECT_EQ(partial_volume_rule<2>(PdSpec::PartialVolume::Hhb), PartialVolumeRule::Hhb);
  EXPECT_EQ(partial_volume_rule<3>(PdSpec::PartialVolume::Pdlammps), PartialVolumeRule::Pdlammps);
}

}  // namespace
}  // namespace tribo::pd
