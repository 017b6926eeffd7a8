#pragma once
/// \file forall.hpp
/// The one dispatch point of fvkit's runtime, as MFEM's forall / AMReX's ParallelFor:
///
///   fv::forall("gradient", n, [=] FV_HOST_DEVICE (fv::idx_t i) { ... });
///
/// With CUDA (FV_HAVE_CUDA, translation unit compiled by nvcc) it launches a grid-stride kernel
/// on the current stream and checks the launch; otherwise it runs an OpenMP parallel loop (or a
/// serial loop without OpenMP). Backend #ifdefs live here and in backend/*.{hpp,cpp} only.
#include "common/error.hpp"
#include "common/types.hpp"

#include <type_traits>

#if defined(FV_HAVE_CUDA) && defined(__CUDACC__)
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#define FV_BACKEND_CUDA 1
#endif
#if defined(FV_HAVE_OPENMP)
#include <omp.h>
#endif

namespace fv {

/// Where kernels run.
enum class Device { Cpu, Cuda };

/// The active device for fv::forall (set once at start-up by the runtime).
Device active_device();
void set_active_device(Device d);

/// Name of the active backend for messages: "cuda" or "cpu (OpenMP, N threads)".
const char* backend_name();

namespace detail {
/// Kernel profiling hooks (runtime/backend/profiler.hpp; implemented in profiler.cpp). The
/// flag is set by fv::backend::profiling_start/stop; when it is off a launch costs one bool load.
inline bool g_profiling = false;
void profile_begin(const char* label);
void profile_end() noexcept;
/// Times the enclosing launch(es) under `label` while profiling is on.
struct ProfileScope {
  explicit ProfileScope(const char* label) : on(g_profiling) {
    if (on) profile_begin(label);
  }
  ~ProfileScope() {
    if (on) profile_end();
  }
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;
  bool on;
};
} // namespace detail

#if defined(FV_BACKEND_CUDA)
namespace detail {
template <class F>
__global__ void forall_kernel(idx_t n, F f) {
  for (idx_t i = static_cast<idx_t>(blockIdx.x * blockDim.x + threadIdx.x); i < n;
       i += static_cast<idx_t>(blockDim.x * gridDim.x))
    f(i);
}
void check_launch(const char* label); // cudaGetLastError() -> fv::Error naming the kernel
cudaStream_t current_stream();
/// Redirects fv::forall launches to stream s (nullptr: the default stream); used by
/// fv::KernelSequence while it captures a CUDA graph.
void set_current_stream(cudaStream_t s);
} // namespace detail
#endif

/// How fv::forall_groups runs its groups on the CUDA backend (the CPU backend ignores it).
enum class GroupLaunch {
  PerGroup,   ///< one fv::forall launch per group (capturable into a CUDA graph)
  Persistent, ///< one cooperative kernel for all groups, grid.sync() between groups
  Hybrid,     ///< Persistent, but runs of consecutive groups of at most one block's size are
              ///< swept by block 0 alone with __syncthreads() between them (grid.sync() only
              ///< around the groups that need the whole grid)
};

/// Consecutive groups of a loop's index space for fv::forall_groups: group g holds the indices
/// [offsets[g], offsets[g+1]), g < nGroups. A non-owning view: the same nGroups + 1 offsets on
/// the host (planning, CPU backend, per-group launches) and on the active device (persistent
/// kernels read them there). The owner builds both once and keeps them alive while in use.
struct GroupSchedule {
  idx_t nGroups = 0;
  const idx_t* hostOffsets = nullptr;   ///< host memory, nGroups + 1 non-decreasing values
  const idx_t* deviceOffsets = nullptr; ///< the same values in device memory of the backend
};

#if defined(FV_BACKEND_CUDA)
namespace detail {
/// Launch shape of a cooperative kernel: grid 0 means "cannot launch cooperatively".
struct CooperativeShape {
  int grid = 0;
  int block = 0;
};
/// Shape for `kernel`: blocks of min(maxBlock, the kernel's limit) threads (a multiple of 32),
/// min(blocksPerSm, resident blocks per SM) blocks on every SM; grid 0 when the device has no
/// cooperative launch or the kernel fits no block on an SM. Every CUDA call is checked.
CooperativeShape cooperative_shape(const void* kernel, int maxBlock, int blocksPerSm);
/// Launches `kernel` cooperatively on the current stream. Returns false (once warning) when the
/// grid does not fit the device now (cudaErrorCooperativeLaunchTooLarge, e.g. under MPS): the
/// caller falls back to per-group launches. Other failures throw fv::Error naming `label`.
bool launch_cooperative(const void* kernel, CooperativeShape shape, void** args, const char* label);

/// The persistent sweep of fv::forall_groups. Threads are numbered warp-major across blocks
/// (consecutive warps of the grid sit in different blocks, hence on different SMs), so that a
/// small group spreads over many SMs instead of filling block 0.
///
/// Memory visibility: group g+1 reads values written by group g (LU-SGS: dU of lower/upper
/// neighbours). grid.sync() is a grid-wide barrier with the memory ordering of
/// __threadfence(): every global write of any thread before it is visible to every thread of
/// the grid after it. In a run of small groups only block 0 works and __syncthreads() orders
/// its global writes for the whole block; the grid.sync() that ends the run publishes them to
/// the other blocks before the next grid-wide group. Kernel completion orders the last group
/// before anything later on the stream.
/// MaxThreads: the __launch_bounds__ (1024 for the hybrid mode: the compiler keeps registers
/// within 64 per thread, spilling if it must, so that one block of 1024 threads fits an SM
/// and single-block runs take groups of up to 1024 indices).
template <int MaxThreads, class F>
__global__ void __launch_bounds__(MaxThreads)
    forall_groups_kernel(const idx_t* off, idx_t nGroups, int reverse, int smallRuns, F f) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const idx_t lane = static_cast<idx_t>(threadIdx.x % 32u);
  const idx_t warp = static_cast<idx_t>(threadIdx.x / 32u);
  const idx_t first =
      (warp * static_cast<idx_t>(gridDim.x) + static_cast<idx_t>(blockIdx.x)) * 32 + lane;
  const idx_t stride = static_cast<idx_t>(gridDim.x * blockDim.x);
  const idx_t small = smallRuns ? static_cast<idx_t>(blockDim.x) : 0;
  bool pending = false; // block 0 swept small groups since the last grid.sync()
  for (idx_t k = 0; k < nGroups; ++k) {
    const idx_t g = reverse ? nGroups - 1 - k : k;
    const idx_t b = off[g], e = off[g + 1];
    if (e <= b) continue;
    if (e - b <= small) {
      if (blockIdx.x == 0) {
        const idx_t i = b + static_cast<idx_t>(threadIdx.x);
        if (i < e) f(i);
        __syncthreads();
      }
      pending = true;
      continue;
    }
    if (pending) grid.sync();
    pending = false;
    for (idx_t i = b + first; i < e; i += stride)
      f(i);
    if (k + 1 < nGroups) grid.sync();
  }
}
} // namespace detail
#endif

/// Loops shorter than this run on one thread on the CPU backend: for small zones the cost of
/// waking the OpenMP team (and, on an oversubscribed machine, of its barrier) dominates.
inline constexpr idx_t kOpenMPMinLoop = 16384;

/// Threads per CUDA block of fv::forall. 128 rather than 256: the register-heavy cell and face
/// loops are latency-bound at low occupancy, and the SM's registers are handed out per block,
/// so at 96 registers per thread (the gradient + limiter pass) 5 blocks of 128 fit an SM where
/// 2 of 256 did; measured faster on the H200 (bench/results/issue19_h200_20261125b.md).
/// A kernel that is better with another size names it: forall<256>(...).
inline constexpr int kForallBlock = 128;

/// Runs f(i) for i in [0, n) on the active device. `label` names the kernel in errors and
/// profiles. f must be a FV_HOST_DEVICE functor capturing by value (device pointers only).
/// Block: threads per CUDA block (ignored on the CPU backend; results never depend on it).
template <int Block = kForallBlock, class F>
void forall(const char* label, idx_t n, F&& f) {
  if (n <= 0) return;
  const detail::ProfileScope profile(label);
#if defined(FV_BACKEND_CUDA)
  if (active_device() == Device::Cuda) {
    constexpr int block = Block;
    const int grid = static_cast<int>((static_cast<long long>(n) + block - 1) / block);
    detail::forall_kernel<<<grid, block, 0, detail::current_stream()>>>(n, f);
    detail::check_launch(label);
    return;
  }
#endif
  (void)label;
#if defined(FV_HAVE_OPENMP)
#pragma omp parallel for schedule(static) if (n >= kOpenMPMinLoop)
#endif
  for (idx_t i = 0; i < n; ++i)
    f(i);
}

/// How fv::forall_components maps a loop over entities with independent components onto
/// threads. Results never depend on it (the functors add the same terms in the same order).
enum class ComponentMapping {
  ByDevice,  ///< Split on the CUDA backend, PerEntity on the CPU
  Split,     ///< one thread per (entity, component)
  PerEntity, ///< one thread per entity, all its components
};

/// Runs a loop over n entities whose N components are computed independently of each other,
/// given as two point-wise functors that do the same arithmetic: all(i) computes every
/// component of entity i, one(i, k) component k alone. Split: thread t takes entity
/// (t / (32 N)) * 32 + t % 32 and component (t / 32) % N, so that a warp holds 32 consecutive
/// entities of one component (coalesced stores, and a SELL-32 slice of the node -> cell
/// relation per warp) and the N warps of 32 entities sit side by side in a block (their common
/// index loads hit L1): a gather-bound loop has N times as many threads in flight, with fewer
/// registers each. PerEntity: one iteration per entity (all), where the components share the
/// index loads (the CPU's choice: they vectorise there). Which is faster on a GPU depends on
/// the loop's gather length (the node interpolation: split on tetrahedra, ~23 cells per node,
/// per entity on hexahedra, ~8; docs/performance.md), so callers may time both.
/// SplitBlock / EntityBlock: threads per CUDA block of either mapping.
template <int N, int SplitBlock = kForallBlock, int EntityBlock = SplitBlock, class FOne,
          class FAll>
void forall_components(const char* label, idx_t n, const FOne& one, const FAll& all,
                       ComponentMapping m = ComponentMapping::ByDevice) {
  if (m == ComponentMapping::Split ||
      (m == ComponentMapping::ByDevice && active_device() == Device::Cuda)) {
    constexpr idx_t kWarp = 32;
    const idx_t groups = (n + kWarp - 1) / kWarp;
    forall<SplitBlock>(label, groups * N * kWarp, [=] FV_HOST_DEVICE(idx_t t) {
      const idx_t i = t / (N * kWarp) * kWarp + t % kWarp;
      if (i < n) one(i, static_cast<int>(t / kWarp % N));
    });
    return;
  }
  forall<EntityBlock>(label, n, all);
}

/// Runs f(i) for every index of group 0 of `s`, then of group 1, ... (reverse: from the last
/// group down to group 0), every write of a group visible to the following groups; indices of
/// one group run in parallel, so f must not make two indices of one group depend on each
/// other. f as for fv::forall. `mode` selects the CUDA launch strategy (see GroupLaunch;
/// without cooperative launch support it falls back to PerGroup). On the CPU backend one
/// OpenMP parallel region covers all groups: groups of at least kOpenMPMinLoop indices are
/// shared by the team (omp for, implicit barrier), runs of smaller groups are done by one
/// thread (omp single) - the same per-index work in the same group order as a loop of
/// fv::forall calls, hence bitwise the same results.
template <class F>
void forall_groups(const char* label, const GroupSchedule& s, F&& f, bool reverse = false,
                   GroupLaunch mode = GroupLaunch::PerGroup) {
  const idx_t ng = s.nGroups;
  if (ng <= 0) return;
  FV_ASSERT(s.hostOffsets, "forall_groups: no host offsets");
  const idx_t* off = s.hostOffsets;
  if (off[ng] <= off[0]) return;
  const detail::ProfileScope profile(label); // one kernel for the profiler, however launched
#if defined(FV_BACKEND_CUDA)
  if (active_device() == Device::Cuda) {
    if (mode != GroupLaunch::PerGroup) {
      using Fn = std::decay_t<F>;
      const void* grid = reinterpret_cast<const void*>(&detail::forall_groups_kernel<256, Fn>);
      const void* block = reinterpret_cast<const void*>(&detail::forall_groups_kernel<1024, Fn>);
      // shapes depend on the kernel (registers) and the device only: computed once per functor
      // type (one device per process). [0] few blocks: 256 threads, at most 2 blocks per SM
      // (a grid.sync() costs about one atomic per block, and small groups need few threads);
      // [1] hybrid: one block of up to 1024 threads per SM, so that groups of up to 1024
      // indices fit one block; [2] full occupancy, for schedules whose average group fills
      // more than [0] (colours).
      static const detail::CooperativeShape shape[3] = {detail::cooperative_shape(grid, 256, 2),
                                                        detail::cooperative_shape(block, 1024, 1),
                                                        detail::cooperative_shape(grid, 256, 64)};
      int pick = mode == GroupLaunch::Hybrid ? 1 : 0;
      if (pick == 0 && (static_cast<long long>(off[ng]) - off[0]) / ng >
                           static_cast<long long>(shape[0].grid) * shape[0].block)
        pick = 2;
      FV_VERIFY(s.deviceOffsets, "forall_groups '" << label << "': no device offsets");
      if (shape[pick].grid > 0) {
        const idx_t* doff = s.deviceOffsets;
        idx_t n = ng;
        int rev = reverse ? 1 : 0, small = pick == 1 ? 1 : 0;
        Fn fn = f;
        void* args[] = {&doff, &n, &rev, &small, &fn};
        if (detail::launch_cooperative(pick == 1 ? block : grid, shape[pick], args, label)) return;
      }
    }
    for (idx_t k = 0; k < ng; ++k) {
      const idx_t g = reverse ? ng - 1 - k : k;
      const idx_t b = off[g];
      forall(label, off[g + 1] - b, [=] FV_HOST_DEVICE(idx_t i) { f(b + i); });
    }
    return;
  }
#endif
  (void)label;
  (void)mode;
  // serial sweep of groups [k0, k1) in sweep order
  auto serial = [&](idx_t k0, idx_t k1) {
    for (idx_t k = k0; k < k1; ++k) {
      const idx_t g = reverse ? ng - 1 - k : k;
      for (idx_t i = off[g]; i < off[g + 1]; ++i)
        f(i);
    }
  };
#if defined(FV_HAVE_OPENMP)
  auto size = [&](idx_t k) {
    const idx_t g = reverse ? ng - 1 - k : k;
    return off[g + 1] - off[g];
  };
  bool anyLarge = false;
  for (idx_t k = 0; k < ng && !anyLarge; ++k)
    anyLarge = size(k) >= kOpenMPMinLoop;
  if (anyLarge && omp_get_max_threads() > 1) {
#pragma omp parallel
    {
      idx_t k = 0;
      while (k < ng) {
        if (size(k) >= kOpenMPMinLoop) {
          const idx_t g = reverse ? ng - 1 - k : k;
          const idx_t b = off[g], e = off[g + 1];
#pragma omp for schedule(static)
          for (idx_t i = b; i < e; ++i)
            f(i);
          ++k;
        } else { // a run of small groups on one thread; the barrier of single ends it
          idx_t k1 = k + 1;
          while (k1 < ng && size(k1) < kOpenMPMinLoop)
            ++k1;
#pragma omp single
          serial(k, k1);
          k = k1;
        }
      }
    }
    return;
  }
#endif
  serial(0, ng);
}

} // namespace fv
