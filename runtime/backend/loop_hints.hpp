#pragma once
/// \file loop_hints.hpp
/// Loop hints for the GPU compiler, empty elsewhere (the CPU backend and the host pass ignore
/// them; results do not depend on them).
///
/// FV_DEVICE_NO_UNROLL, placed just before a `for`, keeps that loop rolled in device code. Used
/// where a loop with a compile-time trip count would otherwise be unrolled completely and the
/// unrolled body measured slower: the loops over a cell's faces in the gradient and the limiter
/// (issue 19, bench/results/issue19_20261128e/: unrolled over a hexahedron's six faces, the
/// fused gradient and limiter took 2.96 ms instead of 2.60 on 10M hexahedra, H200).
#if defined(__CUDA_ARCH__)
#define FV_DEVICE_NO_UNROLL _Pragma("unroll 1")
#else
#define FV_DEVICE_NO_UNROLL
#endif
