#include "tribo/pd/smoothed_surface.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tribo::pd {

namespace {

// phi, d phi/dg and d phi/ds_x of a point at height g and lateral offset (sx, sy) over the half
// lattice {(i, j, -n) : n >= 0} (2D: sy unused), all in spacings.
template <int Dim>
void lattice_sum(double support, double g, double sx, double sy, double& phi, double& dg,
                 double& ds) {
  const int reach = static_cast<int>(std::ceil(support)) + 1;
  phi = dg = ds = 0.0;
  for (int n = 0; n <= reach; ++n)
    for (int i = -reach; i <= reach; ++i)
      for (int j = (Dim == 3 ? -reach : 0); j <= (Dim == 3 ? reach : 0); ++j) {
        const double z = g + n, x = sx + i, y = Dim == 3 ? sy + j : 0.0;
        const double r = std::sqrt(x * x + y * y + z * z);
        const double q = r / support;
        if (q >= 1.0) continue;
        phi += wendland(q);
        const double slope = wendland_slope(q) / (support * r);
        dg += slope * z;
        ds += slope * x;
      }
}

}  // namespace

template <int Dim>
SurfaceCalibration calibrate_smoothed_surface(double support) {
  constexpr int samples = 16;  // offsets per lateral direction over one period
  double max_phi = -std::numeric_limits<double>::infinity();
  double min_phi = std::numeric_limits<double>::infinity();
  double sum_gradient = 0.0, max_tangential = 0.0;
  int count = 0;
  for (int a = 0; a < samples; ++a)
    for (int b = 0; b < (Dim == 3 ? samples : 1); ++b) {
      double phi, dg, ds;
      lattice_sum<Dim>(support, 1.0, (a + 0.5) / samples, (b + 0.5) / samples, phi, dg, ds);
      max_phi = std::max(max_phi, phi);
      min_phi = std::min(min_phi, phi);
      sum_gradient -= dg;
      max_tangential = std::max(max_tangential, std::abs(ds));
      ++count;
    }
  // The offsets 0 and 1/2 exactly (the aligned and the nested lattices), where phi peaks.
  for (double s : {0.0, 0.5}) {
    double phi, dg, ds;
    lattice_sum<Dim>(support, 1.0, s, s, phi, dg, ds);
    max_phi = std::max(max_phi, phi);
    min_phi = std::min(min_phi, phi);
  }
  SurfaceCalibration c;
  // A hair above the peak, so that the lattices' own round-off (their sums run in another order)
  // never leaves pairs touching with a force of 1e-16 of the load.
  c.phi0 = max_phi * (1.0 + 1e-9);
  c.gradient = sum_gradient / count;
  c.variation = max_phi - min_phi;
  c.washboard = c.gradient > 0.0 ? max_tangential / c.gradient : 0.0;
  return c;
}

template SurfaceCalibration calibrate_smoothed_surface<2>(double);
template SurfaceCalibration calibrate_smoothed_surface<3>(double);

}  // namespace tribo::pd
