#include "tribo/pd/contact_neighbor_search.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

namespace {

// The uniform grid of one build: cells of side `cell` over the points' bounding box.
template <int Dim>
struct Grid {
  Vec<Dim> lo = Vec<Dim>::Zero();
  IVec<Dim> dims = IVec<Dim>::Ones();
  double cell = 1.0;

  IVec<Dim> coords(const Vec<Dim>& x) const {
    IVec<Dim> c;
    for (int d = 0; d < Dim; ++d)
      c[d] = std::clamp(static_cast<int>(std::floor((x[d] - lo[d]) / cell)), 0, dims[d] - 1);
    return c;
  }
  std::int64_t linear(const IVec<Dim>& c) const {
    std::int64_t k = 0;
    for (int d = Dim - 1; d >= 0; --d) k = k * dims[d] + c[d];
    return k;
  }
};

// Cells of side >= radius, coarsened when the bounding box is sparse (far-flung fragments) so the
// grid never holds more than a few cells per point: memory and the build stay O(N).
template <int Dim>
Grid<Dim> make_grid(std::span<const Vec<Dim>> x, double radius) {
  Grid<Dim> g;
  Vec<Dim> lo = x[0], hi = x[0];
  for (const Vec<Dim>& p : x) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  g.lo = lo;
  const double max_cells = 4.0 * static_cast<double>(x.size()) + 64.0;
  g.cell = radius;
  while (true) {
    double cells = 1.0;
    for (int d = 0; d < Dim; ++d) cells *= std::floor((hi[d] - lo[d]) / g.cell) + 1.0;
    if (cells <= max_cells) break;
    g.cell *= 1.5;
  }
  for (int d = 0; d < Dim; ++d)
    g.dims[d] = static_cast<int>(std::floor((hi[d] - lo[d]) / g.cell)) + 1;
  return g;
}

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
  int moved = 0;
#pragma omp parallel for schedule(static) reduction(max : moved) if (worth_threads(n))
  for (int i = 0; i < n; ++i)
    if ((position[i] - built_at_[i]).squaredNorm() > limit) moved = 1;
  return moved != 0;
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
  const Grid<Dim> grid = make_grid<Dim>(x, radius);
  std::int64_t cells = 1;
  for (int d = 0; d < Dim; ++d) cells *= grid.dims[d];
  cell_start_.assign(static_cast<std::size_t>(cells) + 1, 0);
  cell_of_point_.resize(n);
  for (int i = 0; i < n; ++i) {
    cell_of_point_[i] = static_cast<int>(grid.linear(grid.coords(x[i])));
    ++cell_start_[cell_of_point_[i] + 1];
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  cell_points_.resize(n);
  cell_fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (int i = 0; i < n; ++i) cell_points_[cell_fill_[cell_of_point_[i]]++] = i;

  // Calls visit(j) for every eligible j > i within the search radius, in cell order.
  auto for_each_pair = [&](int i, auto&& visit) {
    const IVec<Dim> ci = grid.coords(x[i]);
    IVec<Dim> lo, hi;
    for (int d = 0; d < Dim; ++d) {
      lo[d] = std::max(ci[d] - 1, 0);
      hi[d] = std::min(ci[d] + 1, grid.dims[d] - 1);
    }
    IVec<Dim> c = lo;
    while (true) {
      const std::int64_t k = grid.linear(c);
      for (int s = cell_start_[k]; s < cell_start_[k + 1]; ++s) {
        const int j = cell_points_[s];
        if (j <= i || (x[j] - x[i]).squaredNorm() > radius_squared) continue;
        std::int64_t bond;
        if (classify(i, j, body, eligibility, bonds, bond) != 0) visit(j, bond);
      }
      int d = 0;
      for (; d < Dim; ++d) {
        if (++c[d] <= hi[d]) break;
        c[d] = lo[d];
      }
      if (d == Dim) break;
    }
  };

  // Count, prefix-sum, fill: each point writes only its own slice (owner-computes).
  pair_offset_.assign(static_cast<std::size_t>(n) + 1, 0);
  const bool threads = worth_threads(std::int64_t{16} * n);
#pragma omp parallel for schedule(static) if (threads)
  for (int i = 0; i < n; ++i) {
    std::int64_t count = 0;
    for_each_pair(i, [&](int, std::int64_t) { ++count; });
    pair_offset_[i + 1] = count;
  }
  for (int i = 0; i < n; ++i) pair_offset_[i + 1] += pair_offset_[i];
  const std::int64_t total = pair_offset_[n];
  if (total >= (std::int64_t{1} << 31))
    throw std::length_error("pd contact search: too many pairs");
  pairs_.first.resize(total);
  pairs_.second.resize(total);
  pairs_.bond.resize(total);
#pragma omp parallel for schedule(static) if (threads)
  for (int i = 0; i < n; ++i) {
    std::int64_t k = pair_offset_[i];
    for_each_pair(i, [&](int j, std::int64_t bond) {
      pairs_.first[k] = i;
      pairs_.second[k] = j;
      pairs_.bond[k] = bond;
      ++k;
    });
  }
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
