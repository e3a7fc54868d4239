#include "tribo/mpm/node_halo.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tribo::mpm {

template <int Dim>
SubGrid<Dim> sub_grid_for_box(const Grid<Dim>& global, const parallel::Box<Dim>& box, int reach) {
  SubGrid<Dim> sub;
  IVec<Dim> last;
  for (int d = 0; d < Dim; ++d) {
    // Cells [floor, ceil) cut by the box, widened by `reach`; nodes are the cells' corners.
    const double lo = (box.lower[d] - global.origin[d]) / global.cell[d];
    const double hi = (box.upper[d] - global.origin[d]) / global.cell[d];
    const long first = static_cast<long>(std::floor(std::max(lo, -1.0e9))) - reach;
    const long end = static_cast<long>(std::ceil(std::min(hi, 1.0e9))) + reach;
    sub.first[d] = static_cast<int>(std::clamp<long>(first, 0, global.nodes[d] - 1));
    last[d] = static_cast<int>(std::clamp<long>(end, 0, global.nodes[d] - 1));
  }
  sub.grid.cell = global.cell;
  sub.grid.origin = global.origin + global.cell.cwiseProduct(sub.first.template cast<double>());
  sub.grid.global_origin = global.global_origin;
  sub.grid.first = global.first + sub.first;
  sub.grid.nodes = last - sub.first + IVec<Dim>::Ones();
  return sub;
}

template <int Dim>
NodeHalo<Dim> NodeHalo<Dim>::build(const SubGrid<Dim>& mine, const parallel::Communicator& comm) {
  NodeHalo halo;
  halo.rank_ = comm.rank();
  const int size = comm.size();
  // Every process's sub-grid (first node and node counts), gathered by a sum of slots.
  std::vector<long long> extents(static_cast<std::size_t>(size) * 2 * Dim, 0);
  for (int d = 0; d < Dim; ++d) {
    extents[static_cast<std::size_t>(comm.rank()) * 2 * Dim + d] = mine.first[d];
    extents[static_cast<std::size_t>(comm.rank()) * 2 * Dim + Dim + d] = mine.grid.nodes[d];
  }
  comm.sum_in_place(std::span<long long>(extents));

  std::vector<long> touched;
  for (int r = 0; r < size; ++r) {
    if (r == comm.rank()) continue;
    IVec<Dim> lo, hi;  // overlap in global node indices, [lo, hi]
    bool empty = false;
    for (int d = 0; d < Dim; ++d) {
      const long long other_first = extents[static_cast<std::size_t>(r) * 2 * Dim + d];
      const long long other_last = other_first + extents[static_cast<std::size_t>(r) * 2 * Dim + Dim + d] - 1;
      lo[d] = static_cast<int>(std::max<long long>(mine.first[d], other_first));
      hi[d] = static_cast<int>(std::min<long long>(mine.first[d] + mine.grid.nodes[d] - 1, other_last));
      empty = empty || lo[d] > hi[d];
    }
    if (empty) continue;
    std::vector<long> nodes;
    // Ascending global index: the last axis is the slowest (Grid::node_index), so it is the outer
    // loop; walk the box with an odometer over the axes.
    IVec<Dim> g = lo;
    while (true) {
      nodes.push_back(mine.grid.node_index(g - mine.first));
      int d = 0;
      while (d < Dim && ++g[d] > hi[d]) {
        g[d] = lo[d];
        ++d;
      }
      if (d == Dim) break;
    }
    touched.insert(touched.end(), nodes.begin(), nodes.end());
    halo.peers_.push_back(r);
    halo.shared_.push_back(std::move(nodes));
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  halo.touched_ = std::move(touched);
  for (const auto& nodes : halo.shared_) {
    std::vector<long> slots(nodes.size());
    for (std::size_t j = 0; j < nodes.size(); ++j)
      slots[j] = std::lower_bound(halo.touched_.begin(), halo.touched_.end(), nodes[j]) - halo.touched_.begin();
    halo.slot_.push_back(std::move(slots));
  }
  return halo;
}

template <int Dim>
void NodeHalo<Dim>::sum(const parallel::Communicator& comm, int fields, std::span<const HaloColumn> columns) const {
  int per_entry = 0;
  for (const auto& c : columns) per_entry += c.width;
  const std::size_t per_node = static_cast<std::size_t>(fields) * per_entry;
  // Pack: for each shared node, each field, each column's width doubles.
  auto pack_node = [&](long node, double* out) {
    for (int f = 0; f < fields; ++f) {
      const long entry = node * fields + f;
      for (const auto& c : columns) {
        std::memcpy(out, c.data + entry * c.width, sizeof(double) * c.width);
        out += c.width;
      }
    }
  };
  std::vector<std::vector<std::byte>> send(peers_.size());
  for (std::size_t k = 0; k < peers_.size(); ++k) {
    send[k].resize(shared_[k].size() * per_node * sizeof(double));
    auto* out = reinterpret_cast<double*>(send[k].data());
    for (std::size_t j = 0; j < shared_[k].size(); ++j) pack_node(shared_[k][j], out + j * per_node);
  }
  const auto received = comm.exchange(peers_, send);

  // Totals of the touched nodes, accumulated source by source in ascending rank order (this
  // process's own partial at its place among the peers).
  std::vector<double> total(touched_.size() * per_node, 0.0);
  std::vector<double> own(per_node);
  auto add_own = [&]() {
    for (std::size_t t = 0; t < touched_.size(); ++t) {
      pack_node(touched_[t], own.data());
      double* acc = total.data() + t * per_node;
      for (std::size_t v = 0; v < per_node; ++v) acc[v] += own[v];
    }
  };
  bool own_added = false;
  for (std::size_t k = 0; k < peers_.size(); ++k) {
    if (!own_added && peers_[k] > rank_) {
      add_own();
      own_added = true;
    }
    const auto* in = reinterpret_cast<const double*>(received[k].data());
    for (std::size_t j = 0; j < shared_[k].size(); ++j) {
      double* acc = total.data() + static_cast<std::size_t>(slot_[k][j]) * per_node;
      const double* partial = in + j * per_node;
      for (std::size_t v = 0; v < per_node; ++v) acc[v] += partial[v];
    }
  }
  if (!own_added) add_own();

  // Unpack the totals into the touched nodes.
  for (std::size_t t = 0; t < touched_.size(); ++t) {
    const double* in = total.data() + t * per_node;
    for (int f = 0; f < fields; ++f) {
      const long entry = touched_[t] * fields + f;
      for (const auto& c : columns) {
        std::memcpy(c.data + entry * c.width, in, sizeof(double) * c.width);
        in += c.width;
      }
    }
  }
}

template <int Dim>
std::size_t NodeHalo<Dim>::doubles_sent(int fields, int doubles_per_entry) const {
  std::size_t nodes = 0;
  for (const auto& s : shared_) nodes += s.size();
  return nodes * static_cast<std::size_t>(fields) * static_cast<std::size_t>(doubles_per_entry);
}

template SubGrid<2> sub_grid_for_box<2>(const Grid<2>&, const parallel::Box<2>&, int);
template SubGrid<3> sub_grid_for_box<3>(const Grid<3>&, const parallel::Box<3>&, int);
template class NodeHalo<2>;
template class NodeHalo<3>;

}  // namespace tribo::mpm
