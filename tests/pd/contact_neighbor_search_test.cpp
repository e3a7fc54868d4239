// The PD contact neighbour list (contact_neighbor_search.hpp): which pairs it lists, against a
// brute-force search, and when it asks to be rebuilt (half the skin, the Verlet-list criterion).
#include "tribo/pd/contact_neighbor_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>

namespace tribo::pd {
namespace {

using PairSet = std::set<std::pair<int, int>>;

PairSet listed(const ContactPairList& pairs) {
  PairSet s;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    EXPECT_LT(pairs.first[k], pairs.second[k]);  // each pair once, from its lower index
    s.insert({pairs.first[k], pairs.second[k]});
  }
  EXPECT_EQ(s.size(), pairs.size()) << "a pair is listed twice";
  return s;
}

TEST(ContactNeighborList, ListsEveryPairOfDifferentBodiesWithinTheSearchRadiusAsBruteForceDoes) {
  // 400 random points in three bodies (one rigid): the cell list must find exactly the pairs a
  // double loop finds, except rigid-rigid pairs and same-body pairs of unbreakable bodies.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec2> x(400);
  std::vector<int> body(400);
  for (int i = 0; i < 400; ++i) {
    x[i] = Vec2(u(rng), 0.5 * u(rng));
    body[i] = i % 3;
  }
  ContactEligibility e{{0, 0, 1}, {0, 0, 0}};
  BondFamilies no_bonds;
  ContactNeighborList<2> list(0.04, 0.02);
  list.build(x, body, e, no_bonds);
  PairSet expected;
  for (int i = 0; i < 400; ++i)
    for (int j = i + 1; j < 400; ++j)
      if (body[i] != body[j] && (x[i] - x[j]).norm() <= 0.06) expected.insert({i, j});
  EXPECT_EQ(listed(list.pairs()), expected);
  EXPECT_GT(expected.size(), 100u);
}

TEST(ContactNeighborList, PairsOfOneBreakableBodyCarryTheirBondAndUnbreakableOnesAreSkipped) {
  // Three points in a row, h = 1, bonded 0-1 and 1-2 (not 0-2); search radius 1.5 h.
  std::vector<Vec2> x = {Vec2(0, 0), Vec2(1, 0), Vec2(2, 0)};
  std::vector<int> body = {0, 0, 0};
  BondFamilies bonds;
  bonds.offset = {0, 1, 3, 4};
  bonds.neighbor = {1, 0, 2, 1};
  bonds.reference_length = {1, 1, 1, 1};
  bonds.point_volume = {1, 1, 1};
  bonds.horizon = 3.0;
  bonds.spacing = 1.0;
  ContactNeighborList<2> breakable(1.0, 0.5);
  breakable.build(x, body, ContactEligibility{{0}, {1}}, bonds);
  const ContactPairList& p = breakable.pairs();
  ASSERT_EQ(p.size(), 2u);  // 0-1 and 1-2; 0-2 is 2 h apart
  EXPECT_EQ(p.bond[0], 0);  // bond 0 -> 1 in point 0's family
  EXPECT_EQ(p.bond[1], 2);  // bond 1 -> 2 in point 1's family
  ContactNeighborList<2> unbreakable(1.0, 0.5);
  unbreakable.build(x, body, ContactEligibility{{0}, {0}}, bonds);
  EXPECT_EQ(unbreakable.pairs().size(), 0u);
}

TEST(ContactNeighborList, AsksForARebuildOnlyOnceAPointHasMovedMoreThanHalfTheSkin) {
  std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(0.1, 0, 0)};
  std::vector<int> body = {0, 1};
  ContactNeighborList<3> list(0.05, 0.02);
  EXPECT_TRUE(list.needs_rebuild(x));  // never built
  list.build(x, body, ContactEligibility{{0, 0}, {0, 0}}, BondFamilies{});
  EXPECT_EQ(list.pairs().size(), 0u);  // 0.1 > 0.07
  x[1].y() += 0.0099;
  EXPECT_FALSE(list.needs_rebuild(x));
  x[1].y() += 0.0002;  // 0.0101 > skin / 2
  EXPECT_TRUE(list.needs_rebuild(x));
  EXPECT_EQ(list.build_count(), 1);
}

TEST(ContactNeighborList, FarFlungPointsDoNotBlowUpTheGrid) {
  // Two points 1 km apart with a 1 mm radius: the grid is coarsened to a few cells per point
  // (O(N) memory), and the close pair next to one of them is still found.
  std::vector<Vec2> x = {Vec2(0, 0), Vec2(1000, 1000), Vec2(0.0005, 0)};
  std::vector<int> body = {0, 1, 1};
  ContactNeighborList<2> list(0.001, 0.0005);
  list.build(x, body, ContactEligibility{{0, 0}, {0, 0}}, BondFamilies{});
  ASSERT_EQ(list.pairs().size(), 1u);
  EXPECT_EQ(list.pairs().second[0], 2);
}

}  // namespace
}  // namespace tribo::pd
