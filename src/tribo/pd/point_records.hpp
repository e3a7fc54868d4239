#pragma once
// What a PD point carries when it moves to another process or is copied to one (docs/parallel.md,
// "PD"): every array of Particles, its index in the deck's lattice (its identity on every
// process), the process that owns it after the move, and the solver's per-point state. The bonds
// travel as the list of the broken ones (point, neighbour) by lattice index: the families, their
// weights and lengths are rebuilt from the reference positions where the point arrives, as on one
// process, and then the broken ones are zeroed.
#include <cstdint>
#include <tuple>
#include <vector>

#include "tribo/core/named_arrays.hpp"
#include "tribo/core/particles.hpp"

namespace tribo::pd {

template <int Dim>
struct PointRecords {
  Particles<Dim> particles;
  std::vector<std::int64_t> global_id;
  std::vector<int> owner;
  std::vector<double> broken_volume;
  std::vector<double> lps_dilatation, lps_coefficient, lps_alpha;
  std::vector<double> slip;  // contact's slip history (0 without static friction)
  std::vector<Vec<Dim>> force;
  std::vector<Vec<Dim>> applied_force;

  // Every array, for the exchange (parallel/particle_exchange.hpp) and the checkpoints.
  template <class Self>
  static auto arrays(Self& self) {
    return std::tuple_cat(Particles<Dim>::arrays(self.particles),
                          std::tuple{NamedArray{"global_id", self.global_id},
                                     NamedArray{"owner", self.owner},
                                     NamedArray{"broken_volume", self.broken_volume},
                                     NamedArray{"lps_dilatation", self.lps_dilatation},
                                     NamedArray{"lps_coefficient", self.lps_coefficient},
                                     NamedArray{"lps_alpha", self.lps_alpha},
                                     NamedArray{"slip", self.slip},
                                     NamedArray{"force", self.force},
                                     NamedArray{"applied_force", self.applied_force}});
  }
  std::size_t size() const { return global_id.size(); }
};

}  // namespace tribo::pd
