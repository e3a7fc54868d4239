#pragma once
// Contact neighbours of PD points (Kamensky et al. 2019, J. Peridyn. Nonlocal Model. 1:107; seed
// document 002): pairs of points of different bodies, or of the same breakable body whose bond
// has broken, that may come within the contact radius d. A Verlet list: every pair closer than
// d + skin at the last build is kept, and the list is rebuilt only once some point has moved more
// than half the skin since then (two points closing on each other by skin/2 each is the most that
// can bring a pair from outside d + skin to inside d). The build bins the current positions in a
// uniform cell grid of side >= d + skin, so it is O(N); each pair is listed once, from its lower
// point index, in an order that does not depend on the thread count.
#include <cstdint>
#include <span>
#include <vector>

#include "tribo/core/simulation.hpp"
#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"
#include "tribo/pd/cell_list.hpp"

namespace tribo::pd {

// Which points may touch which, per body.
struct ContactEligibility {
  std::vector<char> rigid;         // a pair of two rigid points never interacts
  std::vector<char> self_contact;  // same-body pairs take part once their bond is broken
};

// Candidate pairs, first < second. A same-body pair carries the index of the bond first -> second
// in first's family: it is in contact only once that bond is broken (weight 0). -1: no bond (the
// points are of different bodies, or of the same body beyond each other's family).
struct ContactPairList {
  std::vector<std::int32_t> first;
  std::vector<std::int32_t> second;
  std::vector<std::int64_t> bond;
  std::size_t size() const { return first.size(); }
};

template <int Dim>
class ContactNeighborList {
 public:
  // contact_radius and skin in m; skin > 0.
  ContactNeighborList(double contact_radius, double skin);

  // True before the first build and once a point has moved more than skin/2 since the last one.
  bool needs_rebuild(std::span<const Vec<Dim>> position) const;
  // Lists every eligible pair closer than contact_radius + skin. `body` is each point's body;
  // `bonds` the reference families (sorted by neighbour id), for same-body pairs.
  void build(std::span<const Vec<Dim>> position, std::span<const int> body,
             const ContactEligibility& eligibility, const BondFamilies& bonds);

  const ContactPairList& pairs() const { return pairs_; }
  double search_radius() const { return contact_radius_ + skin_; }
  long build_count() const { return builds_; }

  // Checkpoints: the list and the positions it was built at, so that a restored run keeps the
  // same pairs in the same order (bitwise the same force sums).
  void save_state(StateWriter& out) const;
  void restore_state(const StateReader& in);

 private:
  double contact_radius_;
  double skin_;
  long builds_ = 0;
  ContactPairList pairs_;
  std::vector<Vec<Dim>> built_at_;  // positions at the last build
  // Cell grid (pd/cell_list.hpp) and per-point pair counts, reused.
  CellList<Dim> grid_;
  std::vector<std::int64_t> pair_offset_;
};

}  // namespace tribo::pd
