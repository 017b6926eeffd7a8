#pragma once
/// \file cell_shape.hpp
/// fv::kernels::CellShape: the compile-time shape of a zone whose cells all have the same number
/// of faces and whose faces all have the same number of nodes (ZoneViewCommon::cellFaceCount,
/// faceNodeCount: tetrahedra 4 and 3, hexahedra 6 and 4). A cell loop instantiated for it finds
/// cell c's faces at cellFaces[F c, F c + F) and face f's nodes at faceNodes[K f, K f + K)
/// without loading offsets, and its loops over them have compile-time trip counts. The loops over
/// face nodes and the flux sum's loop over faces unroll; the gradient's and the limiter's loops
/// over faces are kept rolled on the GPU (FV_DEVICE_NO_UNROLL, runtime/backend/loop_hints.hpp). A
/// count of 0 reads the offsets: CellShape<0, 0> is every zone's general path. Every shape visits
/// the same entries in the same order, so results are bitwise the same.
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels {

template <int F, int K>
struct CellShape {
  static constexpr int kCellFaces = F; ///< faces of every cell; 0: from cellFaceOffsets
  static constexpr int kFaceNodes = K; ///< nodes of every face; 0: from faceNodeOffsets

  /// First and one-past-last cellFaces entry of owned cell c.
  FV_HOST_DEVICE FV_FORCEINLINE static idx_t faces_begin(const ZoneViewCommon& v, idx_t c) {
    return row_begin<F>(v.cellFaceOffsets, c);
  }
  FV_HOST_DEVICE FV_FORCEINLINE static idx_t faces_end(const ZoneViewCommon& v, idx_t c) {
    return row_end<F>(v.cellFaceOffsets, c);
  }
  /// First and one-past-last faceNodes entry of face f.
  FV_HOST_DEVICE FV_FORCEINLINE static idx_t nodes_begin(const ZoneViewCommon& v, idx_t f) {
    return row_begin<K>(v.faceNodeOffsets, f);
  }
  FV_HOST_DEVICE FV_FORCEINLINE static idx_t nodes_end(const ZoneViewCommon& v, idx_t f) {
    return row_end<K>(v.faceNodeOffsets, f);
  }

 private:
  /// Start and end of row i of a CSR relation whose rows all have L entries (L > 0: no offset
  /// read), or of any CSR relation (L = 0: from its offsets). The end is L i + L, not L (i + 1):
  /// the form measured on the GPU (the two compile to different code).
  template <int L>
  FV_HOST_DEVICE FV_FORCEINLINE static idx_t row_begin(const idx_t* offsets, idx_t i) {
    if constexpr (L > 0)
      return L * i;
    else
      return offsets[i];
  }
  template <int L>
  FV_HOST_DEVICE FV_FORCEINLINE static idx_t row_end(const idx_t* offsets, idx_t i) {
    if constexpr (L > 0)
      return L * i + L;
    else
      return offsets[i + 1];
  }
};

/// The general path: every count from the offsets.
using AnyShape = CellShape<0, 0>;

/// Node slots per cell (ZoneViewCommon::cellLocalNodes) of a zone of shape S: its U = F K / 3
/// distinct nodes for the shapes that have slots (tetrahedra 4, hexahedra 8: every node on 3
/// faces), 0 for the others. The one list of the shapes with slots: DeviceZone, the kernels
/// and the byte model read it.
template <class S>
inline constexpr int kSlotNodes =
    S::kCellFaces > 0 && S::kFaceNodes > 0 ? S::kCellFaces* S::kFaceNodes / 3 : 0;

/// Whether the fused gradient + limiter pass reads the node slots (ZoneViewCommon::
/// cellLocalNodes): on tetrahedra, where the pass keeps its 96 registers and measured faster;
/// not on hexahedra, where the gradient by slots holds its 18 face-area terms and 8 node ids
/// beside the values the limiter keeps (130 registers against 96, 3 blocks of 128 threads per
/// SM against 5) and the pass measured slower, as did staging every component's node values
/// first (96 registers but 40 KB of shared memory per block; bench/results/issue19_20261128g/).
/// The stand-alone gradient reads them on both.
template <class S>
inline constexpr bool kFusedGradientBySlots = S::kCellFaces == 4 && S::kFaceNodes == 3;

/// Whether the stored face states of a zone of shape S come with their face geometry in slot
/// order (FaceStateStore::slotOffset, slotNeighbour; kernels::FaceStateArrays builds them), so
/// that the gradient + limiter + face-state pass reads its face offsets and neighbours as
/// coalesced streams: on hexahedra, where it measured faster for 28 bytes per cell face
/// (bench/results/issue19_20261201b/). Not yet on tetrahedra, where it was not measured; the
/// kernels read the copies on any zone of one cell shape whose store has them.
template <class S>
inline constexpr bool kSlotGeometry = S::kCellFaces == 6 && S::kFaceNodes == 4;

/// Calls fn(CellShape<F, K>{}) with the shape of zone v: <4, 3> (tetrahedra), <6, 4>
/// (hexahedra), <0, 3> / <0, 4> (faces uniform, cells not), else AnyShape. Host code: fn launches
/// the kernel instantiated for the shape (a function template; CUDA allows no device lambda in
/// a generic lambda).
template <class Fn>
void visit_cell_shape(const ZoneViewCommon& v, Fn&& fn) {
  if (v.faceNodeCount == 3 && v.cellFaceCount == 4)
    fn(CellShape<4, 3>{});
  else if (v.faceNodeCount == 4 && v.cellFaceCount == 6)
    fn(CellShape<6, 4>{});
  else if (v.faceNodeCount == 3)
    fn(CellShape<0, 3>{});
  else if (v.faceNodeCount == 4)
    fn(CellShape<0, 4>{});
  else
    fn(AnyShape{});
}

} // namespace fv::kernels
