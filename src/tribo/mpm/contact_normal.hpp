#pragma once
// The normal of the a-b interface at a node: unit, pointing out of a toward b (NairnMPM
// MultimaterialMode normals; Nairn, Bardenhagen and Smith 2018). The volume gradient
// g = sum V_p grad S of a field points out of that field at its surface, so g_a and -g_b are both
// estimates of n.
//
//   MaxGradient            g_a if |g_a| >= |g_o| else -g_o, g_o = (sum of all fields' gradients) - g_a
//                          (NairnMPM "maxgrad": a against every other field at the node)
//   MaxVolumeGradient      g_a if V_a >= V_b else -g_b: the gradient of the side with more volume
//                          (NairnMPM "maxvol")
//   AverageVolumeGradient  V_a g_a - V_b g_b, the volume-weighted mean of the two estimates
//                          (NairnMPM "avggrad")
//   MassGradient           a's own mass gradient (NairnMPM "owngrad"; the normal then depends on
//                          which field is a)
//   Specified              the given direction (the caller orients it from a to b)
//   LogisticRegression     needs the particles: this function returns the AverageVolumeGradient
//                          normal, the fallback to pass to logistic_regression_normal
// With exactly one rigid field its volume gradient is used whenever it is non-zero (all methods but
// Specified): a rigid body's particles never deform, so its gradient is the better estimate
// (NairnMPM's rigid bias, taken to the limit).
// A gradient whose magnitude is below 1e-8 of the largest volume gradient at the node (a, b, or the
// others' sum) is rounding noise (the interior of a body, where the sum cancels) and counts as zero,
// for the rigid preference too: inside a rigid body the deformable field's gradient decides.
// Degenerate input (a zero, noise or non-finite chosen gradient) falls back to the other side's gradient;
// when every candidate is zero the result is the zero vector, which resolve_contact_pair treats as
// "no contact at this node" (NairnMPM skips nodes whose normal is NaN).
#include "tribo/core/simulation_spec.hpp"
#include "tribo/core/types.hpp"
#include "tribo/mpm/contact_detection.hpp"

namespace tribo::mpm {

// cell_length: the smallest cell size (m), the unit of each field's own gradient scale (its
// volume, or mass, over a cell): a field's gradient is noise below 1e-8 of the larger of that and
// the largest gradient at the node. 0: only the largest gradient at the node.
template <int Dim>
Vec<Dim> contact_normal(ContactNormalMethod method, const ContactField<Dim>& a, const ContactField<Dim>& b,
                        const Vec<Dim>& sum_of_all_volume_gradients, const Vec<Dim>& specified,
                        double cell_length = 0.0);

// Logistic regression normal from the particles near the node (NairnMPM "logreg", 2018): fit the
// labels y_p (-1 for a, +1 for b) with f(x) = 2 / (1 + exp(-(beta.x + beta_0))) - 1 by weighted
// nonlinear least squares (Gauss-Newton, a small ridge penalty keeps separable data finite),
// started from the linear regression y ~ beta.x + beta_0; n = beta / |beta| points from a to b.
//   rel_positions  x_p - x_node, m
//   labels         -1 (a), +1 (b); other values are ignored
//   weights        >= 0, e.g. the shape function S_node(x_p); 0 ignores the particle
// Returns the linear-regression normal if the iteration fails, and `fallback` when there are not
// particles of both labels or the fit is singular. No allocation.
template <int Dim>
Vec<Dim> logistic_regression_normal(const Vec<Dim>* rel_positions, const int* labels, const double* weights,
                                    int count, const Vec<Dim>& fallback);

// The linear regression alone (NairnMPM "linreg"), with the same fallback rule.
template <int Dim>
Vec<Dim> linear_regression_normal(const Vec<Dim>* rel_positions, const int* labels, const double* weights,
                                  int count, const Vec<Dim>& fallback);

}  // namespace tribo::mpm
