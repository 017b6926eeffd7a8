#pragma once
/// \file mean_flow.hpp
/// The state term of the mean flow (the compressible Euler and Navier-Stokes equations of an
/// ideal gas): the variables of physics/euler/euler_state.hpp as a model's state, with their
/// names, conversions and scales (physics/model.hpp).
#include "runtime/physics/bc_table.hpp"
#include "runtime/physics/euler/euler_state.hpp"

namespace fv::phys {

/// The state term of the mean flow's models (EulerModel, NavierStokesModel): its variables,
/// their names, the point-wise conversions and the free-stream scales of its equations.
struct MeanFlowState {
  static constexpr int kNumVars = kNumEq; ///< conserved variables = primitive variables
  /// The variables convergence is judged on (the momentum components can be identically zero
  /// in 2D flows): density and total energy.
  static constexpr int kDensity = phys::kDensity, kEnergy = phys::kEnergy;
  /// Conservative variables in storage order (restart files, residual columns).
  static constexpr const char* kConservative[kNumVars] = {"rho", "rhoU", "rhoV", "rhoW", "rhoE"};
  /// Primitive variables in storage order (gradients, limiter, reconstruction).
  static constexpr const char* kPrimitive[kNumVars] = {"rho", "u", "v", "w", "p"};

  FV_HOST_DEVICE FV_FORCEINLINE static void to_primitive(const real_t* U, real_t* W, real_t gamma) {
    cons_to_prim(U, W, gamma);
  }
  FV_HOST_DEVICE FV_FORCEINLINE static void to_conservative(const real_t* W, real_t* U,
                                                            real_t gamma) {
    prim_to_cons(W, U, gamma);
  }
  /// Magnitudes of the conservative variables' residuals in the free stream Winf (primitive):
  /// rho, rho a, rho a, rho a, rho a^2 (the residual reference compares equations in them).
  static void residual_scales(const real_t* Winf, real_t gamma, real_t* s) {
    const real_t a = sound_speed(Winf, gamma);
    s[0] = Winf[0];
    s[1] = s[2] = s[3] = Winf[0] * a;
    s[4] = Winf[0] * a * a;
  }
  /// Magnitudes of the primitive variables in the free stream Winf: rho, |u| + a (x3), p
  /// (Venkatakrishnan's reference scales: a dimensionally consistent epsilon).
  static void primitive_scales(const real_t* Winf, real_t gamma, real_t* s) {
    const real_t speed = std::sqrt(Winf[1] * Winf[1] + Winf[2] * Winf[2] + Winf[3] * Winf[3]) +
                         sound_speed(Winf, gamma);
    s[0] = Winf[0];
    s[1] = s[2] = s[3] = speed;
    s[4] = Winf[4];
  }
  /// Finite-difference steps of the conservative variables U (primitive W) as multiples of
  /// 1e-5 at a boundary face of condition b: rho, |m| + rho c, rho E (the boundary flux's
  /// Jacobian, physics/model.hpp).
  FV_HOST_DEVICE FV_FORCEINLINE static void
  perturbation_scales(const real_t* U, const real_t* W, real_t gamma, const BcParams&, real_t* s) {
    const real_t rc = U[0] * sound_speed(W, gamma);
    s[0] = U[0];
    s[1] = std::fabs(U[1]) + rc;
    s[2] = std::fabs(U[2]) + rc;
    s[3] = std::fabs(U[3]) + rc;
    s[4] = U[4];
  }
  /// Whether a (reconstructed) primitive state can be used: density and pressure positive.
  FV_HOST_DEVICE FV_FORCEINLINE static bool admissible(const real_t* W) {
    return W[0] > 0.0 && W[4] > 0.0;
  }
};

} // namespace fv::phys
