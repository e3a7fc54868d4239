#pragma once
// The objective friction model (docs/pd-friction.md derives and proves it). For a contact pair
// (p of body A, i of body B) with contact point x_c = (y_p + y_i)/2:
// 1. Each body's velocity is extrapolated to x_c with its nonlocal velocity gradient
//    (Kamensky et al. 2019; PHYSICS.md):
//      K_p = sum_q w_q (y_q - y_p)(y_q - y_p)^T,   L_p = [sum_q w_q (v_q - v_p)(y_q - y_p)^T]
//      K_p^-1 v_A(x_c) = v_p + L_p (x_c - y_p)
//    over p's intact bonds, w_q = beta V_q. A rigid motion v = c + W y (W skew) gives L_p = W and
//    v_A(x_c) = c + W x_c for every body, so the slip velocity w = v_B(x_c) - v_A(x_c) vanishes:
//    friction is objective. A rigid body uses its exact field v_i + omega x (x_c - y_i).
// 2. The friction F = R(|w_t|, N) w_t/|w_t| on A (-F on B), w_t = w - (w . M) M, acts at x_c.
// 3. F is spread over p and its family with the transpose of the extrapolation: v_A(x_c) =
//    sum_q phi_q v_q with scalar weights phi_p = 1 - sum a_q, phi_q = a_q = w_q (y_q - y_p)^T K^-1
//    (x_c - y_p), and f_q = phi_q F. Since sum phi_q = 1 and sum phi_q y_q = x_c exactly, the
//    spread forces add up to F with moment x_c x F: the pair's forces (+F on A at x_c, -F on B at
//    x_c) have zero resultant and zero moment (linear and angular momentum are conserved), and
//    their power is -F . w = -R |w_t| <= 0 (friction only dissipates).
// Per point the pairs' contributions are gathered first (G_p = sum F (x_c - y_p)^T K_p^-1), so
// the spreading costs one pass over each contact point's family.
#include <cstdint>
#include <span>
#include <vector>

#include "tribo/core/types.hpp"
#include "tribo/pd/bond_family.hpp"

namespace tribo::pd {

template <int Dim>
class ObjectiveFriction {
 public:
  // Clears the contact points of the last evaluation (O(their number)); sizes the map once.
  void begin(int point_count);
  // The slot of a deformable contact point, created on first use.
  int slot(int point);
  // K^-1 and L of every slot's point from its intact bonds (weight != 0), and the L~ of the trial
  // velocities v~ = v + dt f / m (f: the forces so far, without friction) that the friction
  // law's stick force needs. A point whose K is (nearly) singular - too few intact bonds to span
  // the space - gets no field.
  void compute_velocity_fields(std::span<const Vec<Dim>> position,
                               std::span<const Vec<Dim>> velocity, std::span<const Vec<Dim>> force,
                               std::span<const double> mass, double dt, const BondFamilies& bonds,
                               std::span<const double> bond_weight);
  bool has_field(int slot) const { return has_field_[slot] != 0; }
  // v_p + L_p (x - y_p): the body's velocity field at x, from point p (slot s); and the same of
  // the trial velocities.
  Vec<Dim> velocity_at(int s, const Vec<Dim>& x, std::span<const Vec<Dim>> position,
                       std::span<const Vec<Dim>> velocity) const;
  Vec<Dim> trial_velocity_at(int s, const Vec<Dim>& x, std::span<const Vec<Dim>> position) const;
  // sum_q phi_q^2 / m_q (1/kg): the inverse of the body's effective mass at x for a force spread
  // by the weights phi (its velocity there changes by F dt times this).
  // From the per-slot sums of compute_velocity_fields(), so `position` and `mass` must be the ones
  // given to it (and the bonds as they were then): no pass over the family.
  double inverse_mass_at(int s, const Vec<Dim>& x, std::span<const Vec<Dim>> position,
                         std::span<const double> mass) const;
  // Records a force F applied to p's body at x.
  void apply(int s, const Vec<Dim>& force, const Vec<Dim>& x, std::span<const Vec<Dim>> position);
  // Adds f_q = phi_q F of every recorded force to p and its family (serial: it writes to the
  // neighbours).
  void distribute(std::span<const Vec<Dim>> position, const BondFamilies& bonds,
                  std::span<const double> bond_weight, std::span<Vec<Dim>> force) const;

  int slot_count() const { return static_cast<int>(point_.size()); }

 private:
  std::vector<int> slot_of_;  // per point, -1 = none
  std::vector<int> point_;    // per slot
  std::vector<Mat<Dim>> inverse_shape_, gradient_, trial_gradient_, moment_;  // K^-1, L, L~, G
  std::vector<Vec<Dim>> trial_velocity_;                                      // v~_p
  // M_p = sum_q (w_q^2 / m_q) dy_q dy_q^T and s_p = sum_q w_q dy_q over the intact bonds: the
  // effective mass at any x in O(1) (inverse_mass_at).
  std::vector<Mat<Dim>> mobility_;
  std::vector<Vec<Dim>> family_sum_;
  std::vector<Vec<Dim>> resultant_;  // sum of the recorded F
  std::vector<char> has_field_;
};

}  // namespace tribo::pd
