#pragma once
/// \file pair_access.hpp
/// fv::backend::load_pair: two consecutive FP64 values at a 16-byte aligned address in one
/// 128-bit load on the GPU (one L1 request per pair and thread), two plain loads on the CPU;
/// the same values on every backend. Used by fvbench's layout rows of the node interpolation
/// (bench/fvbench/node_interp_layouts.cpp), which measure what interleaved cell values read
/// this way would buy (bench/results/issue19_20261128/, the gather layout).
#include "common/types.hpp"

namespace fv::backend {

/// a = p[0], b = p[1]; p 16-byte aligned and not written during the kernel that reads it (the
/// GPU reads through the read-only data path).
FV_HOST_DEVICE FV_FORCEINLINE void load_pair(const real_t* p, real_t& a, real_t& b) {
#if defined(__CUDA_ARCH__)
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  a = v.x;
  b = v.y;
#else
  a = p[0];
  b = p[1];
#endif
}

} // namespace fv::backend
