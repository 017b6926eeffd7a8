#pragma once
/// \file barth_jespersen.hpp
/// Barth-Jespersen limiter (Barth & Jespersen 1989), FV_HOST_DEVICE.
#include "common/types.hpp"

namespace fv::phys {

/// Limiter value for one face and one variable; arguments as venkat_phi (no epsilon).
FV_HOST_DEVICE FV_FORCEINLINE real_t barth_phi(real_t dmax, real_t dmin, real_t d2) {
  if (d2 > 0.0) {
    const real_t r = dmax / d2;
    return r < 1.0 ? r : 1.0;
  }
  if (d2 < 0.0) {
    const real_t r = dmin / d2;
    return r < 1.0 ? r : 1.0;
  }
  return 1.0;
}

} // namespace fv::phys
