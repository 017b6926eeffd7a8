#pragma once
/// \file forall_levels.hpp
/// Independent blocks, each a sequence of levels swept in order, in ONE launch:
///
///   fv::forall_block_levels<256>("ilu_forward", schedule,
///       [=] FV_HOST_DEVICE (fv::idx_t i) { ... }, /*reverse=*/false);
///
/// Block b holds the levels schedule.blockLevels[b] .. blockLevels[b+1]-1; level l holds the
/// indices [levelOffsets[l], levelOffsets[l+1]). f(i) runs for every index of a block's first
/// level, then of its second, ... (reverse: last level first), every write of a level visible
/// to the later levels of the same block; indices of one level run in parallel, and blocks run
/// independently (f must not make a block read what another block writes). On the CUDA
/// backend one CUDA block of Threads threads per schedule block, __syncthreads() between its
/// levels: a sequential sweep of many small levels costs one launch instead of one launch per
/// level (the block ILU preconditioner's sweeps). On the CPU the blocks are spread over the
/// OpenMP threads, each block's levels in order on one thread: the same per-index work in the
/// same order within a block, hence bitwise the same results.
#include "runtime/backend/forall.hpp"

namespace fv {

/// A non-owning view of the blocks and levels of fv::forall_block_levels (host and device copies
/// of the same offsets; the owner keeps them alive).
struct LevelSchedule {
  idx_t nBlocks = 0;
  const idx_t* hostBlockLevels = nullptr;    ///< nBlocks + 1, host
  const idx_t* deviceBlockLevels = nullptr;  ///< the same on the device
  const idx_t* hostLevelOffsets = nullptr;   ///< levels + 1, host
  const idx_t* deviceLevelOffsets = nullptr; ///< the same on the device
};

#if defined(FV_BACKEND_CUDA)
namespace detail {
template <int Threads, class F>
__global__ void __launch_bounds__(Threads)
    forall_block_levels_kernel(const idx_t* blockLevels, const idx_t* off, int reverse, F f) {
  const idx_t b = static_cast<idx_t>(blockIdx.x);
  const idx_t l0 = blockLevels[b], l1 = blockLevels[b + 1];
  for (idx_t k = 0; k < l1 - l0; ++k) {
    const idx_t l = reverse ? l1 - 1 - k : l0 + k;
    const idx_t e = off[l + 1];
    for (idx_t i = off[l] + static_cast<idx_t>(threadIdx.x); i < e; i += Threads)
      f(i);
    __syncthreads(); // the level's global writes are visible to the block's next level
  }
}
} // namespace detail
#endif

template <int Threads, class F>
void forall_block_levels(const char* label, const LevelSchedule& s, F&& f, bool reverse = false) {
  static_assert(Threads > 0 && Threads <= 1024, "forall_block_levels: 1 to 1024 threads");
  if (s.nBlocks <= 0) return;
  const detail::ProfileScope profile(label);
#if defined(FV_BACKEND_CUDA)
  if (active_device() == Device::Cuda) {
    using Fn = std::decay_t<F>;
    FV_VERIFY(s.deviceBlockLevels && s.deviceLevelOffsets,
              "forall_block_levels '" << label << "': no device offsets");
    detail::forall_block_levels_kernel<Threads, Fn>
        <<<static_cast<unsigned>(s.nBlocks), Threads, 0, detail::current_stream()>>>(
            s.deviceBlockLevels, s.deviceLevelOffsets, reverse ? 1 : 0, Fn(f));
    detail::check_launch(label);
    return;
  }
#endif
  (void)label;
  const idx_t* bl = s.hostBlockLevels;
  const idx_t* off = s.hostLevelOffsets;
  FV_ASSERT(bl && off, "forall_block_levels: no host offsets");
  const idx_t nb = s.nBlocks;
#if defined(FV_HAVE_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) if (off[bl[nb]] - off[bl[0]] >= kOpenMPMinLoop)
#endif
  for (idx_t b = 0; b < nb; ++b) {
    const idx_t l0 = bl[b], l1 = bl[b + 1];
    for (idx_t k = 0; k < l1 - l0; ++k) {
      const idx_t l = reverse ? l1 - 1 - k : l0 + k;
      for (idx_t i = off[l]; i < off[l + 1]; ++i)
        f(i);
    }
  }
}

} // namespace fv
