#pragma once
// Which crack velocity field each particle uses at each node of its stencil (NairnMPM's CRAMP;
// Nairn 2003, CMES 4:649; PHYSICS.md "MPM cracks"). A particle-node pair whose line crosses a
// crack uses another field at that node: [0] no crack crossed, [1] and [2] one crack crossed
// (one field per crack and side of the crossing particles seen at the node), [3] two cracks
// crossed. Each crack field holds the material fields of FieldLayout, so that the flat index of
// node n, crack field c and material field f is n * (C F) + c F + f (C = 4 with cracks, 1
// without; docs/mpm-cracks.md).
//
// Only particles in cells flagged near a crack are tested; every other particle keeps field [0]
// and the solver's loops see a null offset table for it. Deterministic whatever the number of
// threads: the fields [1], [2] of a node are ranked by (crack, side), an order-free OR of what the
// crossings at the node found, not by which particle came first.
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/mpm/crack_geometry.hpp"
#include "tribo/mpm/grid.hpp"
#include "tribo/mpm/scatter_stencil.hpp"

namespace tribo::mpm {

// A (crack, side) pair: 2 crack + side. At most kMaxCracks cracks (the node masks are 64 bits).
constexpr int kMaxCracks = 32;
constexpr int kCrackFields = 4;

inline int crack_combination(int crack, CrackSide side) { return 2 * crack + static_cast<int>(side); }

template <int Dim>
class CrackFields {
 public:
  void allocate(const Grid<Dim>& grid, std::size_t particles, int material_fields) {
    material_fields_ = material_fields;
    long cells = 1;
    for (int d = 0; d < Dim; ++d) cells *= grid.nodes[d] - 1;
    near_cell_.assign(cells, 0);
    node_mask_.assign(grid.node_count(), 0);
    entry_.assign(particles, -1);
  }

  // Cell flags, particle-node crossings and the fields they give, for the current positions.
  // Across processes the node masks must be those of every particle, not this process's only (a
  // shared node's fields are summed entry by entry, so every holder must rank its crack fields
  // alike): `complete_masks(node_mask)` is called between the crossings and the fields, and ORs
  // each shared node's mask with the other holders' (MpmSimulation::complete_crack_masks).
  template <class Shape, class CompleteMasks>
  void assign(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions, double half_width,
              const std::vector<Crack>& cracks, CompleteMasks&& complete_masks);
  template <class Shape>
  void assign(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions, double half_width,
              const std::vector<Crack>& cracks) {
    assign<Shape>(grid, positions, half_width, cracks, [](std::vector<std::uint64_t>&) {});
  }

  // Crack-field offsets (c F) of the stencil nodes of particle p, in stencil order; null when p
  // is far from every crack (all its nodes use field [0]).
  const int* offsets(long p) const {
    const int e = entry_[p];
    return e < 0 ? nullptr : offset_.data() + static_cast<long>(e) * stride_;
  }
  // The (crack, side) combinations seen at node n (bit 2 crack + side).
  std::uint64_t mask(long n) const { return node_mask_[n]; }
  // The combination of crack field 1 or 2 at node n (-1 when the field is not in use): fields [1]
  // and [2] take the lowest two combinations of the node's mask.
  int combination_of_field(long n, int field) const {
    std::uint64_t m = node_mask_[n];
    if (m == 0) return -1;
    if (field == 2) {
      m &= m - 1;  // drop the lowest
      if (m == 0) return -1;
    }
    return std::countr_zero(m);
  }
  // The crack field at node n that holds the particles of (crack, side) that crossed the crack
  // to reach it (1 or 2), or -1.
  int field_of_combination(long n, int combination) const {
    const std::uint64_t m = node_mask_[n];
    if (!(m >> combination & 1u)) return -1;
    return std::popcount(m & ((std::uint64_t{1} << combination) - 1)) == 0 ? 1 : 2;
  }
  long near_particles() const { return static_cast<long>(near_.size()); }
  bool node_sees_crack(long n) const { return node_mask_[n] != 0; }

 private:
  int material_fields_ = 1;
  int stride_ = 0;                        // stencil size of the last assign()
  std::vector<char> near_cell_;           // per cell: within reach of a crack
  std::vector<std::uint64_t> node_mask_;  // per node: (crack, side) combinations crossed to it
  std::vector<int> entry_;                // per particle: row of offset_, or -1
  std::vector<int> near_;                 // particles near a crack, increasing
  std::vector<int> code_;                 // per near particle and stencil node: crossings + 1, 8 bits each
  std::vector<int> offset_;               // per near particle and stencil node: c F
};

template <int Dim>
template <class Shape, class CompleteMasks>
void CrackFields<Dim>::assign(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& positions, double half_width,
                              const std::vector<Crack>& cracks, CompleteMasks&& complete_masks) {
  if (static_cast<int>(cracks.size()) > kMaxCracks)
    throw std::invalid_argument("at most 32 MPM cracks are supported");
  constexpr int S = stencil_size<Dim, Shape::support>();
  stride_ = S;
  IVec<Dim> cells_per_axis;
  for (int d = 0; d < Dim; ++d) cells_per_axis[d] = grid.nodes[d] - 1;
  const auto cell_index = [&](const IVec<Dim>& c) {
    long index = c[Dim - 1];
    for (int d = Dim - 2; d >= 0; --d) index = index * cells_per_axis[d] + c[d];
    return index;
  };

  // 1. Cells near a crack. A particle in cell c reaches nodes c - 1 .. c + 2 along each axis, so
  // its lines to them stay in cells c - 1 .. c + 1: flag the cells within 2 cells (one of margin)
  // of every crack segment's box.
  std::fill(near_cell_.begin(), near_cell_.end(), 0);
  constexpr int kReach = 2;
  for (const Crack& crack : cracks)
    for (int i = 0; i < crack.segments(); ++i) {
      IVec<Dim> lo, hi;
      for (int d = 0; d < Dim; ++d) {
        const double a = d < 2 ? crack.plane[i][d] : grid.node_coordinate(0, d);
        const double b = d < 2 ? crack.plane[i + 1][d] : grid.node_coordinate(grid.nodes[d] - 1, d);
        const double x0 = grid.coordinate(std::min(a, b), d);
        const double x1 = grid.coordinate(std::max(a, b), d);
        lo[d] = std::max(0, static_cast<int>(std::floor(x0)) - kReach);
        hi[d] = std::min(cells_per_axis[d] - 1, static_cast<int>(std::floor(x1)) + kReach);
      }
      if constexpr (Dim == 2) {
        for (int j = lo[1]; j <= hi[1]; ++j)
          for (int k = lo[0]; k <= hi[0]; ++k) near_cell_[cell_index(IVec<Dim>(k, j))] = 1;
      } else {
        for (int l = lo[2]; l <= hi[2]; ++l)
          for (int j = lo[1]; j <= hi[1]; ++j)
            for (int k = lo[0]; k <= hi[0]; ++k) near_cell_[cell_index(IVec<Dim>(k, j, l))] = 1;
      }
    }

  // 2. The particles in flagged cells, in index order.
  const long n = static_cast<long>(positions.size());
  if (static_cast<long>(entry_.size()) != n) entry_.assign(n, -1);
  near_.clear();
  for (long p = 0; p < n; ++p) {
    IVec<Dim> c;
    bool inside = true;
    for (int d = 0; d < Dim; ++d) {
      c[d] = static_cast<int>(std::floor(grid.coordinate(positions[p][d], d)));
      inside = inside && c[d] >= 0 && c[d] < cells_per_axis[d];
    }
    if (inside && near_cell_[cell_index(c)]) {
      entry_[p] = static_cast<int>(near_.size());
      near_.push_back(static_cast<int>(p));
    } else {
      entry_[p] = -1;
    }
  }

  // 3. Crossings of every near particle's lines to its stencil nodes, and the node masks (an OR:
  // the same whatever the order or the thread).
  const long near = static_cast<long>(near_.size());
  code_.resize(near * S);
  offset_.resize(near * S);
  std::fill(node_mask_.begin(), node_mask_.end(), 0);
  const int crack_count = static_cast<int>(cracks.size());
#pragma omp parallel for schedule(static)
  for (long e = 0; e < near; ++e) {
    const long p = near_[e];
    ScatterStencil<Dim, Shape> s;
    s.compute(grid, positions[p], half_width);
    const Vec2 x = positions[p].template head<2>();
    for (int k = 0; k < S; ++k) {
      const Vec2 node = grid.node_position(s.node[k]).template head<2>();
      int code = 0, found = 0;
      std::uint64_t bits = 0;
      for (int c = 0; c < crack_count && found < 2; ++c) {
        CrackSide side;
        if (!crosses_crack(cracks[c], x, node, side)) continue;
        const int combination = crack_combination(c, side);
        code |= (combination + 1) << (8 * found++);
        bits |= std::uint64_t{1} << combination;
      }
      code_[e * S + k] = code;
      if (bits != 0) {
#pragma omp atomic
        node_mask_[s.node[k]] |= bits;
      }
    }
  }

  complete_masks(node_mask_);

  // 4. Crossings to fields: none [0]; one crack, the rank of its combination among the node's
  // [1] or [2] (a third combination at a node shares [2]: more than two cracks at one node are
  // not resolved, as in NairnMPM); two cracks [3].
  const int F = material_fields_;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < near; ++e) {
    const long p = near_[e];
    ScatterStencil<Dim, Shape> s;
    s.compute(grid, positions[p], half_width);
    for (int k = 0; k < S; ++k) {
      const int code = code_[e * S + k];
      int field = 0;
      if (code >> 8) {
        field = 3;
      } else if (code) {
        field = field_of_combination(s.node[k], (code & 0xff) - 1);
      }
      offset_[e * S + k] = field * F;
    }
  }
}

}  // namespace tribo::mpm
