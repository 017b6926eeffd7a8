#pragma once
/// \file zone_view.hpp
/// fv::ZoneView: raw device pointers to the zone arrays the kernels read, captured by value in
/// fv::forall lambdas (ZoneViewT<float>: the same with FP32 geometry, [scheme] precision = mixed).
/// It owns nothing: the DeviceZone that created it keeps the memory. Numbering and meaning of every
/// array as in common/zone.hpp; each pointer is bound to the device copy of the schema entry of
/// visit_zone_arrays() that names it (visit_zone_view_arrays()).
#include "common/types.hpp"
#include "common/zone.hpp"

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace fv {

/// Device pointers and counts of one zone that every view shares, whatever the precision of its
/// geometry (ZoneViewT). Trivially copyable.
struct ZoneViewCommon {
  /// Nodes per slice of the node -> cell relation (a warp).
  static constexpr idx_t kNodeSlice = 32;

  idx_t nCells = 0;         ///< owned cells
  idx_t nTotalCells = 0;    ///< owned + halo cells (size of cell arrays)
  idx_t nFaces = 0;         ///< all faces
  idx_t nBoundaryFaces = 0; ///< boundary faces, numbered first
  idx_t nNodes = 0;
  /// Nodes of every face when all the zone's faces have the same number (3: tetrahedra, 4:
  /// hexahedra), so that face f's nodes are faceNodes[k f, k f + k) without reading
  /// faceNodeOffsets; 0 when the counts differ (DeviceZone sets it from the offsets).
  idx_t faceNodeCount = 0;
  /// Faces of every owned cell when all have the same number (4: tetrahedra, 6: hexahedra), so
  /// that cell c's faces are cellFaces[F c, F c + F) without reading cellFaceOffsets; 0 when the
  /// counts differ (DeviceZone sets it; kernels/cell_shape.hpp uses both counts).
  idx_t cellFaceCount = 0;
  /// The node slots of a zone of tetrahedra or hexahedra (cellFaceCount F and faceNodeCount K
  /// 4 and 3, or 6 and 4), so that the gradient loads each of a cell's U = F K / 3 nodes (4 or
  /// 8) once instead of once per face that holds it: cellLocalNodes[U c + u] (owned cell c) are
  /// the cell's nodes in the order its faces first meet them, and cellFaceNodeSlots[F c + j]
  /// holds, 4 bits per node from the lowest, the slot u of each node of the cell's face j in
  /// faceNodes order. Null for other zones and wherever a cell has not exactly U distinct nodes
  /// (DeviceZone builds them with kernels::node_slots() for the shapes kSlotNodes lists); the
  /// gradient then reads faceNodes. Either way the same sums in the same order.
  const idx_t* cellLocalNodes = nullptr;
  const std::uint16_t* cellFaceNodeSlots = nullptr;

  const real_t* cellVolume = nullptr;   ///< nTotalCells, m^3
  const real_t* cellCentroid = nullptr; ///< 3 per cell
  const idx_t* faceOwner = nullptr;     ///< nFaces
  const idx_t* faceNeighbour = nullptr; ///< nFaces, kNone on boundary faces
  /// 3 per face, owner -> neighbour, m^2: FP64 in every view (the fluxes and the Green-Gauss
  /// gradient need their closure, sum over a cell's faces = 0, to FP64 rounding)
  const real_t* faceArea = nullptr;
  const real_t* faceCentroid = nullptr;   ///< 3 per face
  const idx_t* cellFaceOffsets = nullptr; ///< nCells + 1
  const idx_t* cellFaces = nullptr;
  const std::int8_t* cellFaceSign = nullptr; ///< parallel to cellFaces: +1 owner, -1 neighbour
  const idx_t* cellCellOffsets = nullptr;    ///< nCells + 1
  const idx_t* cellCells = nullptr;
  const idx_t* faceNodeOffsets = nullptr; ///< nFaces + 1
  const idx_t* faceNodes = nullptr;
  /// The node -> cell relation (conn/nodeCells: the owned cells around each node) in SELL-32
  /// slices: entry j of node n is at node_entry(n, j), so that the j-th entries of 32
  /// consecutive nodes sit side by side and a node loop loads them coalesced. The same entries
  /// in the same order as the zone file's CSR relation (DeviceZone slices it); the weights are
  /// ZoneViewT::nodeSliceWeight.
  const idx_t* nodeSliceStart = nullptr; ///< ceil(nNodes / kNodeSlice) + 1 entry offsets
  const idx_t* nodeCellCount = nullptr;  ///< nNodes: cells around each node
  const idx_t* nodeSliceCells = nullptr; ///< cell of each entry (padding entries unread)
  /// Distance from the cell centroid to the nearest no-slip wall face, m; null when the zone
  /// file has none. nTotalCells long (halo cells included, as in the zone file).
  const real_t* cellWallDistance = nullptr;

  /// Index of entry j (0 <= j < nodeCellCount[n]) of node n in nodeSliceCells/-Weight.
  FV_HOST_DEVICE FV_FORCEINLINE idx_t node_entry(idx_t n, idx_t j) const {
    return nodeSliceStart[n / kNodeSlice] + kNodeSlice * j + n % kNodeSlice;
  }
};

/// Device pointers and counts of one zone, as the kernels read them (a trivially copyable
/// struct, captured by value), with the geometry that only the second-order reconstruction
/// reads (face-centroid offsets, node weights) in precision G: ZoneView (G = real_t) for every
/// kernel; ZoneViewT<float> for the kernels of [scheme] precision = mixed (DeviceZone's FP32
/// copies of those arrays, every other pointer shared with the FP64 view).
template <class G>
struct ZoneViewT : ZoneViewCommon {
  const G* faceOwnerDelta = nullptr;     ///< 3 per face: face centroid - owner centroid, m
  const G* faceNeighbourDelta = nullptr; ///< 3 per face: face centroid - neighbour centroid, m
  const G* nodeSliceWeight = nullptr;    ///< parallel to nodeSliceCells

  /// The same zone with these geometry arrays of precision H (every other member copied).
  template <class H>
  ZoneViewT<H> with_geometry(const H* ownerDelta, const H* neighbourDelta,
                             const H* nodeWeight) const {
    ZoneViewT<H> v;
    static_cast<ZoneViewCommon&>(v) = *this;
    v.faceOwnerDelta = ownerDelta;
    v.faceNeighbourDelta = neighbourDelta;
    v.nodeSliceWeight = nodeWeight;
    return v;
  }
};

/// The zone with FP64 geometry: what every kernel reads.
using ZoneView = ZoneViewT<real_t>;

/// Calls f(dataset, member) for every ZoneView pointer bound to a device dataset of the zone
/// schema: the arrays of visit_zone_arrays() (common/zone.hpp) flagged `device`, each through
/// the member accessor its entry names, `dataset` from device_dataset_names() (a CSR relation's
/// name/offsets and name/indices; the node -> cell relation and its weights as the SELL-32
/// slices name/sliceStart, name/counts, name/sliced). `member` is a `const T*&`; V is ZoneView
/// or const ZoneView. DeviceZone binds the pointers through the same entries.
namespace detail {
/// Visitor of visit_zone_arrays() for visit_zone_view_arrays(): f(dataset, member) for each
/// member a device entry's accessor names.
template <class V, class F>
struct ZoneViewWalk {
  V& v;
  F& f;
  template <class Info, class M>
  void bind(const Info& info, M member) {
    const std::vector<std::string> names = device_dataset_names(info);
    std::size_t k = 0;
    std::apply([&](auto&... p) { (f(names[k++].c_str(), p), ...); }, member(v));
  }
  template <class A, class M>
  void array(const ArrayInfo& info, A&, M member) {
    bind(info, member);
  }
  template <class A, class M>
  void optional_array(const ArrayInfo& info, A&, M member) {
    bind(info, member);
  }
  template <class M>
  void csr(const CsrInfo& info, const Csr&, M member) {
    bind(info, member);
  }
  template <class A>
  void array(const ArrayInfo&, A&) {} // not on the device
  template <class A>
  void optional_array(const ArrayInfo&, A&) {}
  void csr(const CsrInfo&, const Csr&) {}
};
} // namespace detail

template <class V, class F>
void visit_zone_view_arrays(V& v, F&& f) {
  static const Zone none{}; // the schema's entries, not a zone's values
  visit_zone_arrays(none, detail::ZoneViewWalk<V, std::remove_reference_t<F>>{v, f});
}

} // namespace fv
