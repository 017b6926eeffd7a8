#pragma once
/// \file face_state_k.hpp
/// Point-wise pieces (FV_HOST_DEVICE) of the MUSCL reconstruction shared by the face loops that
/// reconstruct from the cells' gradients and limiters (reconstruct(), face_flux.hpp) and by the
/// cell loop that stores each face's reconstructed states (store_face_states()), so that both
/// do the same arithmetic in the same order: the stored states are bitwise the face loops'.
#include "runtime/backend/loop_hints.hpp"
#include "runtime/kernels/cell_face_geometry_k.hpp"
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels::detail {

/// One component of a limited linear reconstruction: q + phi (g . d), g the cell gradient of the
/// component, d the face centroid minus the cell centroid. The one expression of the
/// reconstruction: the same operations in the same order wherever it is evaluated.
FV_HOST_DEVICE FV_FORCEINLINE real_t extrapolated(real_t q, real_t phi, real_t g0, real_t g1,
                                                  real_t g2, real_t d0, real_t d1, real_t d2) {
  return q + phi * (g0 * d0 + g1 * d1 + g2 * d2);
}

/// Whether a reconstructed primitive state is physical (the mean flow's density and pressure
/// positive, phys::MeanFlowState::admissible); where it is not, the face takes the cell value.
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE bool physical(const real_t (&r)[N]) {
  static_assert(N >= phys::kNumEq, "the mean flow's primitives come first");
  return phys::MeanFlowState::admissible(r);
}

/// The stored face states of kernels::gradient_limiter_states() (FaceStateStore) as the kernels
/// read and write them: component k of slot i at v[k nSlots + i]. T = const real_t for the face
/// loops that read them.
template <int N, class T = real_t>
struct FaceStates {
  T* v = nullptr;
  idx_t nSlots = 0;

  FV_HOST_DEVICE FV_FORCEINLINE void store(idx_t slot, const real_t (&w)[N]) const {
    for (int k = 0; k < N; ++k)
      v[static_cast<std::size_t>(k) * nSlots + slot] = w[k];
  }
  FV_HOST_DEVICE FV_FORCEINLINE void load(idx_t slot, real_t (&w)[N]) const {
    for (int k = 0; k < N; ++k)
      w[k] = v[static_cast<std::size_t>(k) * nSlots + slot];
  }
};

/// Stores the reconstructed primitives of owned cell c (shape S) at each of its faces: W the
/// cell's primitives (blocked, stride nTotalCells), g its gradient and p its limiter (in
/// registers, as the fused gradient + limiter pass has them), each at its face_state_slot().
/// The offset to the face is the owner's where the cell's cellFaceSign is positive, the
/// neighbour's elsewhere, read through geo (ThroughFaces or ThroughSlots: the same values).
/// The values are reconstruct()'s for the same W, gradient and limiter.
template <int N, class S, class Geo, class V>
FV_HOST_DEVICE FV_FORCEINLINE void
store_face_states(const V& v, const Geo& geo, const real_t* W, idx_t c, const real_t (&g)[3 * N],
                  const real_t (&p)[N], const FaceStates<N>& states) {
  const idx_t n = v.nTotalCells;
  real_t q[N];
  for (int k = 0; k < N; ++k)
    q[k] = W[k * n + c];
  // rolled on the GPU, as the limiter's loop over the same faces
  FV_DEVICE_NO_UNROLL
  for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
    real_t d0, d1, d2;
    geo.template offset_to<S>(v, c, j, d0, d1, d2);
    real_t r[N];
    for (int k = 0; k < N; ++k)
      r[k] = extrapolated(q[k], p[k], g[3 * k], g[3 * k + 1], g[3 * k + 2], d0, d1, d2);
    const bool ok = physical<N>(r);
    real_t w[N];
    for (int k = 0; k < N; ++k)
      w[k] = ok ? r[k] : q[k];
    states.store(face_state_slot<S>(v, c, j), w);
  }
}

} // namespace fv::kernels::detail
