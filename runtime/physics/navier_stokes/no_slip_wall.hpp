#pragma once
/// \file no_slip_wall.hpp
/// The no-slip wall's row of the boundary-condition table (physics/bc_table.hpp), FV_HOST_DEVICE:
/// its ghost state for the convective flux and the parameters of its patches. Its viscous flux
/// (the wall's velocity and temperature at the face) is the BcFace::NoSlip case of
/// face_viscous.hpp, the transported scalars' wall value the BcScalars::Zero case of the model's
/// ghost (physics/sa/sa_model.hpp).
#include "runtime/physics/bc_table.hpp"

namespace fv::phys {

/// Ghost state of a no-slip wall moving with velocity u_w: same density and pressure, velocity
/// 2 u_w - u, so that the face velocity of the Riemann problem is the wall's.
FV_HOST_DEVICE FV_FORCEINLINE void no_slip_state(const real_t* W, const real_t*, const BcParams& b,
                                                 real_t* G) {
  G[kDensity] = W[kDensity];
  for (int d = 0; d < 3; ++d)
    G[kVelocity + d] = 2.0 * b.wallVelocity[d] - W[kVelocity + d];
  G[kPressure] = W[kPressure];
}

/// A no-slip wall's temperature (0: adiabatic) and velocity.
inline void no_slip_wall_params(const BcKeys& k, BcParams& b) {
  b.wallTemperature = k.wallTemperature;
  for (int i = 0; i < 3; ++i)
    b.wallVelocity[i] = k.wallVelocity[i];
}

} // namespace fv::phys
