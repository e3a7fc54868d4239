// Per-particle arrays declared once (core/named_arrays.hpp): the list visits every array of
// Particles in declaration order, under its name, and hands all of them at once to an operation
// that must move them together (the sort's permutation).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tribo/core/named_arrays.hpp"
#include "tribo/core/particles.hpp"

namespace tribo {
namespace {

TEST(NamedArrays, ParticlesListsEveryArrayByNameInDeclarationOrder) {
  Particles<2> p;
  std::vector<std::string> names;
  for_each_array(Particles<2>::arrays(p), [&](std::string_view name, auto&) { names.emplace_back(name); });
  EXPECT_EQ(names, (std::vector<std::string>{"position", "reference_position", "velocity", "mass", "volume",
                                             "reference_volume", "body", "material", "stress", "damage"}));
}

TEST(NamedArrays, ReserveAndPushBackReachEveryArray) {
  Particles<3> p;
  p.reserve(7);
  p.push_back(Vec3(1, 2, 3), Vec3(0, 0, 1), 2.0, 0.5, 1, 0);
  for_each_array(Particles<3>::arrays(p), [&](std::string_view name, const auto& values) {
    EXPECT_GE(values.capacity(), 7u) << name;
    EXPECT_EQ(values.size(), 1u) << name;
  });
}

TEST(NamedArrays, ApplyHandsEveryArrayToOneCall) {
  std::vector<int> a{1, 2};
  std::vector<double> b{0.5};
  const auto list = std::tuple{NamedArray{"a", a}, NamedArray{"b", b}};
  const std::size_t total = apply_to_arrays(list, [](auto&... arrays) { return (arrays.size() + ...); });
  EXPECT_EQ(total, 3u);
  apply_to_arrays(list, [](auto&... arrays) { (arrays.push_back(9), ...); });
  EXPECT_EQ(a.back(), 9);
  EXPECT_EQ(b.back(), 9.0);
}

}  // namespace
}  // namespace tribo
