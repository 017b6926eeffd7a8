#pragma once
/// \file device_zone.hpp
/// fv::DeviceZone: the arrays of one fv::Zone that the kernels read (those flagged `device` in
/// visit_zone_arrays()), copied once to the active device (owned, RAII). view() gives the
/// raw-pointer ZoneView that kernels capture, each pointer bound through the schema entry that
/// names it (visit_zone_view_arrays() lists them).
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/zone_view.hpp"
#include "runtime/physics/euler/euler_state.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace fv {

/// True when a zone of these sizes is within the kernels' 32-bit index arithmetic: cell fields
/// of up to 15 components (gradients) and face and node fields of 5 are indexed as
/// k * n + i in idx_t, so nTotalCells <= 143,165,576, nFaces and nNodes <= 429,496,729 (a
/// 50M-cell zone of hexahedra, ~150M faces, fits). DeviceZone refuses larger zones (split them
/// with fvprep --parts).
/// nVars: the state's variables (5 for the mean flow; RANS's 6 lower the cell bound to
/// 119,304,647 and the face and node bounds to 357,913,941).
bool fits_kernel_indexing(std::int64_t nTotalCells, std::int64_t nFaces, std::int64_t nNodes,
                          int nVars = phys::kNumEq);

/// The device copy of one zone: every dataset of visit_zone_arrays() flagged `device` (a CSR
/// relation as its offsets and indices), and the ZoneView of pointers to them.
class DeviceZone {
 public:
  /// Checks the sizes of the device arrays (and of nodes/xyz) against the zone's counts through
  /// the schema (fv::Error naming the array) and copies them to the active device. An optional
  /// array the zone lacks (cells/wallDistance) leaves its ZoneView pointer null.
  /// `nodeWeights` (parallel to zone.nodeCells) replaces zone.nodeCellWeight when given.
  explicit DeviceZone(const Zone& zone, const std::vector<real_t>* nodeWeights = nullptr);

  const ZoneView& view() const { return view_; }
  /// Adds FP32 copies of the geometry only the second-order reconstruction reads
  /// (face-centroid offsets, node weights; [scheme] precision = mixed), rounded on the device;
  /// a second call does nothing. view_as<float>() needs it.
  void add_single_geometry();
  /// The zone with geometry of precision G: view() for real_t, the FP32 view for float.
  template <class G>
  const ZoneViewT<G>& view_as() const;
  /// Bytes held on the device by the zone arrays.
  std::size_t bytes() const;
  /// The node slots (ZoneViewCommon::cellLocalNodes, cellFaceNodeSlots) copied to the host;
  /// empty when the zone has none.
  std::pair<std::vector<idx_t>, std::vector<std::uint16_t>> node_slots() const;

  /// One device array, by its dataset name (a CSR relation's as name/offsets, name/indices);
  /// public only for the upload visitor in device_zone.cpp.
  struct Upload {
    std::string name;
    /// one alternative per element type of the schema's arrays
    std::variant<DeviceArray<real_t>, DeviceArray<idx_t>, DeviceArray<gidx_t>,
                 DeviceArray<std::int8_t>>
        data;
  };

 private:
  /// Builds the cells' node slots of a zone of tetrahedra or hexahedra on the device
  /// (kernels::node_slots) and sets them in the view; nothing for other zones and for a zone
  /// with a degenerate cell.
  void add_node_slots();

  std::vector<Upload> uploads_; ///< in schema order
  ZoneView view_;
  /// add_single_geometry(): owner delta, neighbour delta, sliced node weights (FP32)
  std::vector<DeviceArray<float>> single_;
  ZoneViewT<float> singleView_;
  /// The cells' node slots (ZoneViewCommon::cellLocalNodes, cellFaceNodeSlots): empty for
  /// zones of other cells
  DeviceArray<idx_t> cellLocalNodes_;
  DeviceArray<std::uint16_t> cellFaceNodeSlots_;
};

template <>
inline const ZoneViewT<real_t>& DeviceZone::view_as<real_t>() const {
  return view_;
}
template <>
const ZoneViewT<float>& DeviceZone::view_as<float>() const;

} // namespace fv
