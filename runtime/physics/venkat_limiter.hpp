#pragma once
/// \file venkat_limiter.hpp
/// Venkatakrishnan's smooth limiter (Venkatakrishnan 1995, eq. (8) of the mesh-loop-modes
/// paper), FV_HOST_DEVICE.
#include "common/types.hpp"

namespace fv::phys {

/// Limiter value for one face of a cell and one variable.
///   d2   = grad q . (x_face - x_cell), the unlimited increment to the face
///   dmax = q_max - q_cell >= 0, dmin = q_min - q_cell <= 0 over the cell and its neighbours
///   eps2 = (K * dx)^3 with dx = V^(1/3)  (K = venkat_k)
/// Returns phi in [0, 1] (1 when d2 == 0).
FV_HOST_DEVICE FV_FORCEINLINE real_t venkat_phi(real_t dmax, real_t dmin, real_t d2, real_t eps2) {
  if (d2 == 0.0) return 1.0;
  const real_t d1 = d2 > 0.0 ? dmax : dmin;
  const real_t num = (d1 * d1 + eps2) + 2.0 * d2 * d1;
  const real_t den = d1 * d1 + 2.0 * d2 * d2 + d1 * d2 + eps2;
  const real_t phi = num / den;
  return phi < 1.0 ? phi : 1.0;
}

} // namespace fv::phys
