#pragma once
// MPM across processes (docs/parallel.md): each process works on the part of the background grid
// that its particles can reach (its box of the decomposition grown by the stencil's reach and a
// skin for motion between rebalancings), as an ordinary Grid whose origin is offset; after
// particle-to-grid, the partial nodal sums on nodes that several processes hold are completed by a
// halo sum, so that node-local contact detection and laws see complete nodal values and run
// unchanged.
//
// The complete value of a shared node is added up in rank order on every process that holds it
// (zero, then the partial of each holder in ascending rank), so all holders get the same bits: a
// contact decision at a shared node is the same on every side, which keeps equal and opposite
// momentum changes equal and opposite across processes.
#include <cstddef>
#include <span>
#include <vector>

#include "tribo/mpm/grid.hpp"
#include "tribo/parallel/communicator.hpp"
#include "tribo/parallel/rcb_partition.hpp"

namespace tribo::mpm {

// A process's part of the global grid: `grid` is an ordinary Grid (node positions in global
// coordinates) whose node (0,...,0) is the global node `first`.
template <int Dim>
struct SubGrid {
  Grid<Dim> grid;
  IVec<Dim> first = IVec<Dim>::Zero();
};

// The nodes that particles inside `box` can reach: the cells the box cuts, plus `reach` cells on
// each side (the stencil's half-width in cells rounded up, plus the skin), clipped to the grid.
template <int Dim>
SubGrid<Dim> sub_grid_for_box(const Grid<Dim>& global, const parallel::Box<Dim>& box, int reach);

// One per-entry array of the node fields (entry node * fields + field) seen as doubles: `width`
// doubles per entry (1 for mass or volume, Dim for a vector).
struct HaloColumn {
  double* data;
  int width;
};
inline HaloColumn halo_column(std::vector<double>& values) { return {values.data(), 1}; }
template <int Dim>
HaloColumn halo_column(std::vector<Vec<Dim>>& values) {
  static_assert(sizeof(Vec<Dim>) == Dim * sizeof(double), "vectors must be packed doubles");
  return {values.empty() ? nullptr : values.front().data(), Dim};
}
template <int Dim>
HaloColumn halo_column(std::vector<Mat<Dim>>& values) {
  static_assert(sizeof(Mat<Dim>) == Dim * Dim * sizeof(double), "matrices must be packed doubles");
  return {values.empty() ? nullptr : values.front().data(), Dim * Dim};
}

// The halo of one process: for each other process whose sub-grid overlaps its own, the shared
// nodes (local indices, in increasing global index, so both sides list them in the same order).
template <int Dim>
class NodeHalo {
 public:
  // Collective: every process passes its own sub-grid.
  static NodeHalo build(const SubGrid<Dim>& mine, const parallel::Communicator& comm);

  // Ranks this process shares nodes with (ascending), and the shared nodes (local indices).
  const std::vector<int>& peers() const { return peers_; }
  const std::vector<long>& shared_nodes(std::size_t peer) const { return shared_[peer]; }

  // Completes the nodal sums of `fields` entries per node in every column, collective. Each shared
  // entry ends as the sum of every holder's partial, added in rank order (the same bits on every
  // holder). Entries of nodes no other process holds are left as they are.
  void sum(const parallel::Communicator& comm, int fields, std::span<const HaloColumn> columns) const;

  // Doubles this process sends per sum() for `fields` fields and `doubles_per_entry` doubles of
  // columns per entry (the bytes exchanged per step, for the scaling estimate).
  std::size_t doubles_sent(int fields, int doubles_per_entry) const;

 private:
  int rank_ = 0;
  std::vector<int> peers_;
  std::vector<std::vector<long>> shared_;  // per peer: local node indices, ascending global index
  std::vector<long> touched_;              // local nodes shared with at least one peer, ascending
  std::vector<std::vector<long>> slot_;    // per peer: index in touched_ of each shared node
};

}  // namespace tribo::mpm
