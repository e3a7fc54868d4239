#pragma once
// MPM shape functions as 1D factors of a tensor product. Each kind gives, for a particle at
// grid coordinate xi = (x - origin)/h (in cells), the first node of its stencil and the weights and
// derivatives (per cell; divide by h) of the `support` nodes from there.
#include <cmath>

namespace tribo::mpm {

// Piecewise linear tent (Sulsky, Chen & Schreyer 1994).
struct LinearShape {
  static constexpr int support = 2;
  static inline int weights(double xi, double /*half_width*/, double* w, double* dw) {
    const int base = static_cast<int>(std::floor(xi));
    const double f = xi - base;
    w[0] = 1.0 - f;
    w[1] = f;
    dw[0] = -1.0;
    dw[1] = 1.0;
    return base;
  }
};

// Uniform GIMP (Bardenhagen & Kober 2004): the tent convolved with a particle of half-width lp
// (in cells, lp = 1/(2 ppc)); the particle size stays at its initial value (uGIMP).
struct GimpShape {
  static constexpr int support = 3;
  static inline double value(double x, double lp) {
    const double a = std::abs(x);
    if (a < lp) return 1.0 - (x * x + lp * lp) / (2.0 * lp);
    if (a <= 1.0 - lp) return 1.0 - a;
    if (a < 1.0 + lp) return (1.0 + lp - a) * (1.0 + lp - a) / (4.0 * lp);
    return 0.0;
  }
  static inline double derivative(double x, double lp) {
    const double a = std::abs(x);
    const double s = x < 0.0 ? -1.0 : 1.0;
    if (a < lp) return -x / lp;
    if (a <= 1.0 - lp) return -s;
    if (a < 1.0 + lp) return -s * (1.0 + lp - a) / (2.0 * lp);
    return 0.0;
  }
  static inline int weights(double xi, double lp, double* w, double* dw) {
    // The nodes whose support [i - 1 - lp, i + 1 + lp] holds xi: at most three, starting at
    // round(xi) - 1.
    const int base = static_cast<int>(std::floor(xi + 0.5)) - 1;
    for (int k = 0; k < 3; ++k) {
      const double x = xi - (base + k);  // particle relative to node, in cells
      w[k] = value(x, lp);
      dw[k] = derivative(x, lp);  // d/dx_p of S(x_p - x_i)
    }
    return base;
  }
};

// Quadratic B-spline (Steffen, Kirby & Berzins 2008): C1, three nodes per direction.
struct BSpline2Shape {
  static constexpr int support = 3;
  static inline int weights(double xi, double /*half_width*/, double* w, double* dw) {
    const int base = static_cast<int>(std::floor(xi - 0.5));
    const double f = xi - base;  // in [0.5, 1.5)
    w[0] = 0.5 * (1.5 - f) * (1.5 - f);
    w[1] = 0.75 - (f - 1.0) * (f - 1.0);
    w[2] = 0.5 * (f - 0.5) * (f - 0.5);
    dw[0] = f - 1.5;
    dw[1] = -2.0 * (f - 1.0);
    dw[2] = f - 0.5;
    return base;
  }
};

}  // namespace tribo::mpm
