#pragma once
/// \file zone_view.hpp
/// fv::ZoneView: raw device pointers to the zone arrays the kernels read, captured by value in
/// fv::forall lambdas. It owns nothing: the DeviceZone that created it keeps the memory.
/// Numbering and meaning of every array as in common/zone.hpp.
#include "common/types.hpp"

#include <cstdint>

namespace fv {

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
  /// distance from the cell centroid to the nearest no-slip wall face, m; null when the zone
  /// file has none
  const real_t* cellWallDistance = nullptr;
};

} // namespace fv
