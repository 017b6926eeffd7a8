#pragma once
/// \file block5.hpp
/// 5x5 block algebra of the implicit operators (FV_HOST_DEVICE, row-major): inverse, product,
/// and block-vector products on cell fields of stride n.
#include "common/types.hpp"

#include <cmath>

namespace fv::phys {

/// Inverts the 5x5 row-major matrix A into Ainv by Gauss-Jordan elimination with partial
/// pivoting; returns false (Ainv unspecified) when a pivot is zero or not finite.
FV_HOST_DEVICE inline bool invert5(const real_t* A, real_t* Ainv) {
  real_t a[5][10];
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 10; ++c)
      a[r][c] = c < 5 ? A[5 * r + c] : (c - 5 == r ? 1.0 : 0.0);
  for (int col = 0; col < 5; ++col) {
    int piv = col;
    for (int r = col + 1; r < 5; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[piv][col])) piv = r;
    const real_t p = a[piv][col];
    if (!(std::fabs(p) > 0.0) || !std::isfinite(p)) return false;
    if (piv != col)
      for (int c = 0; c < 10; ++c) {
        const real_t t = a[col][c];
        a[col][c] = a[piv][c];
        a[piv][c] = t;
      }
    const real_t inv = 1.0 / p;
    for (int c = 0; c < 10; ++c)
      a[col][c] *= inv;
    for (int r = 0; r < 5; ++r) {
      if (r == col) continue;
      const real_t f = a[r][col];
      if (f == 0.0) continue;
      for (int c = 0; c < 10; ++c)
        a[r][c] -= f * a[col][c];
    }
  }
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c)
      Ainv[5 * r + c] = a[r][c + 5];
  return true;
}

/// C = A B (5x5, row-major; C must not alias A or B).
FV_HOST_DEVICE FV_FORCEINLINE void multiply5(const real_t* A, const real_t* B, real_t* C) {
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c) {
      real_t s = 0.0;
      for (int k = 0; k < 5; ++k)
        s += A[5 * r + k] * B[5 * k + c];
      C[5 * r + c] = s;
    }
}

/// y += M x_j for the 5 components of cell j of a field of stride n.
FV_HOST_DEVICE FV_FORCEINLINE void add_block_times(const real_t* M, const real_t* x, idx_t n,
                                                   idx_t j, real_t* y) {
  real_t xj[5];
  for (int k = 0; k < 5; ++k)
    xj[k] = x[k * n + j];
  for (int r = 0; r < 5; ++r)
    y[r] += M[5 * r] * xj[0] + M[5 * r + 1] * xj[1] + M[5 * r + 2] * xj[2] + M[5 * r + 3] * xj[3] +
            M[5 * r + 4] * xj[4];
}

/// out = M v (5-vectors, out must not alias v).
FV_HOST_DEVICE FV_FORCEINLINE void block_times(const real_t* M, const real_t* v, real_t* out) {
  for (int r = 0; r < 5; ++r)
    out[r] = M[5 * r] * v[0] + M[5 * r + 1] * v[1] + M[5 * r + 2] * v[2] + M[5 * r + 3] * v[3] +
             M[5 * r + 4] * v[4];
}

} // namespace fv::phys
