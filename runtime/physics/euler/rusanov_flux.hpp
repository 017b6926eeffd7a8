#pragma once
/// \file rusanov_flux.hpp
/// Rusanov (local Lax-Friedrichs) flux, FV_HOST_DEVICE.
#include "runtime/physics/euler/euler_state.hpp"

namespace fv::phys {

/// Rusanov flux through area vector S from WL to WR (primitive). F is integrated over the face.
FV_HOST_DEVICE inline void rusanov_flux(const real_t* WL, const real_t* WR, const real_t* S,
                                        real_t gamma, real_t* F) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  real_t FL[5], FR[5], UL[5], UR[5];
  physical_flux(WL, S, gamma, FL);
  physical_flux(WR, S, gamma, FR);
  prim_to_cons(WL, UL, gamma);
  prim_to_cons(WR, UR, gamma);
  const real_t VL = std::fabs(WL[1] * S[0] + WL[2] * S[1] + WL[3] * S[2]) / area;
  const real_t VR = std::fabs(WR[1] * S[0] + WR[2] * S[1] + WR[3] * S[2]) / area;
  const real_t sL = VL + sound_speed(WL, gamma), sR = VR + sound_speed(WR, gamma);
  const real_t smax = sL > sR ? sL : sR;
  for (int k = 0; k < 5; ++k)
    F[k] = 0.5 * (FL[k] + FR[k]) - 0.5 * smax * area * (UR[k] - UL[k]);
}

} // namespace fv::phys
