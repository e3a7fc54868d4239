#pragma once
// Discretisation of the deck's bodies into PD points: a simple (square/cubic) lattice of spacing h
// per body, one point at the centre of each lattice cell whose centre lies inside the body's
// shape (Silling & Askari 2005, sec. 3: cell-centred one-point quadrature). Each point carries the
// cell's volume h^3, or h^2 t in 2D with t the plane's thickness. A point-cloud body
// (Shape::Kind::Points) gets one point per position of its file instead, of the file's volume
// (times t in 2D) or, when the file gives none, of a lattice cell's.
#include <vector>

#include "tribo/core/particles.hpp"
#include "tribo/core/simulation_spec.hpp"

namespace tribo::pd {

struct PointRange {
  int begin = 0;
  int end = 0;  // one past the last point
  int size() const { return end - begin; }
};

template <int Dim>
struct LatticeBodies {
  Particles<Dim> points;
  std::vector<PointRange> bodies;  // contiguous points of each body, deck order
  std::vector<Vec<Dim>> centroid;  // initial centroid of each body, m
};

// Volume of one lattice point: h^Dim, times the thickness in 2D.
template <int Dim>
double point_volume(double spacing, double thickness);

// Fills every body of the spec; the initial velocity of a point is the body's velocity plus
// omega x (x - centroid). A body with no lattice point inside it gives an empty range.
template <int Dim>
LatticeBodies<Dim> fill_bodies(const SimulationSpec& spec);

}  // namespace tribo::pd
