#pragma once
/// \file roe_flux.hpp
/// Roe's approximate Riemann solver with Harten's entropy fix (Blazek, "Computational Fluid
/// Dynamics", §4.3.3 form of the dissipation), FV_HOST_DEVICE.
#include "runtime/physics/euler/euler_state.hpp"

namespace fv::phys {

/// Harten's entropy fix: |lambda| replaced by (lambda^2 + delta^2) / (2 delta) below delta.
FV_HOST_DEVICE FV_FORCEINLINE real_t harten_abs(real_t lambda, real_t delta) {
  const real_t a = std::fabs(lambda);
  return a >= delta ? a : (lambda * lambda + delta * delta) / (2.0 * delta);
}

/// Roe average of two primitive states across a face with unit normal n (the state the Roe
/// flux's dissipation is linearised at).
struct RoeAverage {
  real_t rho, u, v, w, H; ///< density, velocity, total enthalpy
  real_t q2, c2, c;       ///< |u|^2, squared and plain speed of sound
  real_t nx, ny, nz, Vn;  ///< unit normal and normal velocity
};

FV_HOST_DEVICE FV_FORCEINLINE RoeAverage roe_average(const real_t* WL, const real_t* WR, real_t nx,
                                                     real_t ny, real_t nz, real_t gamma) {
  RoeAverage r;
  const real_t HL = total_enthalpy(WL, gamma), HR = total_enthalpy(WR, gamma);
  const real_t sL = std::sqrt(WL[0]), sR = std::sqrt(WR[0]);
  const real_t inv = 1.0 / (sL + sR);
  r.rho = sL * sR;
  r.u = (sL * WL[1] + sR * WR[1]) * inv;
  r.v = (sL * WL[2] + sR * WR[2]) * inv;
  r.w = (sL * WL[3] + sR * WR[3]) * inv;
  r.H = (sL * HL + sR * HR) * inv;
  r.q2 = r.u * r.u + r.v * r.v + r.w * r.w;
  r.c2 = (gamma - 1.0) * (r.H - 0.5 * r.q2);
  r.c2 = r.c2 > 1e-300 ? r.c2 : 1e-300;
  r.c = std::sqrt(r.c2);
  r.nx = nx;
  r.ny = ny;
  r.nz = nz;
  r.Vn = r.u * nx + r.v * ny + r.w * nz;
  return r;
}

/// |A~| (the Roe matrix of the face, per unit area, with Harten's entropy fix: entropy_fix as a
/// fraction of |V_n| + c, 0 disables it) applied to a jump given in primitive variables
/// (dr, du, dv, dw, dp): D = sum_k |lambda_k| alpha_k r_k. linear_fix: the fix of the linearly
/// degenerate (entropy and shear) waves, < 0: the same as entropy_fix; 0 leaves them |V_n|, as
/// a boundary layer needs (a fix there acts as a numerical viscosity of the order of
/// entropy_fix c h, comparable to the physical one).
FV_HOST_DEVICE FV_FORCEINLINE void roe_dissipation_of_jump(const RoeAverage& r, real_t entropy_fix,
                                                           real_t dr, real_t du, real_t dv,
                                                           real_t dw, real_t dp, real_t* D,
                                                           real_t linear_fix = -1.0) {
  const real_t nx = r.nx, ny = r.ny, nz = r.nz, Vn = r.Vn, c = r.c, c2 = r.c2;
  const real_t dVn = du * nx + dv * ny + dw * nz;
  const real_t delta = entropy_fix * (std::fabs(Vn) + c);
  const real_t deltaLinear = linear_fix < 0.0 ? delta : linear_fix * (std::fabs(Vn) + c);
  real_t l1 = std::fabs(Vn - c), l2 = std::fabs(Vn), l5 = std::fabs(Vn + c);
  if (delta > 0.0) {
    l1 = harten_abs(Vn - c, delta);
    l5 = harten_abs(Vn + c, delta);
  }
  if (deltaLinear > 0.0) l2 = harten_abs(Vn, deltaLinear);
  const real_t a1 = l1 * (dp - r.rho * c * dVn) / (2.0 * c2);
  const real_t a5 = l5 * (dp + r.rho * c * dVn) / (2.0 * c2);
  const real_t a2 = l2 * (dr - dp / c2);
  const real_t a3 = l2 * r.rho;
  D[0] = a1 + a2 + a5;
  D[1] = a1 * (r.u - c * nx) + a2 * r.u + a3 * (du - dVn * nx) + a5 * (r.u + c * nx);
  D[2] = a1 * (r.v - c * ny) + a2 * r.v + a3 * (dv - dVn * ny) + a5 * (r.v + c * ny);
  D[3] = a1 * (r.w - c * nz) + a2 * r.w + a3 * (dw - dVn * nz) + a5 * (r.w + c * nz);
  D[4] = a1 * (r.H - c * Vn) + a2 * 0.5 * r.q2 + a3 * (r.u * du + r.v * dv + r.w * dw - Vn * dVn) +
         a5 * (r.H + c * Vn);
}

/// Roe flux through area vector S from the left (owner) state WL to the right state WR,
/// primitive variables. entropy_fix is Harten's delta as a fraction of (|V_n| + c) of the Roe
/// average (0 disables it); linear_fix as in roe_dissipation_of_jump. F receives the flux
/// integrated over the face (times |S|).
FV_HOST_DEVICE inline void roe_flux(const real_t* WL, const real_t* WR, const real_t* S,
                                    real_t gamma, real_t entropy_fix, real_t* F,
                                    real_t linear_fix = -1.0) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nx = S[0] / area, ny = S[1] / area, nz = S[2] / area;
  const real_t n[3] = {nx, ny, nz};

  real_t FL[5], FR[5];
  physical_flux(WL, n, gamma, FL);
  physical_flux(WR, n, gamma, FR);

  const RoeAverage r = roe_average(WL, WR, nx, ny, nz, gamma);
  real_t D[5];
  roe_dissipation_of_jump(r, entropy_fix, WR[0] - WL[0], WR[1] - WL[1], WR[2] - WL[2],
                          WR[3] - WL[3], WR[4] - WL[4], D, linear_fix);
  for (int k = 0; k < 5; ++k)
    F[k] = 0.5 * (FL[k] + FR[k] - D[k]) * area;
}

/// Roe matrix dissipation applied to a conservative update: |A~(WL, WR) . n| dU |S| with the
/// Roe average of WL and WR and Harten's entropy fix exactly as in roe_flux (whose dissipation
/// is this operator applied to U_R - U_L, to first order). The matrix counterpart of
/// spectral_radius for the implicit operators (LU-SGS with lusgs_dissipation = roe, the
/// Newton-Krylov preconditioner's blocks).
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
