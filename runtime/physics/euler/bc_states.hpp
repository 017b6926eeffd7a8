#pragma once
/// \file bc_states.hpp
/// Boundary (ghost) states of the Euler equations, FV_HOST_DEVICE, and the parameters of their
/// patches: the mean flow's rows of the boundary-condition table (physics/bc_table.hpp). The
/// boundary flux of a face is the Riemann flux between the interior state at the face and the
/// ghost state returned here, so every boundary type is one point-wise function of (interior
/// state, outward unit normal, patch parameters).
#include "runtime/physics/bc_table.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/portable_math.hpp"

namespace fv::phys {

/// Mirror of W in the plane with unit normal n (normal velocity reversed): slip walls and
/// symmetry planes.
FV_HOST_DEVICE FV_FORCEINLINE void mirror_state(const real_t* W, const real_t* n, const BcParams&,
                                                real_t* G) {
  const real_t vn = W[1] * n[0] + W[2] * n[1] + W[3] * n[2];
  G[0] = W[0];
  G[1] = W[1] - 2.0 * vn * n[0];
  G[2] = W[2] - 2.0 * vn * n[1];
  G[3] = W[3] - 2.0 * vn * n[2];
  G[4] = W[4];
}

/// Characteristic far field: Riemann invariants R+ = Vn + 2c/(g-1) from the side the
/// characteristic comes from; entropy and tangential velocity from upstream. Supersonic
/// normal flow takes everything from upstream.
FV_HOST_DEVICE inline void farfield_state(const real_t* Wi, const real_t* n, const BcParams& b,
                                          real_t* G) {
  const real_t g = b.gamma;
  const real_t* Wf = b.ref;
  const real_t vni = Wi[1] * n[0] + Wi[2] * n[1] + Wi[3] * n[2];
  const real_t vnf = Wf[1] * n[0] + Wf[2] * n[1] + Wf[3] * n[2];
  const real_t ci = sound_speed(Wi, g), cf = sound_speed(Wf, g);
  if (vni <= -ci) { // supersonic inflow: everything from the reference state
    for (int k = 0; k < 5; ++k)
      G[k] = Wf[k];
    return;
  }
  if (vni >= ci) { // supersonic outflow: everything from inside
    for (int k = 0; k < 5; ++k)
      G[k] = Wi[k];
    return;
  }
  const real_t rp = vni + 2.0 * ci / (g - 1.0); // outgoing
  const real_t rm = vnf - 2.0 * cf / (g - 1.0); // incoming
  const real_t vnb = 0.5 * (rp + rm);
  const real_t cb = 0.25 * (g - 1.0) * (rp - rm);
  const real_t* up = vnb < 0.0 ? Wf : Wi; // upstream side: entropy and tangential velocity
  const real_t vnu = up[1] * n[0] + up[2] * n[1] + up[3] * n[2];
  const real_t s = up[4] / portable_pow(up[0], g);
  const real_t rho = portable_pow(cb * cb / (g * s), 1.0 / (g - 1.0));
  G[0] = rho;
  G[1] = up[1] + (vnb - vnu) * n[0];
  G[2] = up[2] + (vnb - vnu) * n[1];
  G[3] = up[3] + (vnb - vnu) * n[2];
  G[4] = rho * cb * cb / g;
}

/// Subsonic outflow: static pressure imposed; density and velocity extrapolated. A locally
/// supersonic outflow extrapolates everything.
FV_HOST_DEVICE FV_FORCEINLINE void subsonic_outflow_state(const real_t* Wi, const real_t* n,
                                                          const BcParams& b, real_t* G) {
  const real_t vn = Wi[1] * n[0] + Wi[2] * n[1] + Wi[3] * n[2];
  for (int k = 0; k < 5; ++k)
    G[k] = Wi[k];
  if (vn < sound_speed(Wi, b.gamma)) G[4] = b.pressure;
}

/// Subsonic inflow: p0, T0 and direction imposed, static pressure extrapolated from inside
/// (capped just below p0 so that the inflow Mach number stays real).
FV_HOST_DEVICE inline void subsonic_inflow_state(const real_t* Wi, const real_t* n,
                                                 const BcParams& b, real_t* G) {
  const real_t g = b.gamma;
  real_t p = Wi[4];
  const real_t pmax = b.totalPressure * (1.0 - 1e-10);
  p = p < pmax ? p : pmax;
  const real_t m2 = 2.0 / (g - 1.0) * (portable_pow(b.totalPressure / p, (g - 1.0) / g) - 1.0);
  const real_t T = b.totalTemperature / (1.0 + 0.5 * (g - 1.0) * m2);
  const real_t rho = p / (b.gasConstant * T);
  const real_t speed = std::sqrt(m2 * g * b.gasConstant * T);
  real_t d[3] = {b.direction[0], b.direction[1], b.direction[2]};
  if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) {
    d[0] = -n[0];
    d[1] = -n[1];
    d[2] = -n[2];
  }
  G[0] = rho;
  G[1] = speed * d[0];
  G[2] = speed * d[1];
  G[3] = speed * d[2];
  G[4] = p;
}

/// Supersonic inflow: every characteristic enters, the ghost is the patch's reference state.
FV_HOST_DEVICE FV_FORCEINLINE void reference_state(const real_t*, const real_t*, const BcParams& b,
                                                   real_t* G) {
  for (int k = 0; k < kNumEq; ++k)
    G[k] = b.ref[k];
}

/// Supersonic outflow: every characteristic leaves, the ghost is the interior state.
FV_HOST_DEVICE FV_FORCEINLINE void interior_state(const real_t* Wi, const real_t*, const BcParams&,
                                                  real_t* G) {
  for (int k = 0; k < kNumEq; ++k)
    G[k] = Wi[k];
}

// ---- the patch parameters of the rows (host)

/// Supersonic inflow: the reference state of the patch's Mach number, static pressure and
/// temperature along its direction.
inline void supersonic_inflow_params(const BcKeys& k, BcParams& b) {
  const real_t rho = k.pressure / (b.gasConstant * k.temperature);
  const real_t V = k.mach * std::sqrt(b.gamma * k.pressure / rho);
  b.ref[0] = rho;
  for (int i = 0; i < 3; ++i)
    b.ref[1 + i] = V * k.direction[i];
  b.ref[4] = k.pressure;
}

/// Subsonic outflow: the imposed static pressure.
inline void subsonic_outflow_params(const BcKeys& k, BcParams& b) {
  b.pressure = k.pressure;
}

/// Subsonic inflow: total pressure, total temperature and, when given, the flow direction.
inline void subsonic_inflow_params(const BcKeys& k, BcParams& b) {
  b.totalPressure = k.totalPressure;
  b.totalTemperature = k.totalTemperature;
  if (k.directionGiven)
    for (int i = 0; i < 3; ++i)
      b.direction[i] = k.direction[i];
}

} // namespace fv::phys
