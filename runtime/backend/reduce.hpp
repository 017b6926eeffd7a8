#pragma once
/// \file reduce.hpp
/// Deterministic reductions on the active device, the one helper for RMS residuals, forces,
/// minimum time steps and health checks:
///
///   real_t sums[5];
///   fv::reduce<5>("rms", n, fv::ReduceOp::Sum,
///                 [=] FV_HOST_DEVICE (idx_t i, real_t* acc) { acc[0] += r[i] * r[i]; ... }, sums);
///
/// The index range is cut into fixed chunks of kReduceChunk; one thread sums a chunk in index
/// order and the host combines the chunk partials in chunk order. The summation order is
/// therefore the same on every backend and every thread count: CPU and GPU results agree to
/// rounding of the point-wise terms (bitwise when no FMA contraction differs) and runs repeat.
/// Must be called from a translation unit that the runtime compiles (nvcc with CUDA on).
#include "runtime/backend/forall.hpp"

#include <vector>

namespace fv {

enum class ReduceOp { Sum, Min, Max };

inline constexpr idx_t kReduceChunk = 256;

namespace backend {
/// Device scratch of at least n reals, reused between reductions (grown on demand).
real_t* reduce_scratch(std::size_t n);
/// Copies `n` reals of the scratch to host memory.
void reduce_scratch_to_host(real_t* dst, std::size_t n);
} // namespace backend

/// out[k] = op over i in [0, n) of the N values that f(i, acc) folds into acc (acc starts at
/// the identity of op: 0, +inf or -inf; f updates acc[k] itself, e.g. acc[0] = min(acc[0], x)).
template <int N, class F>
void reduce(const char* label, idx_t n, ReduceOp op, F f, real_t (&out)[N]) {
  const real_t init = op == ReduceOp::Sum ? 0.0 : (op == ReduceOp::Min ? 1e300 : -1e300);
  for (int k = 0; k < N; ++k)
    out[k] = init;
  if (n <= 0) return;
  const idx_t nChunks = (n + kReduceChunk - 1) / kReduceChunk;
  real_t* part = backend::reduce_scratch(static_cast<std::size_t>(nChunks) * N);
  forall(label, nChunks, [=] FV_HOST_DEVICE(idx_t c) {
    real_t acc[N];
    for (int k = 0; k < N; ++k)
      acc[k] = init;
    const idx_t b = c * kReduceChunk;
    const idx_t e = b + kReduceChunk < n ? b + kReduceChunk : n;
    for (idx_t i = b; i < e; ++i)
      f(i, acc);
    for (int k = 0; k < N; ++k)
      part[static_cast<std::size_t>(k) * nChunks + c] = acc[k];
  });
  std::vector<real_t> h(static_cast<std::size_t>(nChunks) * N);
  backend::reduce_scratch_to_host(h.data(), h.size());
  for (int k = 0; k < N; ++k)
    for (idx_t c = 0; c < nChunks; ++c) {
      const real_t v = h[static_cast<std::size_t>(k) * nChunks + c];
      if (op == ReduceOp::Sum)
        out[k] += v;
      else if (op == ReduceOp::Min)
        out[k] = v < out[k] ? v : out[k];
      else
        out[k] = v > out[k] ? v : out[k];
    }
}

} // namespace fv
