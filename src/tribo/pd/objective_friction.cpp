#include "tribo/pd/objective_friction.hpp"

#include <cmath>

#include "tribo/pd/parallel.hpp"

namespace tribo::pd {

namespace {
// K is rejected when det K < eps (tr K / Dim)^Dim: its smallest eigenvalue is then tiny against
// the mean one (a chain of points left by fracture spans a line, not the plane).
constexpr double singular_shape = 1e-8;
}  // namespace

template <int Dim>
void ObjectiveFriction<Dim>::begin(int point_count) {
  if (static_cast<int>(slot_of_.size()) != point_count) slot_of_.assign(point_count, -1);
  for (int p : point_) slot_of_[p] = -1;
  point_.clear();
}

template <int Dim>
int ObjectiveFriction<Dim>::slot(int point) {
  int& s = slot_of_[point];
  if (s < 0) {
    s = static_cast<int>(point_.size());
    point_.push_back(point);
  }
  return s;
}

template <int Dim>
void ObjectiveFriction<Dim>::compute_velocity_fields(std::span<const Vec<Dim>> y,
                                                     std::span<const Vec<Dim>> v,
                                                     std::span<const Vec<Dim>> f,
                                                     std::span<const double> mass, double dt,
                                                     const BondFamilies& bonds,
                                                     std::span<const double> bond_weight) {
  const int slots = slot_count();
  inverse_shape_.resize(slots);
  gradient_.resize(slots);
  trial_gradient_.resize(slots);
  trial_velocity_.resize(slots);
  mobility_.resize(slots);
  family_sum_.resize(slots);
  moment_.assign(slots, Mat<Dim>::Zero());
  resultant_.assign(slots, Vec<Dim>::Zero());
  has_field_.assign(slots, 0);
  for_each_block<int>(0, slots, worth_threads(std::int64_t{64} * slots), [&](int first, int last) {
    for (int s = first; s < last; ++s) {
      const int p = point_[s];
      const Vec<Dim> trial_p = v[p] + (dt / mass[p]) * f[p];
      Mat<Dim> shape = Mat<Dim>::Zero(), rate = Mat<Dim>::Zero(), trial = Mat<Dim>::Zero();
      Mat<Dim> mobility = Mat<Dim>::Zero();
      Vec<Dim> family_sum = Vec<Dim>::Zero();
      for (std::int64_t b = bonds.begin(p); b < bonds.end(p); ++b) {
        if (bond_weight[b] == 0.0) continue;
        const int q = bonds.neighbor[b];
        const double w = bonds.neighbor_volume(b);
        const Vec<Dim> dy = y[q] - y[p];
        shape.noalias() += w * dy * dy.transpose();
        rate.noalias() += w * (v[q] - v[p]) * dy.transpose();
        trial.noalias() += w * (v[q] + (dt / mass[q]) * f[q] - trial_p) * dy.transpose();
        mobility.noalias() += (w * w / mass[q]) * dy * dy.transpose();
        family_sum += w * dy;
      }
      trial_velocity_[s] = trial_p;
      mobility_[s] = mobility;
      family_sum_[s] = family_sum;
      const double mean = shape.trace() / Dim;
      if (!(mean > 0.0) || !(shape.determinant() > singular_shape * std::pow(mean, Dim))) continue;
      inverse_shape_[s] = shape.inverse();
      gradient_[s] = rate * inverse_shape_[s];
      trial_gradient_[s] = trial * inverse_shape_[s];
      has_field_[s] = 1;
    }
  });
}

template <int Dim>
Vec<Dim> ObjectiveFriction<Dim>::velocity_at(int s, const Vec<Dim>& x, std::span<const Vec<Dim>> y,
                                             std::span<const Vec<Dim>> v) const {
  const int p = point_[s];
  return v[p] + gradient_[s] * (x - y[p]);
}

template <int Dim>
Vec<Dim> ObjectiveFriction<Dim>::trial_velocity_at(int s, const Vec<Dim>& x,
                                                   std::span<const Vec<Dim>> y) const {
  return trial_velocity_[s] + trial_gradient_[s] * (x - y[point_[s]]);
}

template <int Dim>
double ObjectiveFriction<Dim>::inverse_mass_at(int s, const Vec<Dim>& x,
                                               std::span<const Vec<Dim>> y,
                                               std::span<const double> mass) const {
  // With k = K^-1 (x - y_p) the family weights are a_q = w_q dy_q . k, so
  //   sum_q a_q^2 / m_q = k^T [sum_q (w_q^2 / m_q) dy_q dy_q^T] k = k^T M_p k,
  //   sum_q a_q = (sum_q w_q dy_q) . k = s_p . k,
  // and M_p, s_p are gathered once per step with K_p: O(1) per call instead of a pass over the
  // family at each of the (up to two) calls per contact pair.
  const int p = point_[s];
  const Vec<Dim> k = inverse_shape_[s] * (x - y[p]);
  const double own = 1.0 - family_sum_[s].dot(k);
  return k.dot(mobility_[s] * k) + own * own / mass[p];
}

template <int Dim>
void ObjectiveFriction<Dim>::apply(int s, const Vec<Dim>& force, const Vec<Dim>& x,
                                   std::span<const Vec<Dim>> y) {
  const int p = point_[s];
  // a_q = w_q dy_q^T K^-1 (x - y_p), so phi_q F = w_q [F (x - y_p)^T K^-1] dy_q = w_q G dy_q.
  moment_[s].noalias() += force * ((x - y[p]).transpose() * inverse_shape_[s]);
  resultant_[s] += force;
}

template <int Dim>
void ObjectiveFriction<Dim>::distribute(std::span<const Vec<Dim>> y, const BondFamilies& bonds,
                                        std::span<const double> bond_weight,
                                        std::span<Vec<Dim>> force) const {
  for (int s = 0; s < slot_count(); ++s) {
    if (!has_field_[s]) continue;
    const int p = point_[s];
    const Mat<Dim>& g = moment_[s];
    Vec<Dim> spread = Vec<Dim>::Zero();
    for (std::int64_t b = bonds.begin(p); b < bonds.end(p); ++b) {
      if (bond_weight[b] == 0.0) continue;
      const int q = bonds.neighbor[b];
      const Vec<Dim> f = bonds.neighbor_volume(b) * (g * (y[q] - y[p]));
      force[q] += f;
      spread += f;
    }
    // phi_p = 1 - sum a_q: p keeps the rest, so the spread forces add up to sum F exactly.
    force[p] += resultant_[s] - spread;
  }
}

template class ObjectiveFriction<2>;
template class ObjectiveFriction<3>;

}  // namespace tribo::pd
