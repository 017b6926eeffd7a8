#pragma once
/// \file zone_view.hpp
/// fv::ZoneView: raw device pointers to the zone arrays the kernels read, captured by value in
/// fv::forall lambdas. It owns nothing: the DeviceZone that created it keeps the memory.
/// Numbering and meaning of every array as in common/zone.hpp; the pointers are bound to the
/// zone's device datasets by name in visit_zone_view_arrays().
#include "common/types.hpp"

#include <cstdint>

namespace fv {

/// Device pointers and counts of one zone, as the kernels read them (a trivially copyable
/// struct, captured by value).
struct ZoneView {
  idx_t nCells = 0;         ///< owned cells
  idx_t nTotalCells = 0;    ///< owned + halo cells (size of cell arrays)
  idx_t nFaces = 0;         ///< all faces
  idx_t nBoundaryFaces = 0; ///< boundary faces, numbered first
  idx_t nNodes = 0;

  const real_t* cellVolume = nullptr;         ///< nTotalCells, m^3
  const real_t* cellCentroid = nullptr;       ///< 3 per cell
  const idx_t* faceOwner = nullptr;           ///< nFaces
  const idx_t* faceNeighbour = nullptr;       ///< nFaces, kNone on boundary faces
  const real_t* faceArea = nullptr;           ///< 3 per face, owner -> neighbour
  const real_t* faceCentroid = nullptr;       ///< 3 per face
  const real_t* faceOwnerDelta = nullptr;     ///< 3 per face
  const real_t* faceNeighbourDelta = nullptr; ///< 3 per face
  const idx_t* cellFaceOffsets = nullptr;     ///< nCells + 1
  const idx_t* cellFaces = nullptr;
  const std::int8_t* cellFaceSign = nullptr; ///< parallel to cellFaces: +1 owner, -1 neighbour
  const idx_t* cellCellOffsets = nullptr;    ///< nCells + 1
  const idx_t* cellCells = nullptr;
  const idx_t* faceNodeOffsets = nullptr; ///< nFaces + 1
  const idx_t* faceNodes = nullptr;
  const idx_t* nodeCellOffsets = nullptr; ///< nNodes + 1
  const idx_t* nodeCells = nullptr;
  const real_t* nodeCellWeight = nullptr; ///< parallel to nodeCells
  /// Distance from the cell centroid to the nearest no-slip wall face, m; null when the zone
  /// file has none. nTotalCells long (halo cells included, as in the zone file).
  const real_t* cellWallDistance = nullptr;
};

/// The pointer members of a ZoneView by the zone-file dataset they point to: the arrays of
/// visit_zone_arrays() (common/zone.hpp) flagged `device`, a CSR relation `name` as
/// name/offsets and name/indices. DeviceZone uploads the flagged datasets and binds them
/// here; it refuses a flagged dataset without a member and a member without a flagged dataset.
/// `f(name, member)` is called with `member` a `const T*&`; V is ZoneView or const ZoneView.
template <class V, class F>
void visit_zone_view_arrays(V& v, F&& f) {
  f("cells/volume", v.cellVolume);
  f("cells/centroid", v.cellCentroid);
  f("cells/wallDistance", v.cellWallDistance);
  f("faces/owner", v.faceOwner);
  f("faces/neighbour", v.faceNeighbour);
  f("faces/area", v.faceArea);
  f("faces/centroid", v.faceCentroid);
  f("faces/ownerDelta", v.faceOwnerDelta);
  f("faces/neighbourDelta", v.faceNeighbourDelta);
  f("conn/cellFaces/offsets", v.cellFaceOffsets);
  f("conn/cellFaces/indices", v.cellFaces);
  f("conn/cellFaceSign", v.cellFaceSign);
  f("conn/cellCells/offsets", v.cellCellOffsets);
  f("conn/cellCells/indices", v.cellCells);
  f("conn/faceNodes/offsets", v.faceNodeOffsets);
  f("conn/faceNodes/indices", v.faceNodes);
  f("conn/nodeCells/offsets", v.nodeCellOffsets);
  f("conn/nodeCells/indices", v.nodeCells);
  f("conn/nodeCellWeight", v.nodeCellWeight);
}

} // namespace fv
