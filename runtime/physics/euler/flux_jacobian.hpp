#pragma once
/// \file flux_jacobian.hpp
/// Point-wise 5x5 Jacobians of the convective fluxes (FV_HOST_DEVICE, row-major, conservative
/// variables), the blocks of the first-order implicit operator of the Newton-Krylov
/// preconditioner:
///   convective_jacobian   A(U) . S = d(F(U) . S)/dU, exact;
///   roe_matrix            |A~| |S|, the Roe matrix of a face with Harten's entropy fix, the
///                         dissipation of roe_flux (frozen: its dependence on the states is
///                         dropped, as in the usual approximate Roe Jacobian);
///   face_flux_jacobians   dF/dU_L and dF/dU_R of the first-order Roe or Rusanov flux
///                         F = 1/2 (F_L + F_R) . S - 1/2 D (U_R - U_L).
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/euler/roe_flux.hpp"

namespace fv::phys {

/// A(U) . S for the primitive state W: the exact Jacobian of physical_flux(W, S) with respect
/// to the conservative variables (Blazek, eq. (A.9)).
FV_HOST_DEVICE inline void convective_jacobian(const real_t* W, const real_t* S, real_t gamma,
                                               real_t* A) {
  const real_t u = W[1], v = W[2], w = W[3];
  const real_t sx = S[0], sy = S[1], sz = S[2];
  const real_t g1 = gamma - 1.0;
  const real_t V = u * sx + v * sy + w * sz;
  const real_t phi2 = 0.5 * g1 * (u * u + v * v + w * w);
  const real_t H = total_enthalpy(W, gamma);
  A[0] = 0.0;
  A[1] = sx;
  A[2] = sy;
  A[3] = sz;
  A[4] = 0.0;
  A[5] = phi2 * sx - u * V;
  A[6] = V + u * sx - g1 * u * sx;
  A[7] = u * sy - g1 * v * sx;
  A[8] = u * sz - g1 * w * sx;
  A[9] = g1 * sx;
  A[10] = phi2 * sy - v * V;
  A[11] = v * sx - g1 * u * sy;
  A[12] = V + v * sy - g1 * v * sy;
  A[13] = v * sz - g1 * w * sy;
  A[14] = g1 * sy;
  A[15] = phi2 * sz - w * V;
  A[16] = w * sx - g1 * u * sz;
  A[17] = w * sy - g1 * v * sz;
  A[18] = V + w * sz - g1 * w * sz;
  A[19] = g1 * sz;
  A[20] = V * (phi2 - H);
  A[21] = H * sx - g1 * u * V;
  A[22] = H * sy - g1 * v * V;
  A[23] = H * sz - g1 * w * V;
  A[24] = gamma * V;
}

/// |A~(WL, WR)| |S| (row-major), column by column through roe_dissipation of the unit vectors.
FV_HOST_DEVICE inline void roe_matrix(const RoeAverage& r, real_t area, real_t gamma,
                                      real_t entropy_fix, real_t* D) {
  for (int col = 0; col < 5; ++col) {
    real_t e[5] = {0, 0, 0, 0, 0}, out[5];
    e[col] = 1.0;
    roe_dissipation(r, area, gamma, entropy_fix, e, out);
    for (int row = 0; row < 5; ++row)
      D[5 * row + col] = out[row];
  }
}

/// Jacobians of the first-order face flux through S (owner side L, neighbour side R):
/// dFdL = 1/2 (A(U_L) . S + D), dFdR = 1/2 (A(U_R) . S - D) with D = |A~| |S| (roe) or
/// lambda_max |S| I (rusanov, lambda_max = max of |u.n| + c of both states).
FV_HOST_DEVICE inline void face_flux_jacobians(const real_t* WL, const real_t* WR, const real_t* S,
                                               real_t gamma, bool roe, real_t entropy_fix,
                                               real_t* dFdL, real_t* dFdR) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  real_t D[25];
  if (roe) {
    const RoeAverage r = roe_average(WL, WR, S[0] / area, S[1] / area, S[2] / area, gamma);
    roe_matrix(r, area, gamma, entropy_fix, D);
  } else {
    const real_t VL = std::fabs(WL[1] * S[0] + WL[2] * S[1] + WL[3] * S[2]) / area;
    const real_t VR = std::fabs(WR[1] * S[0] + WR[2] * S[1] + WR[3] * S[2]) / area;
    const real_t sL = VL + sound_speed(WL, gamma), sR = VR + sound_speed(WR, gamma);
    const real_t l = (sL > sR ? sL : sR) * area;
    for (int k = 0; k < 25; ++k)
      D[k] = k % 6 == 0 ? l : 0.0;
  }
  convective_jacobian(WL, S, gamma, dFdL);
  convective_jacobian(WR, S, gamma, dFdR);
  for (int k = 0; k < 25; ++k) {
    dFdL[k] = 0.5 * (dFdL[k] + D[k]);
    dFdR[k] = 0.5 * (dFdR[k] - D[k]);
  }
}

} // namespace fv::phys
