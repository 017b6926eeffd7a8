#pragma once
/// \file types.hpp
/// Index and scalar types shared by every layer of fvkit.
#include <cstdint>

namespace fv {

/// Local entity index (cells, faces, nodes of one zone or of an in-memory mesh): 32-bit signed.
/// A zone is limited to 2^31-1 entities and CSR entries; global meshes use gidx_t for ids.
using idx_t = std::int32_t;

/// Global entity id (unique over the whole mesh, independent of partitioning): 64-bit signed.
using gidx_t = std::int64_t;

/// Floating-point type of geometry and of the solver state (FP64 throughout).
using real_t = double;

/// Marker for "no entity" (e.g. the neighbour of a boundary face).
inline constexpr idx_t kNone = -1;

} // namespace fv

/// FV_HOST_DEVICE marks point-wise functions that run on both backends (CUDA and OpenMP).
/// It lives here, not in runtime/, so that geometry helpers in common/ can be shared too.
#if defined(__CUDACC__)
#define FV_HOST_DEVICE __host__ __device__
#define FV_FORCEINLINE __forceinline__
#else
#define FV_HOST_DEVICE
#define FV_FORCEINLINE inline __attribute__((always_inline))
#endif
