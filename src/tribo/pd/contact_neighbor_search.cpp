#include "tribo/pd/contact_neighbor_search.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>

#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

namespace {

// The bond i -> j in i's family (sorted by neighbour id), or -1.
std::int64_t find_bond(const BondFamilies& bonds, int i, int j) {
  if (bonds.offset.empty()) return -1;
  const auto begin = bonds.neighbor.begin() + bonds.begin(i);
  const auto end = bonds.neighbor.begin() + bonds.end(i);
  const auto it = std::lower_bound(begin, end, j);
  return it != end && *it == j ? it - bonds.neighbor.begin() : -1;
}

// 0: not a contact pair; 1: always one; 2: one once `bond` is broken.
int classify(int i, int j, std::span<const int> body, const ContactEligibility& e,
             const BondFamilies& bonds, std::int64_t& bond) {
  const int bi = body[i], bj = body[j];
  bond = -1;
  if (e.rigid[bi] && e.rigid[bj]) return 0;
  if (bi != bj) return 1;
  if (!e.self_contact[bi]) return 0;
  bond = find_bond(bonds, i, j);
  return bond < 0 ? 1 : 2;
}

}  // namespace

template <int Dim>
ContactNeighborList<Dim>::ContactNeighborList(double contact_radius, double skin)
    : contact_radius_(contact_radius), skin_(skin) {
  if (!(contact_radius > 0.0) || !(skin > 0.0))
    throw std::invalid_argument("pd contact search: radius and skin must be > 0");
}

template <int Dim>
bool ContactNeighborList<Dim>::needs_rebuild(std::span<const Vec<Dim>> position) const {
  if (builds_ == 0 || built_at_.size() != position.size()) return true;
  const double limit = 0.25 * skin_ * skin_;  // (skin / 2)^2
  const int n = static_cast<int>(position.size());
  std::atomic<bool> moved{false};
  for_each_block<int>(0, n, worth_threads(n), [&](int first, int last) {
    for (int i = first; i < last; ++i)
      if ((position[i] - built_at_[i]).squaredNorm() > limit) {
        moved.store(true, std::memory_order_relaxed);
        return;
      }
  });
  return moved.load();
}

template <int Dim>
void ContactNeighborList<Dim>::build(std::span<const Vec<Dim>> x, std::span<const int> body,
                                     const ContactEligibility& eligibility,
                                     const BondFamilies& bonds) {
  const int n = static_cast<int>(x.size());
  ++builds_;
  built_at_.assign(x.begin(), x.end());
  pairs_.first.clear();
  pairs_.second.clear();
  pairs_.bond.clear();
  if (n < 2) return;

  const double radius = search_radius();
  const double radius_squared = radius * radius;
  grid_.build(x, n, [](std::int64_t k) { return static_cast<int>(k); }, radius);

  // Calls visit(j) for every eligible j > i within the search radius, in cell order.
  auto for_each_pair = [&](int i, auto&& visit) {
    grid_.for_each_near(x[i], [&](int j) {
      if (j <= i || (x[j] - x[i]).squaredNorm() > radius_squared) return;
      std::int64_t bond;
      if (classify(i, j, body, eligibility, bonds, bond) != 0) visit(j, bond);
    });
  };

  // Count, prefix-sum, fill: each point writes only its own slice (owner-computes).
  pair_offset_.assign(static_cast<std::size_t>(n) + 1, 0);
  const bool threads = worth_threads(std::int64_t{16} * n);
  for_each_block<int>(0, n, threads, [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      std::int64_t count = 0;
      for_each_pair(i, [&](int, std::int64_t) { ++count; });
      pair_offset_[i + 1] = count;
    }
  });
  for (int i = 0; i < n; ++i) pair_offset_[i + 1] += pair_offset_[i];
  const std::int64_t total = pair_offset_[n];
  if (total >= (std::int64_t{1} << 31))
    throw std::length_error("pd contact search: too many pairs");
  pairs_.first.resize(total);
  pairs_.second.resize(total);
  pairs_.bond.resize(total);
  for_each_block<int>(0, n, threads, [&](int first, int last) {
    for (int i = first; i < last; ++i) {
      std::int64_t k = pair_offset_[i];
      for_each_pair(i, [&](int j, std::int64_t bond) {
        pairs_.first[k] = i;
        pairs_.second[k] = j;
        pairs_.bond[k] = bond;
        ++k;
      });
    }
  });
}

template <int Dim>
void ContactNeighborList<Dim>::save_state(StateWriter& out) const {
  out.write_value("pd.contact.builds", builds_);
  out.write_array("pd.contact.built_at", built_at_);
  out.write_array("pd.contact.first", pairs_.first);
  out.write_array("pd.contact.second", pairs_.second);
  out.write_array("pd.contact.bond", pairs_.bond);
}

template <int Dim>
void ContactNeighborList<Dim>::restore_state(const StateReader& in) {
  in.read_value("pd.contact.builds", builds_);
  in.read_array("pd.contact.built_at", built_at_);
  in.read_array("pd.contact.first", pairs_.first);
  in.read_array("pd.contact.second", pairs_.second);
  in.read_array("pd.contact.bond", pairs_.bond);
}

template class ContactNeighborList<2>;
template class ContactNeighborList<3>;

}  // namespace tribo::pd
