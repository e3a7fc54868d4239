#pragma once
// Spatial decomposition by recursive coordinate bisection (Berger & Bokhari 1987, IEEE Trans.
// Computers 36(5)): the domain is cut in two along its longest extent so that each side holds a
// share of the points proportional to the number of processes it will get, and each side is cut
// again until there is one box per process. It is the decomposition LAMMPS (`balance rcb`) and
// Zoltan offer for particle codes; it balances by point count, gives compact boxes (short halos),
// and is cheap to recompute as bodies move (docs/parallel.md says why it was chosen).
//
// The points may be spread over the processes: every count and extent goes through the
// communicator, so every process builds the same tree, bit for bit. On one process the same code
// partitions into any number of parts (used by the tests and to plan a run).
#include <span>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/parallel/communicator.hpp"

namespace tribo::parallel {

template <int Dim>
struct Box {
  Vec<Dim> lower;  // m
  Vec<Dim> upper;  // m; a point x belongs to the box when lower <= x < upper on every axis
};

template <int Dim>
class RcbPartition {
 public:
  // One box per part, tiling `domain`; `points` are this process's points (the union over the
  // communicator is partitioned). parts >= 1.
  static RcbPartition build(std::span<const Vec<Dim>> points, int parts, const Box<Dim>& domain,
                            const Communicator& comm);

  int parts() const { return static_cast<int>(boxes_.size()); }
  const Box<Dim>& box(int part) const { return boxes_[static_cast<std::size_t>(part)]; }

  // The part whose box holds x; a point outside the domain goes to the nearest box on each cut
  // (the outer boxes extend to infinity for ownership), so every point has exactly one owner.
  int owner(const Vec<Dim>& x) const;

  // The tree as plain numbers (a checkpoint entry) and back: the copy has the same boxes and the
  // same owner() for every point. from_numbers throws std::runtime_error on a malformed list.
  std::vector<double> to_numbers() const;
  static RcbPartition from_numbers(std::span<const double> numbers);

 private:
  // A cut of the tree: points with x[axis] < position go to `below`, the others to `above`;
  // a child index >= 0 is another cut, a child -1 - p is the leaf of part p.
  struct Cut {
    int axis;
    double position;
    int below;
    int above;
  };
  std::vector<Cut> cuts_;
  std::vector<Box<Dim>> boxes_;
  int root_ = -1;  // -1 - 0 when there is a single part

  int split(std::vector<int>& local, std::span<const Vec<Dim>> points, int first_part, int parts,
            const Box<Dim>& box, const Communicator& comm);
};

}  // namespace tribo::parallel
