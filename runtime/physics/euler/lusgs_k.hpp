#pragma once
/// \file lusgs_k.hpp
/// Point-wise pieces of the matrix-free LU-SGS scheme (Jameson & Yoon), FV_HOST_DEVICE: the
/// spectral radius of the convective flux Jacobian and the exact flux difference that replaces
/// the Jacobian-vector products of the off-diagonal blocks (the 5x5 block algebra is in
/// block5.hpp).
#include "runtime/physics/euler/block5.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/euler/roe_flux.hpp"

namespace fv::phys {

/// Spectral radius of the convective flux Jacobian through area vector S, integrated over the
/// face: |u . S| + c |S| (m^3/s in SI) for primitive state W.
FV_HOST_DEVICE FV_FORCEINLINE real_t spectral_radius(const real_t* W, const real_t* S,
                                                     real_t gamma) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  return std::fabs(W[1] * S[0] + W[2] * S[1] + W[3] * S[2]) + sound_speed(W, gamma) * area;
}

/// Exact flux difference dF = F(U + dU) . S - F(U) . S of the state with primitive W
/// (U = conservative(W)): the matrix-free stand-in for A(U) dU . S.
FV_HOST_DEVICE FV_FORCEINLINE void flux_difference(const real_t* W, const real_t* dU,
                                                   const real_t* S, real_t gamma, real_t* dF) {
  real_t Up[5], Wp[5], F0[5], F1[5];
  prim_to_cons(W, Up, gamma);
  for (int k = 0; k < 5; ++k)
    Up[k] += dU[k];
  cons_to_prim(Up, Wp, gamma);
  physical_flux(Wp, S, gamma, F1);
  physical_flux(W, S, gamma, F0);
  for (int k = 0; k < 5; ++k)
    dF[k] = F1[k] - F0[k];
}

} // namespace fv::phys
