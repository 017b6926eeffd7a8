#pragma once
/// \file sa_model.hpp
/// The Reynolds-averaged Navier-Stokes equations with the Spalart-Allmaras model (SA-neg,
/// NASA Turbulence Modeling Resource) as a state model: the mean flow's five variables plus
/// rho nu-tilde (conservative) / nu-tilde (primitive), solved coupled with the mean flow. The
/// pieces of the sixth equation that the model-templated kernels call:
///   scalar_fluxes   convective flux of rho nu-tilde, upwinded with the mean flow's mass flux
///   scalar_ghost    nu-tilde of the boundary ghost states (TMR boundary conditions)
///   scalar_scales   finite-difference steps of the boundary Jacobian
/// The source terms, the eddy viscosity and the diffusion coefficient are point-wise functions
/// of physics/sa/spalart_allmaras.hpp.
#include "runtime/physics/euler/bc_states.hpp"

namespace fv::phys {

/// Spalart-Allmaras RANS (viscous; the eddy viscosity enters the mean flow's viscous fluxes).
/// Derives from NavierStokesModel through model.hpp (which includes this file first), so the
/// struct is defined there; this header holds its point-wise pieces.
namespace sa_detail {

/// Index of rho nu-tilde / nu-tilde in the state.
inline constexpr int kNuTilde = kNumEq;

/// F[5] = mass flux F[0] times the upwind nu-tilde (WL on the owner side when F[0] >= 0).
FV_HOST_DEVICE FV_FORCEINLINE void scalar_fluxes(const real_t* WL, const real_t* WR, real_t* F) {
  F[kNuTilde] = F[0] * (F[0] >= 0.0 ? WL[kNuTilde] : WR[kNuTilde]);
}

/// nu-tilde of the ghost state G of a boundary face (mean flow already in G[0..4]), as the TMR
/// specifies: 0 at no-slip walls (the ghost mirrors the cell, so the face value is 0), the
/// free-stream value where the flow enters at far field and inflow boundaries (the upwind flux
/// takes the interior value where it leaves), the interior value elsewhere.
FV_HOST_DEVICE FV_FORCEINLINE void scalar_ghost(const real_t* W, const real_t*, const BcParams& b,
                                                real_t* G) {
  switch (b.type) {
  case BcType::NoSlipWall:
    G[kNuTilde] = -W[kNuTilde];
    break;
  case BcType::Farfield:
  case BcType::SupersonicInflow:
  case BcType::SubsonicInflow:
    G[kNuTilde] = b.nuTilde;
    break;
  default:
    G[kNuTilde] = W[kNuTilde];
  }
}

/// Finite-difference step scale of rho nu-tilde: rho (|nu-tilde| + nu-tilde of the free stream),
/// so that the step stays finite where nu-tilde vanishes.
FV_HOST_DEVICE FV_FORCEINLINE void scalar_scales(const real_t* U, const BcParams& b, real_t* s) {
  const real_t nt = U[kNuTilde] / U[0];
  s[kNuTilde] = U[0] * ((nt >= 0.0 ? nt : -nt) + b.nuTilde) + 1e-300;
}

} // namespace sa_detail
} // namespace fv::phys
