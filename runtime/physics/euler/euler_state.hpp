#pragma once
/// \file euler_state.hpp
/// Point-wise state conversions of the compressible Euler equations for an ideal gas, shared by
/// both backends (FV_HOST_DEVICE, no allocation, no library calls beyond <cmath>).
///
/// Conservative state U = (rho, rho u, rho v, rho w, rho E); primitive W = (rho, u, v, w, p).
/// Units are consistent SI (kg/m^3, m/s, Pa) or non-dimensional, as the case chooses.
#include "common/types.hpp"

#include <cmath>

namespace fv::phys {

/// Named indices of the mean flow's variables, the first kNumEq of every model's state (the one
/// place that numbers them; the code outside physics/euler/ indexes states through these names).
inline constexpr int kDensity = 0;  ///< rho (conservative and primitive)
inline constexpr int kMomentum = 1; ///< rho u, rho v, rho w: kMomentum + d (conservative)
inline constexpr int kVelocity = 1; ///< u, v, w: kVelocity + d (primitive)
inline constexpr int kEnergy = 4;   ///< rho E (conservative)
inline constexpr int kPressure = 4; ///< p (primitive)
inline constexpr int kNumEq = 5;    ///< the mean flow's equations / state components
/// Reals in one row-major block of the mean flow's Jacobian (kNumEq x kNumEq).
inline constexpr int kBlockSize = kNumEq * kNumEq;

/// Conservative -> primitive.
FV_HOST_DEVICE FV_FORCEINLINE void cons_to_prim(const real_t* U, real_t* W, real_t gamma) {
  const real_t rho = U[0];
  const real_t inv = 1.0 / rho;
  const real_t u = U[1] * inv, v = U[2] * inv, w = U[3] * inv;
  W[0] = rho;
  W[1] = u;
  W[2] = v;
  W[3] = w;
  W[4] = (gamma - 1.0) * (U[4] - 0.5 * rho * (u * u + v * v + w * w));
}

/// Primitive -> conservative.
FV_HOST_DEVICE FV_FORCEINLINE void prim_to_cons(const real_t* W, real_t* U, real_t gamma) {
  const real_t rho = W[0];
  U[0] = rho;
  U[1] = rho * W[1];
  U[2] = rho * W[2];
  U[3] = rho * W[3];
  U[4] = W[4] / (gamma - 1.0) + 0.5 * rho * (W[1] * W[1] + W[2] * W[2] + W[3] * W[3]);
}

/// Speed of sound sqrt(gamma p / rho).
FV_HOST_DEVICE FV_FORCEINLINE real_t sound_speed(const real_t* W, real_t gamma) {
  return std::sqrt(gamma * W[4] / W[0]);
}

/// max(M - 1, 0) of the primitive state W, M = |u| / c: how far the flow is supersonic (the
/// sensor of [scheme] limiter_region = supersonic).
FV_HOST_DEVICE FV_FORCEINLINE real_t supersonic_excess(const real_t* W, real_t gamma) {
  const real_t a = sound_speed(W, gamma);
  const real_t m2 = (W[1] * W[1] + W[2] * W[2] + W[3] * W[3]) / (a * a);
  return m2 > 1.0 ? std::sqrt(m2) - 1.0 : 0.0;
}

/// Total enthalpy H = gamma/(gamma-1) p/rho + |u|^2/2.
FV_HOST_DEVICE FV_FORCEINLINE real_t total_enthalpy(const real_t* W, real_t gamma) {
  return gamma / (gamma - 1.0) * W[4] / W[0] + 0.5 * (W[1] * W[1] + W[2] * W[2] + W[3] * W[3]);
}

/// Physical flux through the area vector S (|S| = face area): F(W) . S.
FV_HOST_DEVICE FV_FORCEINLINE void physical_flux(const real_t* W, const real_t* S, real_t gamma,
                                                 real_t* F) {
  const real_t Vs = W[1] * S[0] + W[2] * S[1] + W[3] * S[2]; // u . S
  const real_t mdot = W[0] * Vs;
  F[0] = mdot;
  F[1] = mdot * W[1] + W[4] * S[0];
  F[2] = mdot * W[2] + W[4] * S[1];
  F[3] = mdot * W[3] + W[4] * S[2];
  F[4] = mdot * total_enthalpy(W, gamma);
}

/// True when the primitive state is physical (finite, rho > 0, p > 0).
FV_HOST_DEVICE FV_FORCEINLINE bool is_physical(const real_t* W) {
  // The comparisons are false for NaN, so NaN states are reported as unphysical.
  return W[0] > 0.0 && W[4] > 0.0 && W[0] < 1e300 && W[4] < 1e300 && W[1] == W[1] && W[2] == W[2] &&
         W[3] == W[3];
}

} // namespace fv::phys
