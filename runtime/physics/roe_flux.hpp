#pragma once
/// \file roe_flux.hpp
/// Roe's approximate Riemann solver with Harten's entropy fix (Blazek, "Computational Fluid
/// Dynamics", §4.3.3 form of the dissipation), FV_HOST_DEVICE.
#include "runtime/physics/euler_state.hpp"

namespace fv::phys {

/// Harten's entropy fix: |lambda| replaced by (lambda^2 + delta^2) / (2 delta) below delta.
FV_HOST_DEVICE FV_FORCEINLINE real_t harten_abs(real_t lambda, real_t delta) {
  const real_t a = std::fabs(lambda);
  return a >= delta ? a : (lambda * lambda + delta * delta) / (2.0 * delta);
}

/// Roe flux through area vector S from the left (owner) state WL to the right state WR,
/// primitive variables. entropy_fix is Harten's delta as a fraction of (|V_n| + c) of the Roe
/// average (0 disables it). F receives the flux integrated over the face (times |S|).
FV_HOST_DEVICE inline void roe_flux(const real_t* WL, const real_t* WR, const real_t* S,
                                    real_t gamma, real_t entropy_fix, real_t* F) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nx = S[0] / area, ny = S[1] / area, nz = S[2] / area;
  const real_t n[3] = {nx, ny, nz};

  real_t FL[5], FR[5];
  physical_flux(WL, n, gamma, FL);
  physical_flux(WR, n, gamma, FR);

  // Roe averages
  const real_t HL = total_enthalpy(WL, gamma), HR = total_enthalpy(WR, gamma);
  const real_t sL = std::sqrt(WL[0]), sR = std::sqrt(WR[0]);
  const real_t inv = 1.0 / (sL + sR);
  const real_t rho = sL * sR;
  const real_t u = (sL * WL[1] + sR * WR[1]) * inv;
  const real_t v = (sL * WL[2] + sR * WR[2]) * inv;
  const real_t w = (sL * WL[3] + sR * WR[3]) * inv;
  const real_t H = (sL * HL + sR * HR) * inv;
  const real_t q2 = u * u + v * v + w * w;
  real_t c2 = (gamma - 1.0) * (H - 0.5 * q2);
  c2 = c2 > 1e-300 ? c2 : 1e-300;
  const real_t c = std::sqrt(c2);
  const real_t Vn = u * nx + v * ny + w * nz;

  // jumps
  const real_t dr = WR[0] - WL[0];
  const real_t du = WR[1] - WL[1], dv = WR[2] - WL[2], dw = WR[3] - WL[3];
  const real_t dp = WR[4] - WL[4];
  const real_t dVn = du * nx + dv * ny + dw * nz;

  // eigenvalues with the entropy fix
  const real_t delta = entropy_fix * (std::fabs(Vn) + c);
  real_t l1 = std::fabs(Vn - c), l2 = std::fabs(Vn), l5 = std::fabs(Vn + c);
  if (delta > 0.0) {
    l1 = harten_abs(Vn - c, delta);
    l2 = harten_abs(Vn, delta);
    l5 = harten_abs(Vn + c, delta);
  }

  const real_t a1 = l1 * (dp - rho * c * dVn) / (2.0 * c2);
  const real_t a5 = l5 * (dp + rho * c * dVn) / (2.0 * c2);
  const real_t a2 = l2 * (dr - dp / c2);
  const real_t a3 = l2 * rho;

  real_t D[5];
  D[0] = a1 + a2 + a5;
  D[1] = a1 * (u - c * nx) + a2 * u + a3 * (du - dVn * nx) + a5 * (u + c * nx);
  D[2] = a1 * (v - c * ny) + a2 * v + a3 * (dv - dVn * ny) + a5 * (v + c * ny);
  D[3] = a1 * (w - c * nz) + a2 * w + a3 * (dw - dVn * nz) + a5 * (w + c * nz);
  D[4] = a1 * (H - c * Vn) + a2 * 0.5 * q2 + a3 * (u * du + v * dv + w * dw - Vn * dVn) +
         a5 * (H + c * Vn);

  for (int k = 0; k < 5; ++k)
    F[k] = 0.5 * (FL[k] + FR[k] - D[k]) * area;
}

} // namespace fv::phys
