#pragma once
// What a deck will cost before it runs (docs/reliability.md, "Limits checked by tribo check"):
// particles (MPM) or lattice points (PD) per body, grid nodes, PD bonds, and the memory the run
// will need, from per-item byte counts measured with /usr/bin/time -v. The reader refuses a deck
// whose body holds no particle, or whose estimate exceeds the machine's available memory, at the
// key that sets the resolution, in well under a second (large bodies are sampled, not filled).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tribo/core/simulation_spec.hpp"
#include "tribo/io/deck_node.hpp"

namespace tribo::io {

struct ResourceEstimate {
  std::vector<double> body_particles;  // per body, deck order (MPM particles or PD points)
  std::vector<bool> body_exact;        // whether that count is exact (else sampled)
  double particles = 0.0;
  double grid_nodes = 0.0;             // MPM
  double bonds = 0.0;                  // PD: deformable points x min(interior family, body points - 1)
  double bytes_per_particle = 0.0;
  double bytes_per_node = 0.0;
  double bytes_per_bond = 0.0;
  double base_bytes = 0.0;
  double bytes() const {
    return base_bytes + particles * bytes_per_particle + grid_nodes * bytes_per_node + bonds * bytes_per_bond;
  }
  // "about 1.2 GiB: 62856 particles x 1180 B + 64561 nodes x 515 B + 8 MiB"
  std::string describe() const;
};

// Counts and bytes for a deck already read (spec valid).
ResourceEstimate estimate_resources(const SimulationSpec& spec);

// The memory a run may use, bytes: TRIBO_MEMORY_LIMIT (bytes, or with a K, M, G or T suffix,
// powers of 1024) when set, else MemAvailable of /proc/meminfo; empty when neither is known.
// `source` says which.
std::optional<double> available_memory(std::string* source = nullptr);

// "1.50 GiB", "12.0 MiB".
std::string format_bytes(double bytes);

namespace deck {
// The checks that need the whole deck read (deck_reader.cpp calls it last): material wave speeds
// that overflow (dt would be 0), a run that would end before its first step or take more than
// 1e12 steps, output and checkpoint intervals that would write more than a million times, more
// than 32 MPM cracks, a body that holds no particle, and the memory estimate against the machine.
// Each error is at the key to change.
void check_limits(const DeckNode& root, const SimulationSpec& spec);
}  // namespace deck

}  // namespace tribo::io
