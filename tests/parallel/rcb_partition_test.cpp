// Recursive coordinate bisection on one process (the same code that runs distributed, with every
// count local): the boxes tile the domain, each point's owner is the box that holds it, and the
// parts are balanced to within one lattice column, the best a cut that never splits a column of
// equal coordinates can do.
#include "tribo/parallel/rcb_partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

namespace tribo::parallel {
namespace {

std::vector<Vec<2>> lattice_2d(int nx, int ny, double h, Vec<2> origin) {
  std::vector<Vec<2>> points;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) points.push_back(origin + Vec<2>((i + 0.5) * h, (j + 0.5) * h));
  return points;
}

template <int Dim>
std::vector<long long> counts_per_part(const RcbPartition<Dim>& partition, const std::vector<Vec<Dim>>& points) {
  std::vector<long long> counts(static_cast<std::size_t>(partition.parts()), 0);
  for (const auto& x : points) ++counts[static_cast<std::size_t>(partition.owner(x))];
  return counts;
}

template <int Dim>
bool inside(const Box<Dim>& box, const Vec<Dim>& x) {
  for (int d = 0; d < Dim; ++d)
    if (x[d] < box.lower[d] || !(x[d] < box.upper[d])) return false;
  return true;
}

TEST(RcbPartition, OnePartIsTheWholeDomain) {
  const auto points = lattice_2d(10, 4, 0.1, Vec<2>::Zero());
  const Box<2> domain{Vec<2>(0, 0), Vec<2>(1, 0.4)};
  const auto partition = RcbPartition<2>::build(points, 1, domain, Communicator::single());
  ASSERT_EQ(partition.parts(), 1);
  EXPECT_EQ(partition.box(0).lower, domain.lower);
  EXPECT_EQ(partition.box(0).upper, domain.upper);
  for (const auto& x : points) EXPECT_EQ(partition.owner(x), 0);
}

// A 60 x 20 lattice: cuts go across the long side first. With 2, 3, 4, 5 and 7 parts every part
// holds N/P points to within one column of 20 (or one row of the sub-box when it is cut the
// other way): |count - N/P| <= 20.
TEST(RcbPartition, BalancesALatticeToWithinOneColumn) {
  const double h = 0.01;
  const auto points = lattice_2d(60, 20, h, Vec<2>(0.1, 0.2));
  const Box<2> domain{Vec<2>(0, 0), Vec<2>(1, 1)};
  for (int parts : {2, 3, 4, 5, 7}) {
    const auto partition = RcbPartition<2>::build(points, parts, domain, Communicator::single());
    const auto counts = counts_per_part(partition, points);
    const double share = static_cast<double>(points.size()) / parts;
    for (long long c : counts) EXPECT_LE(std::abs(c - share), 20.0) << parts << " parts";
    long long total = 0;
    for (long long c : counts) total += c;
    EXPECT_EQ(total, static_cast<long long>(points.size()));
  }
}

// The boxes tile the domain: their areas add up to the domain's, and each point (and random
// positions anywhere in the domain) lies in exactly one box, the one owner() names.
TEST(RcbPartition, BoxesTileTheDomainAndOwnerIsTheBoxThatHoldsThePoint) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec<2>> points;
  for (int i = 0; i < 3000; ++i) points.emplace_back(0.3 + 0.5 * u(random) * u(random), 0.1 + 0.8 * u(random));
  const Box<2> domain{Vec<2>(0, 0), Vec<2>(1, 1)};
  const auto partition = RcbPartition<2>::build(points, 6, domain, Communicator::single());
  double area = 0;
  for (int p = 0; p < partition.parts(); ++p) {
    const auto& b = partition.box(p);
    area += (b.upper - b.lower).prod();
  }
  EXPECT_NEAR(area, 1.0, 1e-12);  // round-off of the cut positions only
  for (int k = 0; k < 2000; ++k) {
    const Vec<2> x(u(random), u(random));
    int holders = 0;
    for (int p = 0; p < partition.parts(); ++p) holders += inside(partition.box(p), x) ? 1 : 0;
    EXPECT_EQ(holders, 1);
    EXPECT_TRUE(inside(partition.box(partition.owner(x)), x));
  }
  // Random (untied) coordinates: the balance is exact to the rounding of N/P.
  const auto counts = counts_per_part(partition, points);
  for (long long c : counts) EXPECT_LE(std::abs(c - 500.0), 1.0);
}

// A 3D block of 12 x 12 x 32 points: 4 parts cut along z (the long axis, at both levels) into
// slabs of 8 whole layers of 144 points; each holds 1152 points, the exact share.
TEST(RcbPartition, CutsA3DBlockAlongItsLongAxisBetweenLayers) {
  std::vector<Vec<3>> points;
  for (int k = 0; k < 32; ++k)
    for (int j = 0; j < 12; ++j)
      for (int i = 0; i < 12; ++i) points.emplace_back((i + 0.5) * 0.1, (j + 0.5) * 0.1, (k + 0.5) * 0.1);
  const Box<3> domain{Vec<3>(-1, -1, -1), Vec<3>(2, 2, 4)};
  const auto partition = RcbPartition<3>::build(points, 4, domain, Communicator::single());
  for (long long c : counts_per_part(partition, points)) EXPECT_EQ(c, 1152);
  // Cuts lie in the middle of the gaps between layers (z = 0.8, 1.6, 2.4 +- round-off): a
  // point moving less than half a spacing keeps its owner.
  for (int p = 0; p < 4; ++p) {
    const auto& b = partition.box(p);
    EXPECT_DOUBLE_EQ(b.lower.x(), -1.0);
    EXPECT_DOUBLE_EQ(b.upper.y(), 2.0);
    if (p > 0) {
      EXPECT_NEAR(b.lower.z(), 0.8 * p, 1e-12);
    }
  }
}

TEST(RcbPartition, PointsOutsideTheDomainStillHaveOneOwnerAndDoNotMoveTheWalls) {
  auto points = lattice_2d(20, 10, 0.05, Vec<2>::Zero());
  points.emplace_back(-5.0, 0.2);
  points.emplace_back(7.0, 0.2);
  const Box<2> domain{Vec<2>(0, 0), Vec<2>(1, 0.5)};
  const auto partition = RcbPartition<2>::build(points, 3, domain, Communicator::single());
  for (int p = 0; p < 3; ++p) {
    EXPECT_GE(partition.box(p).lower.x(), 0.0);
    EXPECT_LE(partition.box(p).upper.x(), 1.0);
  }
  EXPECT_EQ(partition.owner(points[points.size() - 2]), partition.owner(Vec<2>(0.01, 0.2)));
  EXPECT_EQ(partition.owner(points.back()), partition.owner(Vec<2>(0.99, 0.2)));
}

TEST(RcbPartition, NoPointsHalvesTheDomain) {
  const std::vector<Vec<2>> none;
  const Box<2> domain{Vec<2>(0, 0), Vec<2>(2, 1)};
  const auto partition = RcbPartition<2>::build(none, 2, domain, Communicator::single());
  EXPECT_DOUBLE_EQ(partition.box(0).upper.x(), 1.0);
  EXPECT_DOUBLE_EQ(partition.box(1).lower.x(), 1.0);
}

}  // namespace
}  // namespace tribo::parallel

namespace tribo::parallel {
namespace {

// A checkpoint holds the decomposition as numbers: read back, it gives every point the same owner
// and the same boxes bit for bit; a list of the wrong length is refused.
TEST(RcbPartition, NumbersRoundTripGivesTheSameOwnersAndBoxes) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec<3>> points;
  for (int i = 0; i < 2000; ++i) points.emplace_back(u(random), 0.5 * u(random), 2.0 * u(random));
  const Box<3> domain{Vec<3>(0, 0, 0), Vec<3>(1, 0.5, 2)};
  const auto partition = RcbPartition<3>::build(points, 5, domain, Communicator::single());
  const std::vector<double> numbers = partition.to_numbers();
  const auto copy = RcbPartition<3>::from_numbers(numbers);
  ASSERT_EQ(copy.parts(), 5);
  for (int p = 0; p < 5; ++p) {
    EXPECT_EQ(copy.box(p).lower, partition.box(p).lower);
    EXPECT_EQ(copy.box(p).upper, partition.box(p).upper);
  }
  for (int k = 0; k < 5000; ++k) {
    const Vec<3> x(1.2 * u(random) - 0.1, 0.6 * u(random) - 0.05, 2.2 * u(random) - 0.1);
    EXPECT_EQ(copy.owner(x), partition.owner(x));
  }
  std::vector<double> short_list(numbers.begin(), numbers.end() - 1);
  EXPECT_THROW(RcbPartition<3>::from_numbers(short_list), std::runtime_error);
}

}  // namespace
}  // namespace tribo::parallel
