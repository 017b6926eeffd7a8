#pragma once
/// \file bc_states.hpp
/// Boundary (ghost) states of the Euler equations, FV_HOST_DEVICE. The boundary flux of a face
/// is the Riemann flux between the interior state at the face and the ghost state returned
/// here, so every boundary type is one point-wise function of (interior state, outward unit
/// normal, patch parameters).
#include "common/enum_names.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/portable_math.hpp"

namespace fv::phys {

/// Boundary condition types (values are used in kernels; names, kBcTypeNames, in case files).
enum class BcType : int {
  Farfield = 0,          ///< characteristic far field (Riemann invariants) with the reference state
  SlipWall = 1,          ///< inviscid wall: mirrored normal velocity
  Symmetry = 2,          ///< symmetry plane: same state as a slip wall
  SupersonicInflow = 3,  ///< all characteristics enter: ghost = reference state
  SupersonicOutflow = 4, ///< all characteristics leave: ghost = interior state
  SubsonicOutflow = 5,   ///< static pressure imposed, rest extrapolated
  SubsonicInflow = 6,    ///< total pressure, total temperature and flow direction imposed
  NoSlipWall = 7         ///< viscous wall: the fluid moves with the wall (ghost velocity mirrored
                         ///< through the wall velocity); adiabatic or isothermal
};

/// The case-file names of the boundary condition types (common/enum_names.hpp).
inline constexpr EnumName<BcType> kBcTypeNames[] = {
    {BcType::Farfield, "farfield"},
    {BcType::SlipWall, "slip_wall"},
    {BcType::Symmetry, "symmetry"},
    {BcType::SupersonicInflow, "supersonic_inflow"},
    {BcType::SupersonicOutflow, "supersonic_outflow"},
    {BcType::SubsonicOutflow, "subsonic_outflow"},
    {BcType::SubsonicInflow, "subsonic_inflow"},
    {BcType::NoSlipWall, "no_slip_wall"},
};

/// Parameters of one patch, trivially copyable (captured by value in kernels).
struct BcParams {
  BcType type = BcType::Farfield;
  real_t gamma = 1.4;
  real_t gasConstant = 287.05;        ///< R, J/(kg K) (or non-dimensional)
  real_t ref[5] = {1, 0, 0, 0, 1};    ///< reference primitive state (far field / inflow)
  real_t pressure = 1;                ///< static pressure (subsonic outflow)
  real_t totalPressure = 1;           ///< p0 (subsonic inflow)
  real_t totalTemperature = 1;        ///< T0 (subsonic inflow)
  real_t direction[3] = {0, 0, 0};    ///< inflow direction (unit); zero = along -normal
  real_t wallTemperature = 0;         ///< no-slip wall: imposed temperature, K; <= 0: adiabatic
  real_t wallVelocity[3] = {0, 0, 0}; ///< no-slip wall: velocity of the wall, m/s
  real_t nuTilde = 0; ///< RANS (Spalart-Allmaras): nu-tilde entering at far field / inflow, m^2/s
};

/// Ghost state of a no-slip wall moving with velocity u_w: same density and pressure, velocity
/// 2 u_w - u, so that the face velocity of the Riemann problem is the wall's.
FV_HOST_DEVICE FV_FORCEINLINE void no_slip_state(const real_t* W, const BcParams& b, real_t* G) {
  G[0] = W[0];
  for (int d = 0; d < 3; ++d)
    G[1 + d] = 2.0 * b.wallVelocity[d] - W[1 + d];
  G[4] = W[4];
}

/// Mirror of W in the plane with unit normal n (normal velocity reversed).
FV_HOST_DEVICE FV_FORCEINLINE void mirror_state(const real_t* W, const real_t* n, real_t* G) {
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

/// Ghost state of boundary type b.type for interior state Wi at a face with outward unit
/// normal n.
FV_HOST_DEVICE inline void ghost_state(const real_t* Wi, const real_t* n, const BcParams& b,
                                       real_t* G) {
  switch (b.type) {
  case BcType::Farfield:
    farfield_state(Wi, n, b, G);
    break;
  case BcType::SlipWall:
  case BcType::Symmetry:
    mirror_state(Wi, n, G);
    break;
  case BcType::SupersonicInflow:
    for (int k = 0; k < 5; ++k)
      G[k] = b.ref[k];
    break;
  case BcType::SupersonicOutflow:
    for (int k = 0; k < 5; ++k)
      G[k] = Wi[k];
    break;
  case BcType::SubsonicOutflow:
    subsonic_outflow_state(Wi, n, b, G);
    break;
  case BcType::SubsonicInflow:
    subsonic_inflow_state(Wi, n, b, G);
    break;
  case BcType::NoSlipWall:
    no_slip_state(Wi, b, G);
    break;
  }
}

} // namespace fv::phys
