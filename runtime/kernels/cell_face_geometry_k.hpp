#pragma once
/// \file cell_face_geometry_k.hpp
/// Where the fused gradient + limiter passes find, for owned cell c and its cellFaces entry e,
/// the offset from the cell centroid to the face centroid and the cell across the face
/// (FV_HOST_DEVICE accessors, one per source, that the point-wise limiter and face-state code
/// is templated on):
/// - ThroughFaces: the face arrays (faceOwnerDelta or faceNeighbourDelta by the cell's side)
///   through cellFaces, and the neighbours through cellCells. Every zone.
/// - ThroughSlots: the copies in FaceStateStore's slot order (slotOffset, slotNeighbour): on
///   zones of one cell shape, slot j nCells + c, so that the threads of consecutive cells load
///   consecutive values where through the face number every thread of a warp hit a sector of
///   its own (Nsight Compute's source counters: bench/results/issue19_20261201b/).
/// Both give the same offsets, and the same neighbours (in cellFaces order instead of
/// cellCells' sorted order). The limiter's extrema over them are exact, so their order cannot
/// change them. The one exception is the sign of a zero (a -0 and a +0 value), and it cannot
/// reach phi (venkat_phi and barth_phi give the same result for either sign; the clip
/// p > 0 ? p : 0 makes a zero +0). So results are bitwise the same (tests/solver/
/// test_face_states.cpp).
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels::detail {

/// The slot of cellFaces entry e of owned cell c (shape S): the entry itself on the general
/// path; on zones of one cell shape (F faces per cell) j nCells + c for the cell's j-th face, so
/// that the threads of consecutive cells store each face's states side by side (coalesced).
template <class S>
FV_HOST_DEVICE FV_FORCEINLINE idx_t face_state_slot(const ZoneViewCommon& v, idx_t c, idx_t e) {
  if constexpr (S::kCellFaces > 0)
    return (e - S::kCellFaces * c) * v.nCells + c;
  else
    return e;
}

/// The face arrays through cellFaces and cellCells.
struct ThroughFaces {
  template <class S, class V>
  FV_HOST_DEVICE FV_FORCEINLINE void offset_to(const V& v, idx_t /*c*/, idx_t e, real_t& d0,
                                               real_t& d1, real_t& d2) const {
    const idx_t f = v.cellFaces[e];
    const auto* d = v.cellFaceSign[e] > 0 ? v.faceOwnerDelta + 3 * f : v.faceNeighbourDelta + 3 * f;
    d0 = d[0]; // exact in FP64 from either precision
    d1 = d[1];
    d2 = d[2];
  }
  /// fn(nb) for each cell across a face of c that has one.
  template <class S, class V, class Fn>
  FV_HOST_DEVICE FV_FORCEINLINE void for_each_neighbour(const V& v, idx_t c, Fn&& fn) const {
    for (idx_t j = v.cellCellOffsets[c]; j < v.cellCellOffsets[c + 1]; ++j)
      fn(v.cellCells[j]);
  }
};

/// The slot-ordered copies (FaceStateStore::slotOffset or slotOffsetSingle, slotNeighbour) of a
/// zone of one cell shape; G: the precision of the view's offsets.
template <class G>
struct ThroughSlots {
  const G* offset = nullptr;        ///< 3 x nSlots, component d of slot i at [d nSlots + i]
  const idx_t* neighbour = nullptr; ///< nSlots, -1 on boundary faces
  idx_t nSlots = 0;

  template <class S, class V>
  FV_HOST_DEVICE FV_FORCEINLINE void offset_to(const V& v, idx_t c, idx_t e, real_t& d0, real_t& d1,
                                               real_t& d2) const {
    const std::size_t i = static_cast<std::size_t>(face_state_slot<S>(v, c, e));
    const std::size_t n = static_cast<std::size_t>(nSlots);
    d0 = offset[i];
    d1 = offset[n + i];
    d2 = offset[2 * n + i];
  }
  template <class S, class V, class Fn>
  FV_HOST_DEVICE FV_FORCEINLINE void for_each_neighbour(const V& v, idx_t c, Fn&& fn) const {
    for (idx_t e = S::faces_begin(v, c); e < S::faces_end(v, c); ++e) {
      const idx_t nb = neighbour[face_state_slot<S>(v, c, e)];
      if (nb >= 0) fn(nb);
    }
  }
};

} // namespace fv::kernels::detail
