#pragma once
// Ghost particles (PD points) across processes (docs/parallel.md): each process keeps, after its
// own points, copies of the other processes' points that lie within `width` of its box (PD:
// horizon + contact radius + a skin), so that bond forces, the contact search and friction of its
// own points see every neighbour. The copies are refreshed every step through the same lists
// (positions, velocities, whatever the solver's list holds); the lists themselves are rebuilt when
// the decomposition is.
//
// Arrivals are appended in ascending rank of the sender, each in its sender's order, so the ghost
// indices are the same on every run with the same process count (bitwise repeatable runs).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "tribo/parallel/communicator.hpp"
#include "tribo/parallel/particle_exchange.hpp"
#include "tribo/parallel/rcb_partition.hpp"

namespace tribo::parallel {

// Distance from x to the box (0 inside).
template <int Dim>
double distance_to_box(const Vec<Dim>& x, const Box<Dim>& box) {
  double squared = 0.0;
  for (int d = 0; d < Dim; ++d) {
    const double outside = std::max({box.lower[d] - x[d], 0.0, x[d] - box.upper[d]});
    squared += outside * outside;
  }
  return std::sqrt(squared);
}

// Distance between two boxes (0 when they touch or overlap).
template <int Dim>
double distance_between_boxes(const Box<Dim>& a, const Box<Dim>& b) {
  double squared = 0.0;
  for (int d = 0; d < Dim; ++d) {
    const double gap = std::max({a.lower[d] - b.upper[d], 0.0, b.lower[d] - a.upper[d]});
    squared += gap * gap;
  }
  return std::sqrt(squared);
}

template <int Dim>
class GhostExchange {
 public:
  // Which of this process's points (positions of the owned points) each neighbouring process needs:
  // those within `width` of its box. Neighbours are the processes whose box is within `width` of
  // this one's (a symmetric relation, so both sides exchange, possibly nothing).
  static GhostExchange build(std::span<const Vec<Dim>> owned_positions, const RcbPartition<Dim>& partition,
                             double width, const Communicator& comm) {
    GhostExchange g;
    const Box<Dim>& mine = partition.box(comm.rank());
    for (int r = 0; r < partition.parts(); ++r) {
      if (r == comm.rank() || distance_between_boxes(mine, partition.box(r)) > width) continue;
      std::vector<std::size_t> needed;
      for (std::size_t i = 0; i < owned_positions.size(); ++i)
        if (distance_to_box(owned_positions[i], partition.box(r)) <= width) needed.push_back(i);
      g.peers_.push_back(r);
      g.send_.push_back(std::move(needed));
    }
    return g;
  }

  // Truncates every array of the list to `owned` entries, then appends the ghosts sent by the
  // neighbours (ascending rank). Collective among neighbours. Returns the number of ghosts.
  template <class List>
  std::size_t refresh(List&& list, std::size_t owned, const Communicator& comm) const {
    const auto received = send_and_receive(list, comm);
    for_each_array(list, [owned](std::string_view, auto& values) { values.resize(owned); });
    std::size_t ghosts = 0;
    for (const auto& message : received) ghosts += unpack_particles(list, message);
    return ghosts;
  }

  // The ghosts alone: the neighbours' entries of `owned_list` (this process's arrays, left as
  // they are) replace the contents of `ghost_list`, a list of the same types. Collective among
  // neighbours. Returns the number of ghosts.
  template <class OwnedList, class GhostList>
  std::size_t gather(OwnedList&& owned_list, GhostList&& ghost_list, const Communicator& comm) const {
    const auto received = send_and_receive(owned_list, comm);
    for_each_array(ghost_list, [](std::string_view, auto& values) { values.clear(); });
    std::size_t ghosts = 0;
    for (const auto& message : received) ghosts += unpack_particles(ghost_list, message);
    return ghosts;
  }

  const std::vector<int>& peers() const { return peers_; }
  // Entries sent per refresh (the exchange volume per step, for the scaling estimate).
  std::size_t points_sent() const {
    std::size_t n = 0;
    for (const auto& s : send_) n += s.size();
    return n;
  }

 private:
  // Each neighbour's entries of the list sent to it, and what every neighbour sent here.
  template <class List>
  std::vector<std::vector<std::byte>> send_and_receive(List&& list, const Communicator& comm) const {
    std::vector<std::vector<std::byte>> send(peers_.size());
    for (std::size_t k = 0; k < peers_.size(); ++k) pack_particles(list, send_[k], send[k]);
    return comm.exchange(peers_, send);
  }

  std::vector<int> peers_;                     // ascending
  std::vector<std::vector<std::size_t>> send_;  // per peer: owned indices it needs
};

}  // namespace tribo::parallel
