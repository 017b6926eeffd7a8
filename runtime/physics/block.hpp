#pragma once
/// \file block.hpp
/// N x N block algebra of the implicit operators (FV_HOST_DEVICE, row-major) for a state of N
/// variables: inverse, product and block-vector products on cell fields of stride n. N = 5
/// forwards to physics/euler/block5.hpp (whose hand-unrolled sums the mean-flow results were
/// measured with), other N use the same algorithms as loops.
#include "runtime/physics/euler/block5.hpp"
#include "runtime/physics/euler/euler_state.hpp"

namespace fv::phys {

/// Inverts the N x N matrix A into Ainv by Gauss-Jordan elimination with partial pivoting;
/// false (Ainv unspecified) when a pivot is zero or not finite.
template <int N>
FV_HOST_DEVICE inline bool invert(const real_t* A, real_t* Ainv) {
  if constexpr (N == kNumEq) {
    return invert5(A, Ainv);
  } else {
    real_t a[N][2 * N];
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < 2 * N; ++c)
        a[r][c] = c < N ? A[N * r + c] : (c - N == r ? 1.0 : 0.0);
    for (int col = 0; col < N; ++col) {
      int piv = col;
      for (int r = col + 1; r < N; ++r)
        if (std::fabs(a[r][col]) > std::fabs(a[piv][col])) piv = r;
      const real_t p = a[piv][col];
      if (!(std::fabs(p) > 0.0) || !std::isfinite(p)) return false;
      if (piv != col)
        for (int c = 0; c < 2 * N; ++c) {
          const real_t t = a[col][c];
          a[col][c] = a[piv][c];
          a[piv][c] = t;
        }
      const real_t inv = 1.0 / p;
      for (int c = 0; c < 2 * N; ++c)
        a[col][c] *= inv;
      for (int r = 0; r < N; ++r) {
        if (r == col) continue;
        const real_t f = a[r][col];
        if (f == 0.0) continue;
        for (int c = 0; c < 2 * N; ++c)
          a[r][c] -= f * a[col][c];
      }
    }
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c)
        Ainv[N * r + c] = a[r][c + N];
    return true;
  }
}

/// C = A B (N x N; C must not alias A or B).
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void multiply(const real_t* A, const real_t* B, real_t* C) {
  if constexpr (N == kNumEq) {
    multiply5(A, B, C);
  } else {
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c) {
        real_t s = 0.0;
        for (int k = 0; k < N; ++k)
          s += A[N * r + k] * B[N * k + c];
        C[N * r + c] = s;
      }
  }
}

/// y += M x_j for the N components of cell j of a field of stride n.
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void add_block_times(const real_t* M, const real_t* x, idx_t n,
                                                   idx_t j, real_t* y) {
  if constexpr (N == kNumEq) {
    add_block_times(M, x, n, j, y);
  } else {
    real_t xj[N];
    for (int k = 0; k < N; ++k)
      xj[k] = x[k * n + j];
    for (int r = 0; r < N; ++r) {
      real_t s = 0.0;
      for (int k = 0; k < N; ++k)
        s += M[N * r + k] * xj[k];
      y[r] += s;
    }
  }
}

/// out = M v (N-vectors, out must not alias v).
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void block_times(const real_t* M, const real_t* v, real_t* out) {
  if constexpr (N == kNumEq) {
    block_times(M, v, out);
  } else {
    for (int r = 0; r < N; ++r) {
      real_t s = 0.0;
      for (int k = 0; k < N; ++k)
        s += M[N * r + k] * v[k];
      out[r] = s;
    }
  }
}

} // namespace fv::phys
