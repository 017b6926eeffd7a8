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

#if defined(FV_HAVE_CUDA) && defined(__CUDACC__)
#include <cuda_runtime.h>
#define FV_BACKEND_CUDA 1
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

/// Loops shorter than this run on one thread on the CPU backend: for small zones the cost of
/// waking the OpenMP team (and, on an oversubscribed machine, of its barrier) dominates.
inline constexpr idx_t kOpenMPMinLoop = 16384;

/// Runs f(i) for i in [0, n) on the active device. `label` names the kernel in errors and
/// profiles. f must be a FV_HOST_DEVICE functor capturing by value (device pointers only).
template <class F>
void forall(const char* label, idx_t n, F&& f) {
  if (n <= 0) return;
  const detail::ProfileScope profile(label);
#if defined(FV_BACKEND_CUDA)
  if (active_device() == Device::Cuda) {
    constexpr int block = 256;
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

} // namespace fv
