#pragma once
/// \file atomic.hpp
/// fv::atomic_add(p, v): *p += v as one indivisible update, on both backends (FV_HOST_DEVICE).
/// On the GPU it is the hardware FP64 atomicAdd (sm_60+); on the CPU a relaxed compare-and-swap
/// loop on the 64-bit pattern (GCC/Clang __atomic builtins), correct under OpenMP threads.
/// The order of concurrent additions is unspecified: sums are not bitwise reproducible. Only
/// the benchmark variants of the flux summation use it; the solver's kernels never do.
#include "common/types.hpp"

#include <cstdint>
#include <cstring>

namespace fv {

FV_HOST_DEVICE FV_FORCEINLINE void atomic_add(real_t* p, real_t v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(p, v);
#else
  static_assert(sizeof(real_t) == sizeof(std::uint64_t), "atomic_add assumes FP64");
  auto* bits = reinterpret_cast<std::uint64_t*>(p);
  std::uint64_t expected = __atomic_load_n(bits, __ATOMIC_RELAXED), desired = 0;
  do {
    real_t cur;
    std::memcpy(&cur, &expected, sizeof cur);
    const real_t next = cur + v;
    std::memcpy(&desired, &next, sizeof desired);
  } while (!__atomic_compare_exchange_n(bits, &expected, desired, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
#endif
}

} // namespace fv
