#include "runtime/solver/device_zone.hpp"

#include "common/error.hpp"
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/kernels.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace fv {
namespace {
template <class T>
void check_size(const Array<T>& a, std::size_t expected, const char* name) {
  FV_VERIFY(a.size() == expected,
            "zone array " << name << " has " << a.size() << " entries, expected " << expected);
}

/// Visitor of visit_zone_arrays(): checks the size of every array flagged `device` against the
/// zone's counts (the schema's entity and components; a CSR relation's rows and index range).
struct DeviceSizeCheck {
  const Zone& z;
  template <class T>
  void array(const ArrayInfo& a, const Array<T>& x) {
    if (a.device)
      check_size(x, static_cast<std::size_t>(expected_size(z, a, z.nPatches())), a.name);
  }
  template <class T>
  void optional_array(const ArrayInfo& a, const Array<T>& x) {
    if (!x.empty()) array(a, x); // absent: its ZoneView pointer stays null
  }
  void csr(const CsrInfo& c, const Csr& x) {
    if (!c.device) return;
    const auto rows = static_cast<idx_t>(entity_count(z, c.rows, z.nPatches()));
    FV_VERIFY(x.rows() == rows,
              "zone relation " << c.name << " has " << x.rows() << " rows, expected " << rows);
    x.check(c.name, static_cast<idx_t>(entity_count(z, c.columns, z.nPatches())));
  }
};

/// The SELL-32 slicing of the node -> cell relation (ZoneView::node_entry): slice s holds nodes
/// [32 s, 32 s + 32), entry j of its lane l at start[s] + 32 j + l.
struct NodeSlices {
  const Csr& rel; ///< the zone's node -> cell relation
  std::vector<idx_t> start, count;

  explicit NodeSlices(const Csr& nodeCells) : rel(nodeCells) {
    constexpr idx_t S = ZoneView::kNodeSlice;
    const idx_t nn = nodeCells.rows(), ns = (nn + S - 1) / S;
    count.resize(static_cast<std::size_t>(nn));
    start.assign(static_cast<std::size_t>(ns) + 1, 0);
    for (idx_t n = 0; n < nn; ++n)
      count[n] = nodeCells.size(n);
    for (idx_t s = 0; s < ns; ++s) {
      idx_t longest = 0;
      for (idx_t n = S * s; n < std::min(nn, S * s + S); ++n)
        longest = std::max(longest, count[n]);
      FV_VERIFY(start[s] <= std::numeric_limits<idx_t>::max() - S * longest,
                "the node -> cell relation is too large for 32-bit slices");
      start[s + 1] = start[s] + S * longest;
    }
  }
  /// values (parallel to the CSR entries) in the sliced order; padding gets `pad`.
  template <class T>
  std::vector<T> sliced(const T* values, T pad) const {
    constexpr idx_t S = ZoneView::kNodeSlice;
    std::vector<T> out(static_cast<std::size_t>(start.back()), pad);
    for (idx_t n = 0; n < rel.rows(); ++n)
      for (idx_t j = 0; j < count[n]; ++j)
        out[static_cast<std::size_t>(start[n / S] + S * j + n % S)] = values[rel.begin(n) + j];
    return out;
  }
};

/// Visitor of visit_zone_arrays(): copies every array flagged `device` to the active device
/// (the node -> cell relation and its weights in NodeSlices' order) and binds the ZoneView
/// members its entry names to the copies, one per device dataset.
struct Uploader {
  const Zone& z;
  const std::vector<real_t>* nodeWeights;
  const NodeSlices& slices;
  std::vector<DeviceZone::Upload>& out;
  ZoneView& view;
  template <class T>
  const T* add(std::string name, const T* host, std::size_t n) {
    DeviceArray<T> d(host, n, name.c_str());
    const T* p = d.data();
    out.push_back(DeviceZone::Upload{std::move(name), std::move(d)});
    return p;
  }
  template <class T, class M>
  void array(const ArrayInfo& a, const Array<T>& x, M member) {
    const std::string name = device_dataset_names(a).front();
    auto [ptr] = member(view); // references to the members
    if (a.sliced) {
      const T* values = x.data();
      if constexpr (std::is_same_v<T, real_t>)
        if (nodeWeights && static_cast<const void*>(&x) == &z.nodeCellWeight) {
          FV_VERIFY(nodeWeights->size() == x.size(),
                    "node weights: " << nodeWeights->size() << " entries, expected " << x.size());
          values = nodeWeights->data();
        }
      const std::vector<T> s = slices.sliced<T>(values, T{});
      ptr = add<T>(name, s.data(), s.size());
      return;
    }
    ptr = add<T>(name, x.data(), x.size()); // an absent optional array: a null pointer
  }
  template <class T, class M>
  void optional_array(const ArrayInfo& a, const Array<T>& x, M member) {
    array(a, x, member);
  }
  template <class M>
  void csr(const CsrInfo& c, const Csr& x, M member) {
    const std::vector<std::string> names = device_dataset_names(c);
    auto members = member(view); // references to the members
    FV_VERIFY(names.size() == std::tuple_size_v<decltype(members)>,
              "internal: " << c.name << " binds "
                           << std::tuple_size_v<decltype(members)> << " ZoneView members for "
                           << names.size() << " datasets");
    if constexpr (std::tuple_size_v<decltype(members)> == 3) { // the SELL-32 slices
      FV_VERIFY(&x == &slices.rel, "internal: " << c.name << " is not the sliced relation");
      auto& [start, count, cells] = members;
      start = add<idx_t>(names[0], slices.start.data(), slices.start.size());
      count = add<idx_t>(names[1], slices.count.data(), slices.count.size());
      const std::vector<idx_t> s = slices.sliced<idx_t>(x.indices().data(), 0);
      cells = add<idx_t>(names[2], s.data(), s.size());
    } else {
      auto& [offsets, indices] = members;
      offsets = add<idx_t>(names[0], x.offsets().data(), x.offsets().size());
      indices = add<idx_t>(names[1], x.indices().data(), x.indices().size());
    }
  }
  // the arrays the kernels do not read
  template <class T>
  void array(const ArrayInfo&, const Array<T>&) {}
  template <class T>
  void optional_array(const ArrayInfo&, const Array<T>&) {}
  void csr(const CsrInfo&, const Csr&) {}
};
} // namespace

bool fits_kernel_indexing(std::int64_t nTotalCells, std::int64_t nFaces, std::int64_t nNodes,
                          int nVars) {
  constexpr std::int64_t kMax = std::numeric_limits<idx_t>::max();
  return nTotalCells >= 0 && nFaces >= 0 && nNodes >= 0 && 3 * nVars * nTotalCells <= kMax &&
         nVars * nFaces <= kMax && nVars * nNodes <= kMax;
}

DeviceZone::DeviceZone(const Zone& z, const std::vector<real_t>* nodeWeights) {
  FV_VERIFY(fits_kernel_indexing(z.nTotalCells(), z.nFaces, z.nNodes),
            "zone " << z.zoneId << " is too large for the kernels' 32-bit indexing ("
                    << z.nTotalCells() << " cells, " << z.nFaces << " faces, " << z.nNodes
                    << " nodes; at most 143,165,576 cells and 429,496,729 faces or nodes per "
                       "zone): prepare it in more parts (fvprep --parts)");
  const idx_t nTot = z.nTotalCells();
  FV_VERIFY(z.nCells > 0 && z.nFaces > 0 && z.nNodes > 0,
            "zone " << z.zoneId << " is empty (" << z.nCells << " cells, " << z.nFaces << " faces, "
                    << z.nNodes << " nodes)");
  visit_zone_arrays(z, DeviceSizeCheck{z});
  // read on the host (node-weight reconstruction, output), not uploaded
  check_size(z.nodeXyz, 3 * static_cast<std::size_t>(z.nNodes), "nodes/xyz");
  FV_VERIFY(z.nPatches() >= 0 &&
                (z.patchFaceOffsets.empty() ||
                 z.patchFaceOffsets[z.patchFaceOffsets.size() - 1] == z.nBoundaryFaces),
            "zone patchFaceOffsets do not end at nBoundaryFaces = " << z.nBoundaryFaces);
  for (idx_t f = 0; f < z.nFaces; ++f) {
    const idx_t o = z.faceOwner[f], n = z.faceNeighbour[f];
    FV_VERIFY(o >= 0 && o < z.nCells,
              "face " << f << " has owner " << o << " outside [0, " << z.nCells << ")");
    FV_VERIFY(f < z.nBoundaryFaces ? n == kNone : (n >= 0 && n < nTot),
              "face " << f << " has neighbour " << n
                      << (f < z.nBoundaryFaces ? " but is a boundary face" : " out of range"));
  }
  for (idx_t c = 0; c < nTot; ++c)
    FV_VERIFY(z.cellVolume[c] > 0, "cell " << c << " (global " << z.cellGlobalId[c]
                                           << ") has non-positive volume " << z.cellVolume[c]);

  view_.nCells = z.nCells;
  view_.nTotalCells = nTot;
  view_.nFaces = z.nFaces;
  view_.nBoundaryFaces = z.nBoundaryFaces;
  view_.nNodes = z.nNodes;
  view_.faceNodeCount = z.faceNodes.uniform_row_size();
  view_.cellFaceCount = z.cellFaces.uniform_row_size();
  // every dataset flagged `device` uploaded and bound to the ZoneView members its schema entry
  // names (a dataset without a member or a member of another type does not compile)
  const NodeSlices slices(z.nodeCells);
  visit_zone_arrays(z, Uploader{z, nodeWeights, slices, uploads_, view_});
  add_node_slots();
}

void DeviceZone::add_node_slots() {
  std::size_t U = 0, F = 0; // slot nodes and faces per cell; U = 0: the shape has no slots
  kernels::visit_cell_shape(view_, [&](auto shape) {
    U = kernels::kSlotNodes<decltype(shape)>;
    F = decltype(shape)::kCellFaces;
  });
  if (U == 0) return;
  const auto n = static_cast<std::size_t>(view_.nCells);
  DeviceArray<idx_t> nodes(U * n, "cell node slots");
  DeviceArray<std::uint16_t> slots(F * n, "cell node slots");
  if (!kernels::node_slots(view_, nodes.data(), slots.data())) return; // a degenerate cell
  cellLocalNodes_ = std::move(nodes);
  cellFaceNodeSlots_ = std::move(slots);
  view_.cellLocalNodes = cellLocalNodes_.data();
  view_.cellFaceNodeSlots = cellFaceNodeSlots_.data();
}

std::pair<std::vector<idx_t>, std::vector<std::uint16_t>> DeviceZone::node_slots() const {
  return {cellLocalNodes_.to_host(), cellFaceNodeSlots_.to_host()};
}

void DeviceZone::add_single_geometry() {
  if (!single_.empty()) return;
  const auto nf = 3 * static_cast<std::size_t>(view_.nFaces);
  std::size_t nw = 0; // entries of the sliced weights (padding included)
  for (const Upload& u : uploads_)
    if (u.name == "conn/nodeCellWeight/sliced") nw = std::get<DeviceArray<real_t>>(u.data).size();
  const std::pair<const real_t*, std::size_t> from[] = {
      {view_.faceOwnerDelta, nf}, {view_.faceNeighbourDelta, nf}, {view_.nodeSliceWeight, nw}};
  for (const auto& [in, n] : from) {
    single_.emplace_back(n, "FP32 geometry");
    kernels::round_to_single(n, in, single_.back().data());
  }
  singleView_ = view_.with_geometry<float>(single_[0].data(), single_[1].data(), single_[2].data());
}

template <>
const ZoneViewT<float>& DeviceZone::view_as<float>() const {
  FV_VERIFY(!single_.empty(), "internal: the FP32 zone view was not built (add_single_geometry)");
  return singleView_;
}

std::size_t DeviceZone::bytes() const {
  std::size_t b = 0;
  for (const Upload& u : uploads_)
    b += std::visit([](const auto& d) { return d.bytes(); }, u.data);
  for (const DeviceArray<float>& d : single_)
    b += d.bytes();
  b += cellLocalNodes_.bytes() + cellFaceNodeSlots_.bytes();
  return b;
}

} // namespace fv
