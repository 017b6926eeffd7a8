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
      faceNeighbourDelta_, nodeCellWeight_;
  DeviceArray<idx_t> faceOwner_, faceNeighbour_, cellFaceOffsets_, cellFaces_, cellCellOffsets_,
      cellCells_, faceNodeOffsets_, faceNodes_, nodeCellOffsets_, nodeCells_;
  DeviceArray<std::int8_t> cellFaceSign_;
  ZoneView view_;
};

} // namespace fv
