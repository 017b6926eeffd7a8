#pragma once
/// \file reduce.hpp
/// Deterministic reductions on the active device, the one helper for RMS residuals, forces,
/// minimum time steps and health checks:
///
///   real_t sums[5];
///   fv::reduce<5>("rms", n, fv::ReduceOp::Sum,
///                 [=] FV_HOST_DEVICE (idx_t i, real_t* acc) { acc[0] += r[i] * r[i]; ... }, sums);
///
/// The index range is cut into fixed chunks of kReduceChunk; each chunk is folded in index
/// order and the host combines the chunk partials in chunk order. The summation order is
/// therefore the same on every backend and every thread count: CPU and GPU results agree to
/// rounding of the point-wise terms (bitwise when no FMA contraction differs) and runs repeat.
/// A chunk is one block of fv::forall_blocks: its threads evaluate the chunk's terms side by side
/// (coalesced loads on the GPU) into on-chip scratch, then one thread per component folds the
/// chunk's terms in index order; the fold is the same sequence of operations as folding f over
/// the chunk on one thread, so the results do not depend on this staging.
/// Must be called from a translation unit that the runtime compiles (nvcc with CUDA on).
#include "runtime/backend/forall_blocks.hpp"

#include <vector>

namespace fv {

enum class ReduceOp { Sum, Min, Max };

inline constexpr idx_t kReduceChunk = 256;

namespace backend {
/// The device partials and the page-locked read-back buffer of one reduction. Reductions in
/// flight at the same time (reduce_async) need a slot each; reduce() uses a thread-local one.
/// Move-only owner; memory of the device active when it was first used.
class ReduceSlot {
 public:
  ReduceSlot();
  ~ReduceSlot();
  ReduceSlot(ReduceSlot&&) noexcept;
  ReduceSlot& operator=(ReduceSlot&&) noexcept;
  ReduceSlot(const ReduceSlot&) = delete;
  ReduceSlot& operator=(const ReduceSlot&) = delete;
  /// Device scratch of at least n reals (grown on demand; contents not kept).
  real_t* device(std::size_t n);
  /// Queues the copy of n reals of the scratch from `offset` on to host memory on the current
  /// stream and returns where they will be (the scratch itself on the CPU): valid once the
  /// device has caught up (backend::synchronize), until the next use of the slot.
  const real_t* read_back(std::size_t n, std::size_t offset);

 private:
  struct Buffers;
  Buffers* b_ = nullptr;
};
/// The thread's slot of reduce() (and of kernels with their own two-pass reductions).
ReduceSlot& default_reduce_slot();
/// Device scratch of at least n reals of the default slot.
real_t* reduce_scratch(std::size_t n);
/// The `n` reals of the default slot's scratch from `offset` on, in host memory (waits).
const real_t* reduce_scratch_to_host(std::size_t n, std::size_t offset = 0);
} // namespace backend

/// A reduction launched by reduce_async(): its kernels and the copy of its last partials are
/// queued; get() waits for the device (once per call) and folds the partials in order.
class PendingReduce {
 public:
  PendingReduce() = default;
  /// Writes the N results to out[0..N) (N of reduce_async); the identity of op when n was 0.
  void get(real_t* out) const;
  int components() const { return nComponents; }

  // set by reduce_async()
  const real_t* host = nullptr; ///< m partials per component, component-major
  idx_t m = 0;
  int nComponents = 0;
  ReduceOp op = ReduceOp::Sum;
};

namespace detail {
/// Folds items [0, n) in chunks of kReduceChunk, each cut into P segments of kReduceChunk / P
/// items: load(i, acc) folds item i's N terms into acc (which starts at init); the fold of
/// component k over segment q of chunk c goes to part[k * (nChunks P) + c P + q], in index order
/// within the segment. Sums use P = 1 (the documented order); minima and maxima, whose result
/// does not depend on the order, P = 16 (16 threads per component fold the chunk).
template <int N, int P, class L>
void reduce_chunks(const char* label, idx_t n, ReduceOp op, real_t init, L load, real_t* part) {
  const idx_t nChunks = (n + kReduceChunk - 1) / kReduceChunk;
  constexpr int C = static_cast<int>(kReduceChunk), L_ = C / P;
  static_assert(C % P == 0 && N * P <= C, "reduce_chunks: P must divide the chunk");
  const int o = static_cast<int>(op);
  const idx_t m = nChunks * P; // partials per component
  forall_blocks<C, real_t, N * C>(
      label, nChunks,
      [=] FV_HOST_DEVICE(idx_t c, int t, real_t* s) { // thread t: the terms of item c C + t
        real_t acc[N];
        for (int k = 0; k < N; ++k)
          acc[k] = init;
        const idx_t i = c * kReduceChunk + t;
        if (i < n) load(i, acc);
        for (int k = 0; k < N; ++k)
          s[k * C + t] = acc[k];
      },
      [=] FV_HOST_DEVICE(idx_t c, int t, const real_t* s) { // thread k P + q: segment q of k
        if (t >= N * P) return;
        const int k = t / P, q = t % P;
        const idx_t rest = n - c * kReduceChunk - q * L_;
        const int len = rest <= 0 ? 0 : (rest < L_ ? static_cast<int>(rest) : L_);
        const real_t* term = s + k * C + q * L_;
        real_t a = init;
        if (o == static_cast<int>(ReduceOp::Sum))
          for (int j = 0; j < len; ++j)
            a += term[j];
        else if (o == static_cast<int>(ReduceOp::Min))
          for (int j = 0; j < len; ++j)
            a = term[j] < a ? term[j] : a;
        else
          for (int j = 0; j < len; ++j)
            a = term[j] > a ? term[j] : a;
        part[static_cast<std::size_t>(k) * m + c * P + q] = a;
      });
}
} // namespace detail

/// reduce() without waiting: queues the kernels and the read-back into `slot` (which must not
/// be reused before get()); several reductions can then share one wait. Chunks of kReduceChunk
/// (sums: one partial per chunk and component, in index order; minima and maxima: 16 per
/// chunk), then, for minima and maxima only, levels that fold the partials 256 to 1 on the
/// device until at most kReduceChunk per component are left (each level's partials follow the
/// previous level's in the scratch).
template <int N, class F>
PendingReduce reduce_async(backend::ReduceSlot& slot, const char* label, idx_t n, ReduceOp op,
                           F f) {
  static_assert(N >= 1 && N <= 16, "reduce: 1 to 16 components");
  PendingReduce out;
  out.nComponents = N;
  out.op = op;
  if (n <= 0) return out;
  const real_t init = op == ReduceOp::Sum ? 0.0 : (op == ReduceOp::Min ? 1e300 : -1e300);
  constexpr int P = 16; // segments per chunk of the order-independent folds (min, max)
  const bool sum = op == ReduceOp::Sum;
  const idx_t nChunks = (n + kReduceChunk - 1) / kReduceChunk;
  idx_t m = sum ? nChunks : nChunks * P; // partials per component of the current level
  std::size_t total = static_cast<std::size_t>(m) * N;
  for (idx_t k = m; !sum && k > kReduceChunk;) {
    k = (k + kReduceChunk - 1) / kReduceChunk;
    total += static_cast<std::size_t>(k) * N;
  }
  real_t* part = slot.device(total);
  std::size_t at = 0; // offset of the current level's partials in the scratch
  if (sum)
    detail::reduce_chunks<N, 1>(label, n, op, init, f, part);
  else
    detail::reduce_chunks<N, P>(label, n, op, init, f, part);
  while (!sum && m > kReduceChunk) {
    const real_t* prev = part + at;
    const idx_t pm = m;
    at += static_cast<std::size_t>(pm) * N;
    detail::reduce_chunks<N, 1>(
        label, pm, op, init,
        [=] FV_HOST_DEVICE(idx_t i, real_t * acc) {
          for (int k = 0; k < N; ++k)
            acc[k] = prev[static_cast<std::size_t>(k) * pm + i];
        },
        part + at);
    m = (pm + kReduceChunk - 1) / kReduceChunk;
  }
  out.host = slot.read_back(static_cast<std::size_t>(m) * N, at);
  out.m = m;
  return out;
}

/// out[k] = op over i in [0, n) of the N values that f(i, acc) folds into acc (acc starts at
/// the identity of op: 0, +inf or -inf). f folds exactly one term t_k(i) into each acc[k]:
/// acc[k] += t_k (Sum) or acc[k] = min/max(acc[k], t_k) (Min/Max), e.g. acc[0] = min(acc[0], x);
/// the terms are evaluated as f(i, identity) and folded here, in index order. Sums read the
/// chunk partials back and add them on the host in chunk order; minima and maxima, which do not
/// depend on the order, fold each chunk with 16 threads per component and the partials on the
/// device (chunks of chunks) and read back at most kReduceChunk per component.
template <int N, class F>
void reduce(const char* label, idx_t n, ReduceOp op, F f, real_t (&out)[N]) {
  reduce_async<N>(backend::default_reduce_slot(), label, n, op, f).get(out);
}

} // namespace fv
