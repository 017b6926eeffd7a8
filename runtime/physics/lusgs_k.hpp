#pragma once
/// \file lusgs_k.hpp
/// Point-wise pieces of the matrix-free LU-SGS scheme (Jameson & Yoon), FV_HOST_DEVICE: the
/// spectral radius of the convective flux Jacobian and the exact flux difference that replaces
/// the Jacobian-vector products of the off-diagonal blocks, and the 5x5 inverse of the block
/// diagonal of cells on the boundary.
#include "runtime/physics/euler_state.hpp"
#include "runtime/physics/roe_flux.hpp"

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

namespace fv::phys {

/// Inverts the 5x5 row-major matrix A into Ainv by Gauss-Jordan elimination with partial
/// pivoting; returns false (Ainv unspecified) when a pivot is zero or not finite.
FV_HOST_DEVICE inline bool invert5(const real_t* A, real_t* Ainv) {
  real_t a[5][10];
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 10; ++c)
      a[r][c] = c < 5 ? A[5 * r + c] : (c - 5 == r ? 1.0 : 0.0);
  for (int col = 0; col < 5; ++col) {
    int piv = col;
    for (int r = col + 1; r < 5; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[piv][col])) piv = r;
    const real_t p = a[piv][col];
    if (!(std::fabs(p) > 0.0) || !std::isfinite(p)) return false;
    if (piv != col)
      for (int c = 0; c < 10; ++c) {
        const real_t t = a[col][c];
        a[col][c] = a[piv][c];
        a[piv][c] = t;
      }
    const real_t inv = 1.0 / p;
    for (int c = 0; c < 10; ++c)
      a[col][c] *= inv;
    for (int r = 0; r < 5; ++r) {
      if (r == col) continue;
      const real_t f = a[r][col];
      if (f == 0.0) continue;
      for (int c = 0; c < 10; ++c)
        a[r][c] -= f * a[col][c];
    }
  }
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c)
      Ainv[5 * r + c] = a[r][c + 5];
  return true;
}

} // namespace fv::phys

namespace fv::phys {

/// Roe matrix dissipation applied to a conservative update: |A~(WL, WR) . n| dU |S| with the
/// Roe average of WL and WR and Harten's entropy fix exactly as in roe_flux (whose dissipation
/// is this operator applied to U_R - U_L, to first order). The matrix counterpart of
/// spectral_radius for the implicit operator (lusgs_dissipation = roe).
FV_HOST_DEVICE inline void roe_dissipation(const RoeAverage& r, real_t area, real_t gamma,
                                           real_t entropy_fix, const real_t* dU, real_t* out) {
  // primitive jumps of the conservative update, linearised at the Roe state
  const real_t dr = dU[0];
  const real_t du = (dU[1] - r.u * dr) / r.rho, dv = (dU[2] - r.v * dr) / r.rho,
               dw = (dU[3] - r.w * dr) / r.rho;
  const real_t dp =
      (gamma - 1.0) * (dU[4] - (r.u * dU[1] + r.v * dU[2] + r.w * dU[3]) + 0.5 * r.q2 * dr);
  roe_dissipation_of_jump(r, entropy_fix, dr, du, dv, dw, dp, out);
  for (int k = 0; k < 5; ++k)
    out[k] *= area;
}

/// The same for the states WL, WR across area vector S (Roe average formed here).
FV_HOST_DEVICE inline void roe_dissipation(const real_t* WL, const real_t* WR, const real_t* S,
                                           real_t gamma, real_t entropy_fix, const real_t* dU,
                                           real_t* out) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const RoeAverage r = roe_average(WL, WR, S[0] / area, S[1] / area, S[2] / area, gamma);
  roe_dissipation(r, area, gamma, entropy_fix, dU, out);
}

} // namespace fv::phys
