#include "tribo/mpm/rigid_interior.hpp"

#include <algorithm>
#include <cmath>

namespace tribo::mpm {

int rigid_interior_reach(double support_cells) { return static_cast<int>(std::ceil(2.0 * support_cells)) + 1; }

namespace {

constexpr int kEmpty = -1;  // a cell with no particle, or with particles of two bodies
constexpr int kMixed = -2;

template <int Dim>
IVec<Dim> cell_of(const Grid<Dim>& grid, const IVec<Dim>& cells, const Vec<Dim>& x) {
  IVec<Dim> c;
  for (int d = 0; d < Dim; ++d)
    c[d] = std::clamp(static_cast<int>(std::floor(grid.coordinate(x[d], d))), 0, cells[d] - 1);
  return c;
}

template <int Dim>
long linear(const IVec<Dim>& cells, const IVec<Dim>& c) {
  long k = c[Dim - 1];
  for (int d = Dim - 2; d >= 0; --d) k = k * cells[d] + c[d];
  return k;
}

}  // namespace

template <int Dim>
std::vector<char> classify_rigid_particles(const Grid<Dim>& grid, const std::vector<Vec<Dim>>& position,
                                           const std::vector<int>& body, const std::vector<char>& rigid,
                                           int reach) {
  const std::size_t n = position.size();
  std::vector<char> role(n, kDeformable);
  for (std::size_t p = 0; p < n; ++p)
    if (rigid[p]) role[p] = kRigidSurface;
  const IVec<Dim> cells = (grid.nodes.array() - 1).max(1).matrix();
  long count = 1;
  for (int d = 0; d < Dim; ++d) count *= cells[d];

  // The body each cell holds: one body's particles only, or none (kEmpty / kMixed).
  std::vector<int> label(count, kEmpty);
  for (std::size_t p = 0; p < n; ++p) {
    int& l = label[linear<Dim>(cells, cell_of<Dim>(grid, cells, position[p]))];
    if (l == kEmpty) l = body[p];
    else if (l != body[p]) l = kMixed;
  }
  // Erosion by a cube of half-side `reach`, one axis at a time: a cell keeps its body when every
  // cell within `reach` along the axis (inside the grid) kept the same body in the pass before.
  std::vector<int> next(count);
  for (int d = 0; d < Dim; ++d) {
    for (long k = 0; k < count; ++k) {
      IVec<Dim> c;
      long rest = k;
      for (int e = 0; e < Dim; ++e) {
        c[e] = static_cast<int>(rest % cells[e]);
        rest /= cells[e];
      }
      const int own = label[k];
      bool kept = own >= 0 && c[d] - reach >= 0 && c[d] + reach < cells[d];
      for (int j = -reach; kept && j <= reach; ++j) {
        IVec<Dim> o = c;
        o[d] += j;
        kept = label[linear<Dim>(cells, o)] == own;
      }
      next[k] = kept ? own : kEmpty;
    }
    label.swap(next);
  }
  for (std::size_t p = 0; p < n; ++p)
    if (rigid[p] && label[linear<Dim>(cells, cell_of<Dim>(grid, cells, position[p]))] == body[p])
      role[p] = kRigidInterior;
  return role;
}

template std::vector<char> classify_rigid_particles<2>(const Grid<2>&, const std::vector<Vec<2>>&,
                                                       const std::vector<int>&, const std::vector<char>&, int);
template std::vector<char> classify_rigid_particles<3>(const Grid<3>&, const std::vector<Vec<3>>&,
                                                       const std::vector<int>&, const std::vector<char>&, int);

}  // namespace tribo::mpm
