#pragma once
/// \file loop_hints.hpp
/// Loop hints for the GPU compiler, empty elsewhere (the CPU backend and the host pass ignore
/// them; results do not depend on them).
///
/// FV_DEVICE_NO_UNROLL, placed just before a `for`, keeps that loop rolled in device code. Used
/// where a loop with a compile-time trip count would otherwise be unrolled completely and the
/// unrolled body measured slower: the loops over a cell's faces in the gradient and the limiter
/// (bench/results/issue19_20261128e/: the hexahedral gradient and limiter pass). The general
/// path's loops (counts from offsets) carry it too, as in the
/// variant measured there; mixed-face zones were not re-measured with it.
#if defined(__CUDA_ARCH__)
#define FV_DEVICE_NO_UNROLL _Pragma("unroll 1")
#else
#define FV_DEVICE_NO_UNROLL
#endif
