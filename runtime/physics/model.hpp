#pragma once
/// \file model.hpp
/// The equations a case solves, as types that kernels and the solver are written against (the
/// shape of SU2's convective / viscous / source numerics and of AMReX's point-wise kernels):
/// a Model carries its number of conserved variables, their names, whether it has viscous
/// fluxes, and its point-wise state conversions. Field widths in kernels come from
/// Model::kNumVars (through kernels::CellField<N>), so the count is written once, here.
///
///   physics/euler/          the compressible Euler equations: state, Roe and Rusanov fluxes,
///                           their Jacobians, boundary ghost states, 5x5 block algebra
///   physics/navier_stokes/  transport properties, viscous fluxes and their Jacobians
///
/// Models of this file:
///   EulerModel          rho, rho u, rho v, rho w, rho E; inviscid
///   NavierStokesModel   the same variables; viscous and heat-conduction fluxes
///   SaModel             the same plus rho nu-tilde: RANS with Spalart-Allmaras (physics/sa/)
/// A model with more variables than the mean flow's kNumEq provides the scalar hooks that
/// kernels call under `if constexpr (M::kNumVars > kNumEq)` (see SaModel).
#include "common/enum_names.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/sa/sa_model.hpp"

namespace fv::phys {

/// The compressible Euler equations of an ideal gas.
struct EulerModel {
  static constexpr int kNumVars = kNumEq; ///< conserved variables = primitive variables
  static constexpr bool kViscous = false; ///< no viscous or heat-conduction fluxes
  static constexpr const char* kName = "euler";
  /// The variables convergence is judged on (the momentum components can be identically zero
  /// in 2D flows): density and total energy.
  static constexpr int kDensity = 0, kEnergy = 4;
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
};

/// The laminar compressible Navier-Stokes equations: Euler's variables and convective fluxes,
/// plus viscous stresses and heat conduction (physics/navier_stokes/).
struct NavierStokesModel : EulerModel {
  static constexpr bool kViscous = true;
  static constexpr const char* kName = "navier_stokes";
};

/// RANS with the Spalart-Allmaras model (SA-neg): the mean flow and rho nu-tilde, coupled.
struct SaModel : NavierStokesModel {
  static constexpr int kNumVars = kNumEq + 1;
  static constexpr const char* kName = "rans_sa";
  static constexpr int kNuTilde = sa_detail::kNuTilde; ///< index of rho nu-tilde / nu-tilde
  static constexpr const char* kConservative[kNumVars] = {"rho",  "rhoU", "rhoV",
                                                          "rhoW", "rhoE", "rhoNuTilde"};
  static constexpr const char* kPrimitive[kNumVars] = {"rho", "u", "v", "w", "p", "nuTilde"};

  FV_HOST_DEVICE FV_FORCEINLINE static void to_primitive(const real_t* U, real_t* W, real_t gamma) {
    cons_to_prim(U, W, gamma);
    W[kNuTilde] = U[kNuTilde] / U[0];
  }
  FV_HOST_DEVICE FV_FORCEINLINE static void to_conservative(const real_t* W, real_t* U,
                                                            real_t gamma) {
    prim_to_cons(W, U, gamma);
    U[kNuTilde] = W[0] * W[kNuTilde];
  }
  /// Euler's scales and rho nu-tilde of the free stream Winf (kNumVars primitives).
  static void residual_scales(const real_t* Winf, real_t gamma, real_t* s) {
    EulerModel::residual_scales(Winf, gamma, s);
    s[kNuTilde] = Winf[0] * Winf[kNuTilde];
  }
  /// Euler's scales and nu-tilde of the free stream.
  static void primitive_scales(const real_t* Winf, real_t gamma, real_t* s) {
    EulerModel::primitive_scales(Winf, gamma, s);
    s[kNuTilde] = Winf[kNuTilde];
  }
  FV_HOST_DEVICE FV_FORCEINLINE static void scalar_fluxes(const real_t* WL, const real_t* WR,
                                                          real_t* F) {
    sa_detail::scalar_fluxes(WL, WR, F);
  }
  FV_HOST_DEVICE FV_FORCEINLINE static void scalar_ghost(const real_t* W, const real_t* n,
                                                         const BcParams& b, real_t* G) {
    sa_detail::scalar_ghost(W, n, b, G);
  }
  FV_HOST_DEVICE FV_FORCEINLINE static void scalar_scales(const real_t* U, const BcParams& b,
                                                          real_t* s) {
    sa_detail::scalar_scales(U, b, s);
  }
};

/// The models a case chooses from ([physics] model), by the Model type each one runs.
enum class ModelKind { Euler, NavierStokes, RansSa };

/// The models' names (their kName), in the order case files and documentation list them.
inline constexpr EnumName<ModelKind> kModelNames[] = {
    {ModelKind::Euler, EulerModel::kName},
    {ModelKind::NavierStokes, NavierStokesModel::kName},
    {ModelKind::RansSa, SaModel::kName},
};

/// True for the models with transported scalars beyond the mean flow (the kernels' `if
/// constexpr` branches; a variable template, which CUDA's device lambdas may use where they may
/// not capture a local constant).
template <class M>
inline constexpr bool kHasScalars = (M::kNumVars > kNumEq);

/// The widest cell state a kernel handles (the mean flow plus transport equations): bounds
/// the fixed-size scratch arrays of model-independent code.
inline constexpr int kMaxVars = 8;
static_assert(SaModel::kNumVars <= kMaxVars, "kMaxVars too small for the models");

} // namespace fv::phys
