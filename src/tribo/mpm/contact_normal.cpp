#include "tribo/mpm/contact_normal.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace tribo::mpm {

namespace {

template <int Dim>
bool usable(const Vec<Dim>& v) {
  const double n2 = v.squaredNorm();
  return n2 > 0.0 && std::isfinite(n2);
}

// A gradient below this fraction of the largest gradient at the node is rounding noise: inside a
// body the sum V_p grad S cancels to ~1e-16 of a surface value and points anywhere (issue 13: a
// rigid floor's interior "normal" pulled a rolling disk into the floor in 52 of 219 sampled
// contact forces). A real surface gradient, even of a field with one particle in the support's
// corner, is many orders above it.
constexpr double kNoiseFraction = 1.0e-8;

// The gradient as an estimate of the normal: zero when it is noise relative to `scale` (the
// largest gradient magnitude at the node, or the field's own scale, below), so that the fallbacks
// below take over.
template <int Dim>
Vec<Dim> denoised(const Vec<Dim>& g, double scale) {
  const double n = g.norm();
  if (!std::isfinite(n) || n <= kNoiseFraction * scale) return Vec<Dim>::Zero();
  return g;
}

template <int Dim>
double finite_norm(const Vec<Dim>& g) {
  const double n = g.norm();
  return std::isfinite(n) ? n : 0.0;
}

template <int Dim>
Vec<Dim> unit_or_zero(const Vec<Dim>& v) {
  return usable<Dim>(v) ? Vec<Dim>(v / v.norm()) : Vec<Dim>(Vec<Dim>::Zero());
}

// First usable candidate, normalised; zero when none is.
template <int Dim>
Vec<Dim> first_usable(const Vec<Dim>& preferred, const Vec<Dim>& second) {
  if (usable<Dim>(preferred)) return unit_or_zero<Dim>(preferred);
  return unit_or_zero<Dim>(second);
}

}  // namespace

template <int Dim>
Vec<Dim> contact_normal(ContactNormalMethod method, const ContactField<Dim>& a, const ContactField<Dim>& b,
                        const Vec<Dim>& sum_of_all_volume_gradients, const Vec<Dim>& specified,
                        double cell_length) {
  if (method == ContactNormalMethod::Specified) return unit_or_zero<Dim>(specified);

  // Every candidate below kNoiseFraction of the largest at the node is treated as zero, and below
  // kNoiseFraction of its own field's scale V / h: a field's gradient at a node inside it is
  // rounding noise of the order of 1e-16 V / h whatever the other fields hold there. (The largest
  // gradient alone is no scale where the other field only grazes the node: a rigid floor's interior
  // noise then passed as a normal, and which way it pointed depended on the order of the sums, so
  // a sphere on 3 processes left the one-process run at step 87; stop 22.)
  const Vec<Dim> others_sum = sum_of_all_volume_gradients - a.volume_gradient;
  const double scale = std::max({finite_norm<Dim>(a.volume_gradient), finite_norm<Dim>(b.volume_gradient),
                                 finite_norm<Dim>(others_sum)});
  const auto own = [cell_length](double amount) { return cell_length > 0.0 ? amount / cell_length : 0.0; };
  const Vec<Dim> from_a = denoised<Dim>(a.volume_gradient, std::max(scale, own(a.volume)));
  const Vec<Dim> from_b = denoised<Dim>(Vec<Dim>(-b.volume_gradient), std::max(scale, own(b.volume)));

  // Rigid preference: a rigid field's gradient comes from undeformed particles. A rigid gradient
  // that is noise (a node inside the rigid body) falls through to the method's own choice.
  if (a.rigid != b.rigid) {
    const Vec<Dim> rigid_estimate = a.rigid ? from_a : from_b;
    if (usable<Dim>(rigid_estimate)) return unit_or_zero<Dim>(rigid_estimate);
  }

  switch (method) {
    case ContactNormalMethod::MaxGradient: {
      // NairnMPM "maxgrad": a against every other field at the node.
      const Vec<Dim> from_others = denoised<Dim>(Vec<Dim>(-others_sum), std::max(scale, own(b.volume)));
      if (from_a.squaredNorm() >= from_others.squaredNorm()) return first_usable<Dim>(from_a, from_others);
      return first_usable<Dim>(from_others, from_a);
    }
    case ContactNormalMethod::MaxVolumeGradient:
      // NairnMPM "maxvol": the side with more volume has the better-resolved gradient.
      if (a.volume >= b.volume) return first_usable<Dim>(from_a, from_b);
      return first_usable<Dim>(from_b, from_a);
    case ContactNormalMethod::MassGradient: {
      // NairnMPM "owngrad": a's own mass gradient (the mass gradients have their own scale).
      const double mass_scale = std::max(finite_norm<Dim>(a.mass_gradient), finite_norm<Dim>(b.mass_gradient));
      return first_usable<Dim>(denoised<Dim>(a.mass_gradient, std::max(mass_scale, own(a.mass))),
                               denoised<Dim>(Vec<Dim>(-b.mass_gradient), std::max(mass_scale, own(b.mass))));
    }
    case ContactNormalMethod::AverageVolumeGradient:
    case ContactNormalMethod::LogisticRegression:
    default: {
      // NairnMPM "avggrad": (V_a g_a + V_b (-g_b)) / (V_a + V_b), direction only.
      // Two estimates that cancel to noise are no mean either.
      const Vec<Dim> mean = denoised<Dim>(Vec<Dim>(a.volume * from_a + b.volume * from_b),
                                          a.volume * from_a.norm() + b.volume * from_b.norm());
      if (usable<Dim>(mean)) return unit_or_zero<Dim>(mean);
      // Opposite estimates cancelling (or zero volumes): the larger gradient decides.
      if (from_a.squaredNorm() >= from_b.squaredNorm()) return first_usable<Dim>(from_a, from_b);
      return first_usable<Dim>(from_b, from_a);
    }
  }
}

namespace {

constexpr double kLinearOffsetPenalty = 0.1;      // NairnMPM linreg: ridge on the offset
constexpr double kLogisticNormalPenalty = 1.0e-7; // NairnMPM logreg: ridge on beta (in cell^2 units)
constexpr double kLogisticOffsetPenalty = 0.0;
constexpr double kLinearToLogisticScale = 2.0;   // f = tanh(z/2) ~ z/2 near the plane
constexpr double kTolerance = 1.0e-6;            // on 1 - cos(change of the normal) per iteration: 0.08 degrees
constexpr int kMaxIterations = 25;
constexpr int kMaxHalvings = 20;

template <int Dim>
using Aug = Eigen::Matrix<double, Dim + 1, 1>;
template <int Dim>
using AugMat = Eigen::Matrix<double, Dim + 1, Dim + 1>;

// Valid particles: label -1 or +1 with positive finite weight. Returns the length scale L
// (weighted rms distance to the node) used to make the regression dimensionless, or 0 when the
// particles do not have both labels.
template <int Dim>
double regression_scale(const Vec<Dim>* x, const int* labels, const double* w, int count) {
  bool has_a = false, has_b = false;
  double sum_w = 0.0, sum_r2 = 0.0;
  for (int p = 0; p < count; ++p) {
    if ((labels[p] != -1 && labels[p] != 1) || !(w[p] > 0.0) || !std::isfinite(w[p])) continue;
    has_a |= labels[p] == -1;
    has_b |= labels[p] == 1;
    sum_w += w[p];
    sum_r2 += w[p] * x[p].squaredNorm();
  }
  if (!has_a || !has_b || !(sum_w > 0.0)) return 0.0;
  const double scale = std::sqrt(sum_r2 / sum_w);
  return std::isfinite(scale) ? scale : 0.0;
}

template <int Dim>
bool valid(int label, double weight) {
  return (label == -1 || label == 1) && weight > 0.0 && std::isfinite(weight);
}

template <int Dim>
Aug<Dim> augmented(const Vec<Dim>& x, double scale) {
  Aug<Dim> z;
  z.template head<Dim>() = x / scale;
  z[Dim] = 1.0;
  return z;
}

// Weighted linear least squares of the labels on [x / L, 1] with a ridge on the offset.
template <int Dim>
bool linear_fit(const Vec<Dim>* x, const int* labels, const double* w, int count, double scale,
                Aug<Dim>& beta) {
  AugMat<Dim> m = AugMat<Dim>::Zero();
  Aug<Dim> rhs = Aug<Dim>::Zero();
  double sum_w = 0.0;
  for (int p = 0; p < count; ++p) {
    if (!valid<Dim>(labels[p], w[p])) continue;
    const Aug<Dim> z = augmented<Dim>(x[p], scale);
    m += w[p] * z * z.transpose();
    rhs += (w[p] * labels[p]) * z;
    sum_w += w[p];
  }
  // Penalties are relative to the total weight so that they do not depend on its units.
  m(Dim, Dim) += kLinearOffsetPenalty * sum_w;
  const Eigen::FullPivLU<AugMat<Dim>> lu(m);
  if (!lu.isInvertible()) return false;
  beta = lu.solve(rhs);
  return beta.allFinite() && usable<Dim>(Vec<Dim>(beta.template head<Dim>()));
}

}  // namespace

template <int Dim>
Vec<Dim> linear_regression_normal(const Vec<Dim>* rel_positions, const int* labels, const double* weights,
                                  int count, const Vec<Dim>& fallback) {
  const double scale = regression_scale<Dim>(rel_positions, labels, weights, count);
  Aug<Dim> beta;
  if (!(scale > 0.0) || !linear_fit<Dim>(rel_positions, labels, weights, count, scale, beta)) return fallback;
  return unit_or_zero<Dim>(Vec<Dim>(beta.template head<Dim>()));
}

template <int Dim>
Vec<Dim> logistic_regression_normal(const Vec<Dim>* rel_positions, const int* labels, const double* weights,
                                    int count, const Vec<Dim>& fallback) {
  const double scale = regression_scale<Dim>(rel_positions, labels, weights, count);
  Aug<Dim> beta;
  if (!(scale > 0.0) || !linear_fit<Dim>(rel_positions, labels, weights, count, scale, beta)) return fallback;
  const Vec<Dim> linear = unit_or_zero<Dim>(Vec<Dim>(beta.template head<Dim>()));

  double sum_w = 0.0;
  for (int p = 0; p < count; ++p)
    if (valid<Dim>(labels[p], weights[p])) sum_w += weights[p];
  Aug<Dim> penalty = Aug<Dim>::Constant(kLogisticNormalPenalty * sum_w);
  penalty[Dim] = kLogisticOffsetPenalty * sum_w;

  // Gauss-Newton on E(beta) = sum w (y - f(z))^2 + beta^T Lambda beta, f = 2 sigma(z) - 1 =
  // tanh(z / 2), df/dz = 2 sigma (1 - sigma); started at twice the linear fit (NairnMPM's scaling).
  // Each step is halved until E decreases, so the fit never runs away from the linear start on
  // awkward particle sets (a few particles of one label in a corner of the support).
  // The tanh values of the last objective evaluated; those of the accepted step are the next
  // iteration's (the tanh is most of the fit's cost). One buffer per thread, grown once.
  thread_local std::vector<double> trial_f, accepted_f;
  trial_f.resize(static_cast<std::size_t>(count));
  accepted_f.resize(static_cast<std::size_t>(count));
  auto objective = [&](const Aug<Dim>& b) {
    double e = b.dot(penalty.cwiseProduct(b));
    for (int p = 0; p < count; ++p) {
      if (!valid<Dim>(labels[p], weights[p])) continue;
      const double f = std::tanh(0.5 * b.dot(augmented<Dim>(rel_positions[p], scale)));
      trial_f[static_cast<std::size_t>(p)] = f;
      e += weights[p] * (labels[p] - f) * (labels[p] - f);
    }
    return e;
  };
  beta *= kLinearToLogisticScale;
  double energy = objective(beta);
  std::swap(trial_f, accepted_f);
  Vec<Dim> previous = linear;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    AugMat<Dim> m = penalty.asDiagonal();
    Aug<Dim> rhs = -penalty.cwiseProduct(beta);
    for (int p = 0; p < count; ++p) {
      if (!valid<Dim>(labels[p], weights[p])) continue;
      const Aug<Dim> z = augmented<Dim>(rel_positions[p], scale);
      const double f = accepted_f[static_cast<std::size_t>(p)];  // tanh(beta . z / 2)
      const double slope = 0.5 * (1.0 - f * f);  // = 2 sigma (1 - sigma)
      m += (weights[p] * slope * slope) * z * z.transpose();
      rhs += (weights[p] * slope * (labels[p] - f)) * z;
    }
    const Eigen::FullPivLU<AugMat<Dim>> lu(m);
    if (!lu.isInvertible()) break;
    Aug<Dim> step = lu.solve(rhs);
    if (!step.allFinite()) break;
    bool decreased = false;
    for (int halving = 0; halving < kMaxHalvings; ++halving, step *= 0.5) {
      const double trial = objective(beta + step);
      if (trial < energy) {
        beta += step;
        energy = trial;
        std::swap(trial_f, accepted_f);
        decreased = true;
        break;
      }
    }
    if (!decreased) break;  // at a minimum to round-off
    const Vec<Dim> current = unit_or_zero<Dim>(Vec<Dim>(beta.template head<Dim>()));
    if (!usable<Dim>(current)) return linear;
    const double change = 1.0 - current.dot(previous);
    previous = current;
    if (change < kTolerance) break;
  }
  return usable<Dim>(previous) ? previous : linear;
}

template Vec<2> contact_normal<2>(ContactNormalMethod, const ContactField<2>&, const ContactField<2>&,
                                  const Vec<2>&, const Vec<2>&, double);
template Vec<3> contact_normal<3>(ContactNormalMethod, const ContactField<3>&, const ContactField<3>&,
                                  const Vec<3>&, const Vec<3>&, double);
template Vec<2> logistic_regression_normal<2>(const Vec<2>*, const int*, const double*, int, const Vec<2>&);
template Vec<3> logistic_regression_normal<3>(const Vec<3>*, const int*, const double*, int, const Vec<3>&);
template Vec<2> linear_regression_normal<2>(const Vec<2>*, const int*, const double*, int, const Vec<2>&);
template Vec<3> linear_regression_normal<3>(const Vec<3>*, const int*, const double*, int, const Vec<3>&);

}  // namespace tribo::mpm
