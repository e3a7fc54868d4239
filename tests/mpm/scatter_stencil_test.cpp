// The closed-form stencil of the particle-to-grid loops against the general one of stencil.hpp.
// Reference: Stencil<Dim, Shape> (GimpShape::value/derivative evaluated node by node, the
// uGIMP formulas of Bardenhagen & Kober 2004). Tolerance 1e-14 on weights (order one) and 1e-12/h
// on gradients: both evaluate the same polynomials in a different order, so only round-off differs.
#include "tribo/mpm/scatter_stencil.hpp"
#include "tribo/mpm/node_fields.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>

namespace tribo::mpm {
namespace {

template <int Dim, class Shape>
void expect_same_stencils(double half_width) {
  Vec<Dim> cell = Vec<Dim>::Constant(0.05);
  cell[0] = 0.04;  // rectangular cells, the node counts made for them (a cell changed after the
                   // construction left 23 nodes a row, and stencils past x = 0.78 wrapped a row)
  const Grid<Dim> grid(Vec<Dim>::Constant(-0.1), Vec<Dim>::Constant(1.0), cell);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> inside(0.05, 0.8);
  for (int trial = 0; trial < 2000; ++trial) {
    Vec<Dim> x;
    for (int d = 0; d < Dim; ++d) x[d] = inside(random);
    if (trial < 8) {
      // The branch points of uGIMP: the particle at lp, 1/2 and 1 - lp cells from a node.
      const double offsets[] = {half_width, -half_width, 0.5, -0.5, 1.0 - half_width, 0.0, 1.0, 0.25};
      x[0] = grid.origin[0] + (10 + offsets[trial]) * grid.cell[0];
    }
    Stencil<Dim, Shape> reference;
    ScatterStencil<Dim, Shape> fast;
    reference.compute(grid, x, half_width);
    fast.compute(grid, x, half_width);
    double weight_sum = 0.0;
    for (int n = 0; n < reference.size; ++n) {
      ASSERT_EQ(reference.node[n], fast.node[n]) << "trial " << trial << " node " << n;
      EXPECT_NEAR(reference.weight[n], fast.weight[n], 1e-14);
      for (int d = 0; d < Dim; ++d) EXPECT_NEAR(reference.gradient[n][d], fast.gradient[n][d], 1e-12 / grid.cell[d]);
      weight_sum += fast.weight[n];
    }
    EXPECT_NEAR(weight_sum, 1.0, 1e-14);  // partition of unity
  }
}

TEST(ScatterStencil, GimpMatchesTheGeneralStencilIn2DAtTwoParticlesPerCell) {
  expect_same_stencils<2, GimpShape>(0.25);
}
TEST(ScatterStencil, GimpMatchesTheGeneralStencilIn3DAtThreeParticlesPerCell) {
  expect_same_stencils<3, GimpShape>(1.0 / 6.0);
}
TEST(ScatterStencil, GimpMatchesTheGeneralStencilAtOneParticlePerCell) {
  expect_same_stencils<2, GimpShape>(0.5);
}
TEST(ScatterStencil, LinearShapesMatchTheGeneralStencil) {
  expect_same_stencils<2, LinearShape>(0.25);
  expect_same_stencils<3, LinearShape>(0.25);
}
TEST(ScatterStencil, QuadraticBSplinesMatchTheGeneralStencil) {
  expect_same_stencils<2, BSpline2Shape>(0.25);
  expect_same_stencils<3, BSpline2Shape>(0.25);
}


// The bound behind the clear of the contact arrays (mpm_simulation.cpp, contact_pass_reach()):
// every node of a stencil lies within Shape::support - 1 layers of the last axis of any node of
// it. A bound one layer short fails here (the stencil spans `support` layers); exact, no tolerance.
template <int Dim, class Shape>
void expect_stencils_within_their_layers(double half_width) {
  Vec<Dim> cell = Vec<Dim>::Constant(0.05);
  cell[0] = 0.04;
  const Grid<Dim> grid(Vec<Dim>::Constant(-0.1), Vec<Dim>::Constant(1.0), cell);
  const long layers = grid.nodes[Dim - 1], layer = grid.node_count() / layers;
  const NodeRange all{0, grid.node_count()};
  std::mt19937 random(11);
  std::uniform_real_distribution<double> inside(0.05, 0.8);
  long widest = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Vec<Dim> x;
    for (int d = 0; d < Dim; ++d) x[d] = inside(random);
    ScatterStencil<Dim, Shape> s;
    s.compute(grid, x, half_width);
    for (int k = 0; k < s.size; ++k) {
      const NodeRange reach = layers_around(s.node[k], s.node[k], layer, layers, Shape::support - 1, all);
      for (int j = 0; j < s.size; ++j) {
        ASSERT_GE(s.node[j], reach.begin) << "trial " << trial << " node " << k;
        ASSERT_LT(s.node[j], reach.end) << "trial " << trial << " node " << k;
        widest = std::max(widest, std::abs(s.node[j] / layer - s.node[k] / layer));
      }
    }
  }
  EXPECT_EQ(widest, Shape::support - 1);  // the bound is reached: it is not loose either
}

TEST(ScatterStencil, EveryNodeOfAStencilLiesWithinSupportLayersOfEachOther) {
  expect_stencils_within_their_layers<2, GimpShape>(0.25);
  expect_stencils_within_their_layers<2, GimpShape>(0.5);
  expect_stencils_within_their_layers<3, GimpShape>(1.0 / 6.0);
  expect_stencils_within_their_layers<2, LinearShape>(0.25);
  expect_stencils_within_their_layers<3, BSpline2Shape>(0.25);
}

TEST(NodeRange, LayersAroundClipsToTheGridAndTheRangeGiven) {
  // 10 layers of 7 nodes: nodes 15..30 are in layers 2..4; two layers either side: 0..6.
  EXPECT_EQ(layers_around(15, 30, 7, 10, 2, NodeRange{0, 70}).begin, 0);
  EXPECT_EQ(layers_around(15, 30, 7, 10, 2, NodeRange{0, 70}).end, 49);
  EXPECT_EQ(layers_around(63, 69, 7, 10, 2, NodeRange{0, 70}).begin, 49);  // layer 9, the last
  EXPECT_EQ(layers_around(63, 69, 7, 10, 2, NodeRange{0, 70}).end, 70);
  EXPECT_EQ(layers_around(15, 30, 7, 10, 1, NodeRange{20, 30}).begin, 20);
  EXPECT_EQ(layers_around(15, 30, 7, 10, 1, NodeRange{20, 30}).end, 30);
}

}  // namespace
}  // namespace tribo::mpm
