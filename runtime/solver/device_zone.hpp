#pragma once
/// \file device_zone.hpp
/// fv::DeviceZone: the arrays of one fv::Zone that the kernels read, copied once to the active
/// device (owned, RAII). view() gives the raw-pointer ZoneView that kernels capture.
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/zone_view.hpp"

#include <cstdint>
#include <vector>

namespace fv {

/// True when a zone of these sizes is within the kernels' 32-bit index arithmetic: cell fields
/// of up to 15 components (gradients) and face and node fields of 5 are indexed as
/// k * n + i in idx_t, so nTotalCells <= 143,165,576, nFaces and nNodes <= 429,496,729 (a
/// 50M-cell zone of hexahedra, ~150M faces, fits). DeviceZone refuses larger zones (split them
/// with fvprep --parts).
bool fits_kernel_indexing(std::int64_t nTotalCells, std::int64_t nFaces, std::int64_t nNodes);

class DeviceZone {
 public:
  /// Checks the zone's array sizes against its counts (fv::Error naming the array) and copies
  /// the arrays to the active device.
  /// `nodeWeights` (parallel to zone.nodeCells) replaces zone.nodeCellWeight when given.
  explicit DeviceZone(const Zone& zone, const std::vector<real_t>* nodeWeights = nullptr);

  const ZoneView& view() const { return view_; }
  /// Bytes held on the device by the zone arrays.
  std::size_t bytes() const;

 private:
  DeviceArray<real_t> cellVolume_, cellCentroid_, faceArea_, faceCentroid_, faceOwnerDelta_,
      faceNeighbourDelta_, nodeCellWeight_, cellWallDistance_;
  DeviceArray<idx_t> faceOwner_, faceNeighbour_, cellFaceOffsets_, cellFaces_, cellCellOffsets_,
      cellCells_, faceNodeOffsets_, faceNodes_, nodeCellOffsets_, nodeCells_;
  DeviceArray<std::int8_t> cellFaceSign_;
  ZoneView view_;
};

} // namespace fv
