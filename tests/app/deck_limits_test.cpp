// The counts behind `tribo check`'s limits and memory estimate (io/deck_limits.cpp) repeat the
// solvers' fill rules without linking them: for every example and good deck, the particles (MPM)
// or lattice points (PD) that estimate_resources counts, body by body, are exactly those the solver
// makes (tolerance: none; the count decides whether a body is "empty", and a drift between the two
// rules, say a new shape in one of them, must fail here). Large bodies are sampled: checked against
// the disk's area in sub-cells (1%: the sampled centres are a regular subset, so the error is the
// boundary's share, (perimeter / sub-cell) / (area / sub-cell^2) / stride ~ 0.3% here).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "tribo/io/deck_limits.hpp"
#include "tribo/io/deck_reader.hpp"
#include "tribo/mpm/mpm_simulation.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = TRIBO_SOURCE_DIR;

template <int Dim>
std::vector<long> solver_counts(const SimulationSpec& spec) {
  const auto sim = spec.method == Method::Mpm ? mpm::make_simulation<Dim>(spec) : pd::make_simulation<Dim>(spec);
  std::vector<long> counts(spec.bodies.size(), 0);
  for (int body : sim->particles().body) ++counts[body];
  return counts;
}

std::vector<fs::path> decks() {
  std::vector<fs::path> out;
  for (const fs::path& folder : {kSource / "examples", kSource / "tests/decks/good"})
    for (const fs::directory_entry& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".yaml") out.push_back(entry.path());
  return out;
}

TEST(DeckLimits, CountsAreTheSolversOwnForEveryExampleAndGoodDeck) {
  int checked = 0;
  for (const fs::path& deck : decks()) {
    SCOPED_TRACE(deck.string());
    const SimulationSpec spec = io::read_deck(deck);
    const io::ResourceEstimate e = io::estimate_resources(spec);
    const std::vector<long> actual = spec.dimension == 2 ? solver_counts<2>(spec) : solver_counts<3>(spec);
    ASSERT_EQ(e.body_particles.size(), actual.size());
    for (std::size_t b = 0; b < actual.size(); ++b) {
      ASSERT_TRUE(e.body_exact[b]) << "body " << b << " was sampled; these decks are small";
      EXPECT_EQ(e.body_particles[b], static_cast<double>(actual[b])) << "body " << spec.bodies[b].name;
    }
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST(DeckLimits, SampledCountOfALargeDiskMatchesItsArea) {
  SimulationSpec spec = io::read_deck(kSource / "examples/oblique-disks.yaml");
  spec.mpm.cell = Vec3(2.5e-5, 2.5e-5, 2.5e-5);  // 1.6e7 candidate sub-cells per disk: sampled
  const io::ResourceEstimate e = io::estimate_resources(spec);
  const double sub = 2.5e-5 / spec.mpm.particles_per_cell;
  const double area = M_PI * 0.025 * 0.025 / (sub * sub);
  for (std::size_t b = 0; b < 2; ++b) {
    EXPECT_FALSE(e.body_exact[b]);
    EXPECT_NEAR(e.body_particles[b], area, 0.01 * area);
  }
}

TEST(DeckLimits, MemoryLimitFromTheEnvironment) {
  ::setenv("TRIBO_MEMORY_LIMIT", "2G", 1);
  std::string source;
  EXPECT_EQ(io::available_memory(&source), 2.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(source, "TRIBO_MEMORY_LIMIT");
  ::setenv("TRIBO_MEMORY_LIMIT", "1500", 1);
  EXPECT_EQ(io::available_memory(), 1500.0);
  ::unsetenv("TRIBO_MEMORY_LIMIT");
}

}  // namespace
}  // namespace tribo
