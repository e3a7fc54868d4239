#pragma once
// Stress from the deformation gradient for the MPM materials. F is 3x3 (plane strain: F_zz = 1,
// no out-of-plane shear). Each function writes the Cauchy stress and returns the strain energy
// per unit reference volume (J/m^3).
#include "tribo/core/material.hpp"
#include "tribo/core/types.hpp"

namespace tribo::mpm {

struct ElasticConstants {
  double lambda = 0.0;  // Pa
  double mu = 0.0;      // Pa
  static ElasticConstants of(const MaterialSpec& m) { return {m.lame_lambda(), m.shear_modulus()}; }
};

// Rotation of the polar decomposition F = R U; in-plane closed form when plane is true.
Mat3 polar_rotation(const Mat3& F, bool plane);

// Co-rotational small-strain elasticity: Biot strain eps = U - I (U = sym(R^T F)) in the rotated
// frame, so that rigid rotation (a rolling cylinder) makes no stress; energy psi = T : eps / 2 with
// T = lambda tr eps I + 2 mu eps, and the Cauchy stress conjugate to it, sigma = R T U R^T / J.
double corotational_linear_elastic(const Mat3& F, const ElasticConstants& c, bool plane, Mat3& stress);

// Compressible neo-Hookean (e.g. Bonet & Wood, Nonlinear Continuum Mechanics, eq. 5.29):
// sigma = mu/J (B - I) + lambda ln J / J I,  W = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2.
double neo_hookean(const Mat3& F, const ElasticConstants& c, Mat3& stress);

// The stress kernel of each MPM material model (core/material_models.hpp). The particle loop of
// the stress update is templated on one of them, chosen once per step: StressModel<M> when every
// deformable material of the deck has model M, MixedStressModels (a branch per particle) when
// they differ. Each returns the strain energy per unit reference volume.
template <MaterialModel M>
struct StressModel;

template <>
struct StressModel<MaterialModel::LinearElastic> {
  static double update(int, const Mat3& F, const ElasticConstants& c, bool plane, Mat3& stress) {
    return corotational_linear_elastic(F, c, plane, stress);
  }
};

template <>
struct StressModel<MaterialModel::NeoHookean> {
  static double update(int, const Mat3& F, const ElasticConstants& c, bool, Mat3& stress) {
    return neo_hookean(F, c, stress);
  }
};

// Materials of different models in one deck: the model of the particle's material.
struct MixedStressModels {
  const MaterialModel* model;  // per material
  double update(int material, const Mat3& F, const ElasticConstants& c, bool plane, Mat3& stress) const {
    return model[material] == MaterialModel::NeoHookean
               ? StressModel<MaterialModel::NeoHookean>::update(material, F, c, plane, stress)
               : StressModel<MaterialModel::LinearElastic>::update(material, F, c, plane, stress);
  }
};

// P-wave speed sqrt((lambda + 2 mu)/rho), the fastest wave in an elastic material (m/s).
double dilatational_wave_speed(const MaterialSpec& m);

}  // namespace tribo::mpm
