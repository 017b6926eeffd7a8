#pragma once
/// \file forall_blocks.hpp
/// Blocks of cooperating threads with an explicitly managed scratch (CUDA shared memory), for
/// kernels that stage data on chip before reducing it (FlowStar §4.3):
///
///   fv::forall_blocks<128, real_t, 5120>("flux_sum_smem", nBlocks,
///       [=] FV_HOST_DEVICE (idx_t b, int t, real_t* s) { ... stage into s ... },
///       [=] FV_HOST_DEVICE (idx_t b, int t, const real_t* s) { ... reduce from s ... });
///
/// For every block b in [0, nBlocks): `load(b, t, s)` for the Threads threads t of the block,
/// a barrier, then `reduce(b, t, s)` for the same threads. `s` holds SharedN values of T private
/// to the block (uninitialised). On the CUDA backend one CUDA block of Threads threads per b
/// with `s` in static shared memory (SharedN * sizeof(T) <= 48 KiB); on the CPU the blocks are
/// spread over the OpenMP threads and each runs its threads one after the other, phase by
/// phase, on a per-thread scratch: the same arithmetic in the same order on both backends.
#include "runtime/backend/forall.hpp"

#include <vector>

namespace fv {

#if defined(FV_BACKEND_CUDA)
namespace detail {
template <int Threads, class T, int SharedN, class L, class R>
__global__ void __launch_bounds__(Threads) forall_blocks_kernel(idx_t nBlocks, L load, R reduce) {
  __shared__ T s[SharedN];
  const idx_t b = static_cast<idx_t>(blockIdx.x);
  if (b >= nBlocks) return;
  load(b, static_cast<int>(threadIdx.x), s);
  __syncthreads();
  reduce(b, static_cast<int>(threadIdx.x), static_cast<const T*>(s));
}
} // namespace detail
#endif

template <int Threads, class T, int SharedN, class L, class R>
void forall_blocks(const char* label, idx_t nBlocks, L load, R reduce) {
  static_assert(Threads > 0 && Threads <= 1024, "forall_blocks: 1 to 1024 threads per block");
  static_assert(SharedN * sizeof(T) <= 48 * 1024, "forall_blocks: at most 48 KiB of scratch");
  if (nBlocks <= 0) return;
  const detail::ProfileScope profile(label);
#if defined(FV_BACKEND_CUDA)
  if (active_device() == Device::Cuda) {
    detail::forall_blocks_kernel<Threads, T, SharedN>
        <<<static_cast<unsigned>(nBlocks), Threads, 0, detail::current_stream()>>>(nBlocks, load,
                                                                                   reduce);
    detail::check_launch(label);
    return;
  }
#endif
#if defined(FV_HAVE_OPENMP)
#pragma omp parallel if (static_cast <long long>(nBlocks) * Threads >= kOpenMPMinLoop)
#endif
  {
    std::vector<T> s(SharedN);
#if defined(FV_HAVE_OPENMP)
#pragma omp for schedule(static)
#endif
    for (idx_t b = 0; b < nBlocks; ++b) {
      for (int t = 0; t < Threads; ++t)
        load(b, t, s.data());
      for (int t = 0; t < Threads; ++t)
        reduce(b, t, static_cast<const T*>(s.data()));
    }
  }
}

} // namespace fv
