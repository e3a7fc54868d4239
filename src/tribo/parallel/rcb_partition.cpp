#include "tribo/parallel/rcb_partition.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tribo::parallel {

template <int Dim>
RcbPartition<Dim> RcbPartition<Dim>::build(std::span<const Vec<Dim>> points, int parts, const Box<Dim>& domain,
                                           const Communicator& comm) {
  if (parts < 1) throw std::invalid_argument("RcbPartition: parts must be >= 1");
  RcbPartition partition;
  partition.boxes_.resize(static_cast<std::size_t>(parts));
  std::vector<int> local(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) local[i] = static_cast<int>(i);
  partition.root_ = partition.split(local, points, 0, parts, domain, comm);
  return partition;
}

// Cuts `box` (holding the local points listed in `local`) for parts first_part .. first_part +
// parts - 1 and returns the tree index of the cut (or the leaf code). The cut goes along the axis
// where the points spread most (the box's longest axis when it holds none), at the position that
// leaves floor(parts/2)/parts of the points below it: found by bisection on the global count below
// a trial position, then moved to the middle of the gap between the nearest points on each side,
// so that points on a lattice (many sharing a coordinate) are never split along a column and a
// point that moves by less than half the gap keeps its owner.
template <int Dim>
int RcbPartition<Dim>::split(std::vector<int>& local, std::span<const Vec<Dim>> points, int first_part, int parts,
                             const Box<Dim>& box, const Communicator& comm) {
  if (parts == 1) {
    boxes_[static_cast<std::size_t>(first_part)] = box;
    return -1 - first_part;
  }
  // Global extent of the points in this box, and their number.
  std::array<double, 2 * Dim> extent;
  for (int d = 0; d < Dim; ++d) {
    extent[d] = std::numeric_limits<double>::infinity();        // min (as -max of -x below)
    extent[Dim + d] = -std::numeric_limits<double>::infinity();  // max
  }
  for (int i : local)
    for (int d = 0; d < Dim; ++d) {
      extent[d] = std::min(extent[d], points[i][d]);
      extent[Dim + d] = std::max(extent[Dim + d], points[i][d]);
    }
  comm.min_in_place(std::span<double>(extent.data(), Dim));
  comm.max_in_place(std::span<double>(extent.data() + Dim, Dim));
  const long long total = comm.sum(static_cast<long long>(local.size()));

  int axis = 0;
  double widest = -1.0;
  for (int d = 0; d < Dim; ++d) {
    const double spread = total > 0 ? extent[Dim + d] - extent[d] : box.upper[d] - box.lower[d];
    if (spread > widest) {
      widest = spread;
      axis = d;
    }
  }
  const int parts_below = parts / 2;
  const long long target = (total * parts_below + parts / 2) / parts;  // rounded share below the cut

  auto count_below = [&](double position) {
    long long n = 0;
    for (int i : local) n += points[i][axis] < position ? 1 : 0;
    return comm.sum(n);
  };
  double cut;
  if (total == 0 || !(extent[Dim + axis] > extent[axis])) {
    cut = 0.5 * (box.lower[axis] + box.upper[axis]);  // nothing to balance: halve the box
  } else {
    // Bisection keeps count_below(low) < target <= count_below(high); with ties it ends with
    // low and high around the coordinate c* of the group of points that crosses the target.
    double low = extent[axis], high = std::nextafter(extent[Dim + axis], std::numeric_limits<double>::infinity());
    for (int iteration = 0; iteration < 200 && low < high; ++iteration) {
      const double mid = 0.5 * (low + high);
      if (mid <= low || mid >= high) break;
      if (count_below(mid) >= target) high = mid; else low = mid;
    }
    // Then the group at c* (= below_max) goes below the cut (cut between c* and the next
    // coordinate up) or above it (cut between the previous coordinate and c*), whichever count is
    // nearer the target.
    const long long at_high = count_below(high);
    double below_max = -std::numeric_limits<double>::infinity(), above_min = std::numeric_limits<double>::infinity();
    for (int i : local) {
      const double x = points[i][axis];
      if (x < high) below_max = std::max(below_max, x); else above_min = std::min(above_min, x);
    }
    below_max = comm.max(below_max);
    above_min = comm.min(above_min);
    // The alternative: move the group just below `high` (coordinate below_max) to the upper side.
    double lower_gap_below = -std::numeric_limits<double>::infinity();
    for (int i : local) {
      const double x = points[i][axis];
      if (x < below_max) lower_gap_below = std::max(lower_gap_below, x);
    }
    lower_gap_below = comm.max(lower_gap_below);
    const long long at_alternative = count_below(below_max);
    const bool use_alternative = std::isfinite(lower_gap_below) && std::llabs(at_alternative - target) < std::llabs(at_high - target);
    if (use_alternative) {
      cut = 0.5 * (lower_gap_below + below_max);
    } else if (std::isfinite(above_min) && std::isfinite(below_max)) {
      cut = 0.5 * (below_max + above_min);
    } else {
      cut = high;
    }
  }

  // Points outside the domain do not move the boxes' walls out of it (they still get an owner).
  cut = std::clamp(cut, box.lower[axis], box.upper[axis]);
  std::vector<int> below, above;
  for (int i : local) (points[i][axis] < cut ? below : above).push_back(i);
  local.clear();
  local.shrink_to_fit();
  Box<Dim> box_below = box, box_above = box;
  box_below.upper[axis] = cut;
  box_above.lower[axis] = cut;
  const int index = static_cast<int>(cuts_.size());
  cuts_.push_back({axis, cut, 0, 0});
  const int child_below = split(below, points, first_part, parts_below, box_below, comm);
  const int child_above = split(above, points, first_part + parts_below, parts - parts_below, box_above, comm);
  cuts_[static_cast<std::size_t>(index)].below = child_below;
  cuts_[static_cast<std::size_t>(index)].above = child_above;
  return index;
}

template <int Dim>
int RcbPartition<Dim>::owner(const Vec<Dim>& x) const {
  int node = root_;
  while (node >= 0) {
    const Cut& c = cuts_[static_cast<std::size_t>(node)];
    node = x[c.axis] < c.position ? c.below : c.above;
  }
  return -1 - node;
}

// Layout: parts, cuts, root, then per cut (axis, position, below, above), then per box its lower
// and upper corners. Indices are small integers: exact as doubles.
template <int Dim>
std::vector<double> RcbPartition<Dim>::to_numbers() const {
  std::vector<double> out{static_cast<double>(boxes_.size()), static_cast<double>(cuts_.size()),
                          static_cast<double>(root_)};
  for (const Cut& c : cuts_) out.insert(out.end(), {static_cast<double>(c.axis), c.position,
                                                    static_cast<double>(c.below), static_cast<double>(c.above)});
  for (const Box<Dim>& b : boxes_) {
    for (int d = 0; d < Dim; ++d) out.push_back(b.lower[d]);
    for (int d = 0; d < Dim; ++d) out.push_back(b.upper[d]);
  }
  return out;
}

template <int Dim>
RcbPartition<Dim> RcbPartition<Dim>::from_numbers(std::span<const double> numbers) {
  const auto bad = [] { return std::runtime_error("RcbPartition: malformed decomposition entry"); };
  if (numbers.size() < 3) throw bad();
  const auto parts = static_cast<std::size_t>(numbers[0]), cuts = static_cast<std::size_t>(numbers[1]);
  if (parts < 1 || cuts + 1 != parts || numbers.size() != 3 + 4 * cuts + 2 * Dim * parts) throw bad();
  RcbPartition partition;
  partition.root_ = static_cast<int>(numbers[2]);
  std::size_t k = 3;
  const auto in_tree = [&](int node) { return node >= 0 ? node < static_cast<int>(cuts) : -1 - node < static_cast<int>(parts); };
  for (std::size_t c = 0; c < cuts; ++c, k += 4) {
    const Cut cut{static_cast<int>(numbers[k]), numbers[k + 1], static_cast<int>(numbers[k + 2]),
                  static_cast<int>(numbers[k + 3])};
    if (cut.axis < 0 || cut.axis >= Dim || !in_tree(cut.below) || !in_tree(cut.above)) throw bad();
    partition.cuts_.push_back(cut);
  }
  if (!in_tree(partition.root_)) throw bad();
  for (std::size_t b = 0; b < parts; ++b) {
    Box<Dim> box;
    for (int d = 0; d < Dim; ++d) box.lower[d] = numbers[k++];
    for (int d = 0; d < Dim; ++d) box.upper[d] = numbers[k++];
    partition.boxes_.push_back(box);
  }
  return partition;
}

template class RcbPartition<2>;
template class RcbPartition<3>;

}  // namespace tribo::parallel
