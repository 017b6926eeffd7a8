#pragma once
/// \file portable_math.hpp
/// Transcendental functions that give bitwise the same result on the CPU and the GPU
/// (FV_HOST_DEVICE). The C library's pow/exp/log and CUDA's differ in the last bits, and the
/// Newton-Krylov solver amplifies such differences: a Jacobian-free product divides a residual
/// difference by a step of ~1e-7, and the preconditioner's boundary Jacobians by finite
/// differences of ~1e-5, so one ulp in a far-field ghost state became a 1e-5 relative
/// difference between the GPU and the CPU residual histories after 50 iterations. These are
/// built from +, -, *, / and frexp/ldexp only (exact IEEE operations in a fixed order; the
/// CUDA build contracts no fused multiply-adds, FV_CUDA_FMAD=OFF), accurate to a few ulp.
#include "common/types.hpp"

#include <cmath>

namespace fv::phys {

/// Natural logarithm of x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s),
/// s = (m - 1) / (m + 1), |s| < 0.172, by its series to s^23.
FV_HOST_DEVICE inline real_t portable_log(real_t x) {
  int e = 0;
  real_t m = std::frexp(x, &e); // x = m 2^e, m in [1/2, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --e;
  }
  const real_t s = (m - 1.0) / (m + 1.0), s2 = s * s;
  real_t t = 1.0 / 23.0;
  for (int k = 21; k >= 1; k -= 2)
    t = 1.0 / k + s2 * t;
  constexpr real_t ln2hi = 6.93147180369123816490e-01, ln2lo = 1.90821492927058770002e-10;
  const real_t de = static_cast<real_t>(e);
  return de * ln2hi + (2.0 * s * t + de * ln2lo);
}

/// e^t: t = k ln 2 + r, |r| <= ln 2 / 2, e^r by its Taylor series to r^14, then 2^k (ldexp).
FV_HOST_DEVICE inline real_t portable_exp(real_t t) {
  if (t > 709.0) return HUGE_VAL;
  if (t < -745.0) return 0.0;
  constexpr real_t ln2hi = 6.93147180369123816490e-01, ln2lo = 1.90821492927058770002e-10;
  const real_t k = std::floor(t * 1.44269504088896338700 + 0.5);
  const real_t r = (t - k * ln2hi) - k * ln2lo;
  real_t p = 1.0;
  for (int n = 14; n >= 1; --n)
    p = 1.0 + r * p / n;
  return std::ldexp(p, static_cast<int>(k));
}

/// x^y for x > 0 (e^(y log x)).
FV_HOST_DEVICE inline real_t portable_pow(real_t x, real_t y) {
  return portable_exp(y * portable_log(x));
}

} // namespace fv::phys
