#pragma once
/// \file zone.hpp
/// The zone-file schema: what one zone of a prepared mesh holds, and the one list of its arrays
/// (visit_zone_arrays(), with each array's entity, components and, for the arrays the kernels
/// read, the fv::ZoneView members they are bound to) that the writer, the memory-mapping reader,
/// the checker, the checksums and the device upload (DeviceZone) all iterate over, so that the
/// layout is written down exactly once.
///
/// Numbering inside a zone (all local, 0-based, idx_t):
///   cells  [0, nInteriorCells)              owned cells with no halo neighbour
///          [nInteriorCells, nCells)         owned cells next to another zone (interface cells)
///          [nCells, nCells + nHaloCells)    halo cells: one layer of other zones' cells
///   faces  [0, nBoundaryFaces)              physical boundary faces, grouped by patch
///          [nBoundaryFaces, nFaces)         interior faces (incl. interface faces owned-halo),
///                                           in the order a loop over cells meets them
///                                           (Algorithm 2 of the hybrid MPI-CUDA paper)
///   nodes  [0, nNodes)                      nodes of owned cells, by first touch in cell order
/// For every interior face owner < neighbour; for boundary faces neighbour == kNone.
/// See docs/zone-file-format.md and docs/connectivity.md for each array's meaning.
#include "common/array.hpp"
#include "common/cell_shapes.hpp"
#include "common/csr.hpp"
#include "common/types.hpp"

#include <array>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace fv {

/// Format version of zone files written by this build; readers accept exactly the versions in
/// [kZoneFormatMinVersion, kZoneFormatVersion]. Version 2 stores every string fixed-length
/// (version 1 used variable-length strings, which HDF5 1.10 cannot read safely from a corrupt
/// file). Version 3 no longer stores the derived arrays (faces/ownerDelta,
/// faces/neighbourDelta: visit_zone_arrays()), which a reader computes; a version-2 file's
/// copies of them are not read.
inline constexpr int kZoneFormatVersion = 3;
inline constexpr int kZoneFormatMinVersion = 2;

// CellType (stored in cells/type) and the cell-shape table: common/cell_shapes.hpp.

/// A boundary patch: a named set of boundary faces with the BC type the mesh file gave it.
struct Patch {
  std::string name;   ///< patch (BC) name as in the mesh file, e.g. "wall", "BC1_on_inlet"
  std::string bcType; ///< CGNS BCType_t name, e.g. "BCWall", "BCFarfield", "UserDefined"
};

/// Per-neighbour exchange lists of one entity kind. Row k of send/recv belongs to
/// neighbours[k]; the i-th entry of my send row to zone Z pairs with the i-th entry of Z's recv
/// row from me (both sorted by global id).
struct ExchangeLists {
  Array<std::int32_t> neighbours; ///< neighbour zone ids, ascending
  Csr send;                       ///< local ids whose values are packed for each neighbour
  Csr recv;                       ///< local ids that receive each neighbour's values
};

/// How fvprep made a 3D mesh of a 2D one (extrude_2d(), formats/mesh_builder.hpp): one cell
/// layer of `thickness` (file units) along the unit vector `direction`, the plane's normal.
/// thickness 0: not an extruded 2D mesh (a 3D mesh, or a zone file written before the zone file
/// recorded it). fvrun's coefficients refer to it ([monitor] reference_area, [freestream]
/// lift_axis: runtime/config/case_schema.cpp).
struct Extrusion {
  double thickness = 0;
  std::array<double, 3> direction{0, 0, 0};
  bool extruded() const { return thickness > 0; }
};

/// "2D mesh extruded by T along (x, y, z)" (fvprep info and check, fvrun's messages).
std::string describe(const Extrusion& e);

/// File-level header of a zone file (shared by all zones).
struct ZoneFileHeader {
  int formatVersion = kZoneFormatVersion;
  std::string creator;     ///< "fvkit 0.1.0"
  std::string commandLine; ///< fvprep command line that wrote the file
  std::string options;     ///< resolved fvprep options (key=value; ...)
  std::string meshUuid;    ///< hash of geometry + connectivity, independent of partitioning
  std::string sourceMesh;  ///< path of the imported mesh
  std::int32_t nZones = 1;
  gidx_t nGlobalCells = 0, nGlobalFaces = 0, nGlobalNodes = 0;
  std::vector<Patch> patches; ///< patch p of every zone is patches[p]
  Extrusion extrusion;        ///< OPTIONAL in the file: absent for a 3D mesh
};

/// One zone of a prepared mesh: everything fvrun needs for one MPI rank, in local numbering.
/// Arrays either own their storage (fvprep) or view a read-only mapping (fvrun).
/// Vectors of 3 are interleaved (x0,y0,z0,x1,...). Units are those of the mesh file (SI: m).
struct Zone {
  // ---- counts (HDF5 attributes)
  std::int32_t zoneId = 0;
  idx_t nCells = 0;         ///< owned cells
  idx_t nInteriorCells = 0; ///< owned cells with no halo neighbour (numbered first)
  idx_t nHaloCells = 0;     ///< halo cells, numbered after the owned ones
  idx_t nFaces = 0;         ///< faces of owned cells (boundary + interior + interface)
  idx_t nBoundaryFaces = 0; ///< physical boundary faces, numbered first
  idx_t nNodes = 0;         ///< nodes of owned cells

  // ---- patches: boundary faces of patch p are [patchFaceOffsets[p], patchFaceOffsets[p+1])
  Array<idx_t> patchFaceOffsets; ///< size nPatches + 1

  // ---- cells: nCells + nHaloCells entries
  Array<gidx_t> cellGlobalId;  ///< id in the renumbered global mesh
  Array<std::int8_t> cellType; ///< CellType
  Array<real_t> cellVolume;    ///< m^3
  Array<real_t> cellCentroid;  ///< 3 per cell, m
  /// Distance from the centroid to the nearest wall face, m (fvprep's wall distance, for
  /// turbulence models); OPTIONAL: empty when the mesh has no wall patch, and in zone files
  /// written before it existed.
  Array<real_t> cellWallDistance;

  // ---- faces: nFaces entries
  Array<gidx_t> faceGlobalId; ///< id in the renumbered global mesh
  Array<idx_t> faceOwner;     ///< owner cell (always an owned cell)
  Array<idx_t> faceNeighbour; ///< neighbour cell (owned or halo), kNone on boundary faces
  Array<real_t> faceArea;     ///< area vector, 3 per face, owner -> neighbour, |S| in m^2
  Array<real_t> faceCentroid; ///< 3 per face, m
  /// face centroid - owner centroid, 3 per face, m (derived: derive_zone_arrays())
  Array<real_t> faceOwnerDelta;
  /// face centroid - neighbour centroid (0 on boundary faces), 3 per face, m (derived)
  Array<real_t> faceNeighbourDelta;

  // ---- nodes: nNodes entries
  Array<gidx_t> nodeGlobalId; ///< id in the renumbered global mesh
  Array<real_t> nodeXyz;      ///< 3 per node, m

  // ---- connectivity (CSR, local ids)
  Csr cellFaces;                   ///< nCells rows: faces of each owned cell, ascending
  Array<std::int8_t> cellFaceSign; ///< ownNgb, parallel to cellFaces: +1 owner, -1 neighbour
  Csr cellCells;                   ///< nCells rows: face neighbours (owned or halo), ascending
  Csr cellNodes;                   ///< nCells rows: nodes of each owned cell (element order)
  Csr faceNodes;                   ///< nFaces rows: nodes, ordered so the normal is owner->ngb
  Csr nodeFaces;                   ///< nNodes rows: transpose of faceNodes
  Csr nodeCells; ///< nNodes rows: owned cells around each node (transpose of cellNodes)
  Array<real_t> nodeCellWeight; ///< parallel to nodeCells: inverse-distance weight, normalised
                                ///< over ALL cells of the node in the global mesh (sums to 1
                                ///< over the zones sharing the node)
  /// Parallel to nodeCells: the linearly exact weights (common/node_weights.hpp) that fvprep
  /// computed over ALL cells of each node; what fvrun interpolates with ([scheme]
  /// node_weights = linear). OPTIONAL: empty in zone files written before fvprep stored them
  /// (fvrun then computes them, with a node exchange).
  Array<real_t> nodeCellWeightLinear;

  // ---- orderings (CSR rows are groups; indices form a permutation)
  Csr faceColours; ///< faces (all nFaces) in colours: no two faces of a colour share a cell
  Csr cellColours; ///< owned cells in colours: no two cells of a colour are face neighbours
  Csr hyperplanes; ///< owned cells in LU-SGS hyperplane groups, in forward-sweep order

  // ---- parallel exchange
  ExchangeLists cellExchange; ///< send: owned cells; recv: halo cells
  ExchangeLists nodeExchange; ///< nodes shared with other zones (send == recv sets, summed)

  idx_t nTotalCells() const { return nCells + nHaloCells; }
  idx_t nPatches() const {
    return patchFaceOffsets.empty() ? 0 : static_cast<idx_t>(patchFaceOffsets.size() - 1);
  }
};

/// Counts of a zone, in schema order, with their attribute names.
template <class Z, class V>
void visit_zone_counts(Z& z, V&& v) {
  v("zoneId", z.zoneId);
  v("nCells", z.nCells);
  v("nInteriorCells", z.nInteriorCells);
  v("nHaloCells", z.nHaloCells);
  v("nFaces", z.nFaces);
  v("nBoundaryFaces", z.nBoundaryFaces);
  v("nNodes", z.nNodes);
}

/// What the entries of a zone array, or the rows of a CSR relation, belong to: an array of
/// `components` entries per entity has components * entity_count() entries.
enum class Entity : std::int8_t {
  Cells,             ///< owned + halo cells: nTotalCells()
  OwnedCells,        ///< owned cells: nCells
  Faces,             ///< all faces: nFaces
  BoundaryFaces,     ///< physical boundary faces: nBoundaryFaces
  Nodes,             ///< nNodes
  PatchBounds,       ///< patch boundaries: nPatches + 1 (the offsets of patchFaceOffsets)
  CellFaceEntries,   ///< entries of conn/cellFaces (arrays parallel to it): cellFaces.nnz()
  NodeCellEntries,   ///< entries of conn/nodeCells: nodeCells.nnz()
  CellExchangeZones, ///< neighbour zones of the cell exchange: cellExchange.neighbours.size()
  NodeExchangeZones, ///< neighbour zones of the node exchange: nodeExchange.neighbours.size()
  Groups, ///< rows of an ordering, any number: their indices list each column entity once
};

/// Schema entry of a plain zone array (visit_zone_arrays()).
struct ArrayInfo {
  const char* name;    ///< dataset path inside the zone group, e.g. "cells/centroid"
  Entity entity;       ///< what each group of `components` entries belongs to
  int components = 1;  ///< entries per entity: 3 for vectors (interleaved x0,y0,z0,x1,...)
  bool device = false; ///< the kernels read it: DeviceZone copies it into fv::ZoneView
  /// parallel to the node -> cell relation, copied in its SELL-32 slices (CsrInfo::sliced)
  bool sliced = false;
};

/// Schema entry of a CSR relation (visit_zone_arrays()), stored as name/offsets, name/indices.
struct CsrInfo {
  const char* name;    ///< dataset path prefix inside the zone group, e.g. "conn/cellFaces"
  Entity rows;         ///< what each row belongs to (Entity::Groups: an ordering)
  Entity columns;      ///< what the indices number: each lies in [0, entity_count(columns))
  bool device = false; ///< the kernels read it: DeviceZone copies offsets and indices
  /// the device copy is in SELL-32 slices (the node -> cell relation, fv::ZoneView::node_entry):
  /// slice starts, per-row counts and the sliced indices instead of offsets and indices
  bool sliced = false;
};

/// The names of the device datasets of a device entry of visit_zone_arrays(), one per fv::ZoneView
/// member its accessor binds, in the accessor's order: the array's name (name/sliced when
/// sliced); a CSR relation's name/offsets and name/indices (sliced: name/sliceStart,
/// name/counts, name/sliced).
inline std::vector<std::string> device_dataset_names(const ArrayInfo& a) {
  return {a.sliced ? std::string(a.name) + "/sliced" : std::string(a.name)};
}
inline std::vector<std::string> device_dataset_names(const CsrInfo& c) {
  const std::string n = c.name;
  if (c.sliced) return {n + "/sliceStart", n + "/counts", n + "/sliced"};
  return {n + "/offsets", n + "/indices"};
}

/// Number of entities of kind `e` in zone `z`: the length of a one-component array of them
/// and the row count of a CSR relation of them; -1 for Entity::Groups (any number of rows).
/// `nPatches` is the patch count of the zone file (the zone's own is z.nPatches()).
inline std::int64_t entity_count(const Zone& z, Entity e, std::int64_t nPatches) {
  switch (e) {
  case Entity::Cells:
    return z.nTotalCells();
  case Entity::OwnedCells:
    return z.nCells;
  case Entity::Faces:
    return z.nFaces;
  case Entity::BoundaryFaces:
    return z.nBoundaryFaces;
  case Entity::Nodes:
    return z.nNodes;
  case Entity::PatchBounds:
    return nPatches + 1;
  case Entity::CellFaceEntries:
    return z.cellFaces.nnz();
  case Entity::NodeCellEntries:
    return z.nodeCells.nnz();
  case Entity::CellExchangeZones:
    return static_cast<std::int64_t>(z.cellExchange.neighbours.size());
  case Entity::NodeExchangeZones:
    return static_cast<std::int64_t>(z.nodeExchange.neighbours.size());
  case Entity::Groups:
    return -1;
  }
  return -1;
}

/// Expected number of entries of a (present) array of zone `z`: components * entity_count().
inline std::int64_t expected_size(const Zone& z, const ArrayInfo& a, std::int64_t nPatches) {
  return a.components * entity_count(z, a.entity, nPatches);
}

namespace detail {
template <class V, class A, class = void>
struct HasDerivedArray : std::false_type {};
template <class V, class A>
struct HasDerivedArray<V, A,
                       std::void_t<decltype(std::declval<V&>().derived_array(
                           std::declval<const ArrayInfo&>(), std::declval<A&>()))>>
    : std::true_type {};

/// Whether the visitor's array(), optional_array() or csr() takes a device entry's ZoneView
/// accessor as a third argument.
template <class V, class A, class M, class = void>
struct ArrayTakesView : std::false_type {};
template <class V, class A, class M>
struct ArrayTakesView<
    V, A, M,
    std::void_t<decltype(std::declval<V&>().array(std::declval<const ArrayInfo&>(),
                                                  std::declval<A&>(), std::declval<M>()))>>
    : std::true_type {};
template <class V, class A, class M, class = void>
struct OptionalTakesView : std::false_type {};
template <class V, class A, class M>
struct OptionalTakesView<
    V, A, M,
    std::void_t<decltype(std::declval<V&>().optional_array(std::declval<const ArrayInfo&>(),
                                                           std::declval<A&>(), std::declval<M>()))>>
    : std::true_type {};
template <class V, class C, class M, class = void>
struct CsrTakesView : std::false_type {};
template <class V, class C, class M>
struct CsrTakesView<V, C, M,
                    std::void_t<decltype(std::declval<V&>().csr(
                        std::declval<const CsrInfo&>(), std::declval<C&>(), std::declval<M>()))>>
    : std::true_type {};

/// v.derived_array(info, a) when V has it, else v.array(info, a).
template <class V, class A>
void visit_derived(V& v, const ArrayInfo& info, A& a) {
  if constexpr (HasDerivedArray<V, A>::value)
    v.derived_array(info, a);
  else
    v.array(info, a);
}

/// A device entry (an array the kernels read; info.device set here): `view` maps a device view
/// (fv::ZoneView, runtime/kernels/zone_view.hpp, of which common/ knows only the member names)
/// to a std::tuple of references to the members the entry binds, one per device dataset
/// (device_dataset_names()). Visitors that take it get v.array(info, a, view), the others
/// v.array(info, a).
template <class V, class A, class M>
void device_array(V& v, ArrayInfo info, A& a, M view) {
  info.device = true;
  if constexpr (ArrayTakesView<V, A, M>::value)
    v.array(info, a, view);
  else
    v.array(info, a);
}
/// The same for an array a zone may lack (v.optional_array()).
template <class V, class A, class M>
void optional_device_array(V& v, ArrayInfo info, A& a, M view) {
  info.device = true;
  if constexpr (OptionalTakesView<V, A, M>::value)
    v.optional_array(info, a, view);
  else
    v.optional_array(info, a);
}
/// The same for a derived array: v.derived_array(info, a) when V has it (the file's visitors),
/// else as device_array().
template <class V, class A, class M>
void derived_device_array(V& v, ArrayInfo info, A& a, M view) {
  info.device = true;
  if constexpr (HasDerivedArray<V, A>::value)
    v.derived_array(info, a);
  else
    device_array(v, info, a, view);
}
/// The same for a CSR relation (v.csr()).
template <class V, class C, class M>
void device_csr(V& v, CsrInfo info, C& c, M view) {
  info.device = true;
  if constexpr (CsrTakesView<V, C, M>::value)
    v.csr(info, c, view);
  else
    v.csr(info, c);
}
} // namespace detail

/// Every array of a zone, in schema order, with its dataset path and metadata (entity,
/// components, device upload): the one list that the zone-file writer and reader, the
/// checksums, `fvprep check` (sizes) and DeviceZone (uploads, sizes) iterate. `v` is called as
///   v.array(ArrayInfo, Array<T>&)           for plain arrays,
///   v.optional_array(ArrayInfo, Array<T>&)  for arrays a zone (or an older file) may lack:
///                                           empty or of the full size,
///   v.derived_array(ArrayInfo, Array<T>&)   for arrays computed from others
///                                           (derive_zone_arrays()) and not stored in the
///                                           file: a visitor without this member gets
///                                           v.array() (the file's visitors skip them), and
///   v.csr(CsrInfo, Csr&)                    for CSR relations (name/offsets, name/indices).
/// The arrays the kernels read (info.device) are visited through detail::device_array() and its
/// kin with an accessor of the fv::ZoneView members they are bound to: a visitor that takes it
/// as a third argument (DeviceZone's upload, visit_zone_view_arrays()) is called with it.
/// Z is Zone or const Zone. A new array is one entry here; one the kernels read also names its
/// fv::ZoneView member here (and declares it in runtime/kernels/zone_view.hpp).
template <class Z, class V>
void visit_zone_arrays(Z& z, V&& v) {
  using E = Entity;
  using detail::device_array;
  using detail::device_csr;
  using std::tie;
  constexpr bool kSliced = true; // copied in the node -> cell relation's SELL-32 slices
  v.array(ArrayInfo{"patchFaceOffsets", E::PatchBounds}, z.patchFaceOffsets);
  v.array(ArrayInfo{"cells/globalId", E::Cells}, z.cellGlobalId);
  v.array(ArrayInfo{"cells/type", E::Cells}, z.cellType);
  device_array(v, ArrayInfo{"cells/volume", E::Cells, 1}, z.cellVolume,
               [](auto& m) { return tie(m.cellVolume); });
  device_array(v, ArrayInfo{"cells/centroid", E::Cells, 3}, z.cellCentroid,
               [](auto& m) { return tie(m.cellCentroid); });
  v.array(ArrayInfo{"faces/globalId", E::Faces}, z.faceGlobalId);
  device_array(v, ArrayInfo{"faces/owner", E::Faces, 1}, z.faceOwner,
               [](auto& m) { return tie(m.faceOwner); });
  device_array(v, ArrayInfo{"faces/neighbour", E::Faces, 1}, z.faceNeighbour,
               [](auto& m) { return tie(m.faceNeighbour); });
  device_array(v, ArrayInfo{"faces/area", E::Faces, 3}, z.faceArea,
               [](auto& m) { return tie(m.faceArea); });
  device_array(v, ArrayInfo{"faces/centroid", E::Faces, 3}, z.faceCentroid,
               [](auto& m) { return tie(m.faceCentroid); });
  detail::derived_device_array(v, ArrayInfo{"faces/ownerDelta", E::Faces, 3}, z.faceOwnerDelta,
                               [](auto& m) { return tie(m.faceOwnerDelta); });
  detail::derived_device_array(v, ArrayInfo{"faces/neighbourDelta", E::Faces, 3},
                               z.faceNeighbourDelta,
                               [](auto& m) { return tie(m.faceNeighbourDelta); });
  v.array(ArrayInfo{"nodes/globalId", E::Nodes}, z.nodeGlobalId);
  v.array(ArrayInfo{"nodes/xyz", E::Nodes, 3}, z.nodeXyz);
  device_csr(v, CsrInfo{"conn/cellFaces", E::OwnedCells, E::Faces}, z.cellFaces,
             [](auto& m) { return tie(m.cellFaceOffsets, m.cellFaces); });
  device_array(v, ArrayInfo{"conn/cellFaceSign", E::CellFaceEntries, 1}, z.cellFaceSign,
               [](auto& m) { return tie(m.cellFaceSign); });
  device_csr(v, CsrInfo{"conn/cellCells", E::OwnedCells, E::Cells}, z.cellCells,
             [](auto& m) { return tie(m.cellCellOffsets, m.cellCells); });
  v.csr(CsrInfo{"conn/cellNodes", E::OwnedCells, E::Nodes}, z.cellNodes);
  device_csr(v, CsrInfo{"conn/faceNodes", E::Faces, E::Nodes}, z.faceNodes,
             [](auto& m) { return tie(m.faceNodeOffsets, m.faceNodes); });
  v.csr(CsrInfo{"conn/nodeFaces", E::Nodes, E::Faces}, z.nodeFaces);
  device_csr(v, CsrInfo{"conn/nodeCells", E::Nodes, E::OwnedCells, false, kSliced}, z.nodeCells,
             [](auto& m) { return tie(m.nodeSliceStart, m.nodeCellCount, m.nodeSliceCells); });
  device_array(v, ArrayInfo{"conn/nodeCellWeight", E::NodeCellEntries, 1, false, kSliced},
               z.nodeCellWeight, [](auto& m) { return tie(m.nodeSliceWeight); });
  v.csr(CsrInfo{"order/faceColours", E::Groups, E::Faces}, z.faceColours);
  v.csr(CsrInfo{"order/cellColours", E::Groups, E::OwnedCells}, z.cellColours);
  v.csr(CsrInfo{"order/hyperplanes", E::Groups, E::OwnedCells}, z.hyperplanes);
  v.array(ArrayInfo{"exchange/cells/neighbours", E::CellExchangeZones}, z.cellExchange.neighbours);
  v.csr(CsrInfo{"exchange/cells/send", E::CellExchangeZones, E::OwnedCells}, z.cellExchange.send);
  v.csr(CsrInfo{"exchange/cells/recv", E::CellExchangeZones, E::Cells}, z.cellExchange.recv);
  v.array(ArrayInfo{"exchange/nodes/neighbours", E::NodeExchangeZones}, z.nodeExchange.neighbours);
  v.csr(CsrInfo{"exchange/nodes/send", E::NodeExchangeZones, E::Nodes}, z.nodeExchange.send);
  v.csr(CsrInfo{"exchange/nodes/recv", E::NodeExchangeZones, E::Nodes}, z.nodeExchange.recv);
  detail::optional_device_array(v, ArrayInfo{"cells/wallDistance", E::Cells, 1}, z.cellWallDistance,
                                [](auto& m) { return tie(m.cellWallDistance); });
  // uploaded in place of conn/nodeCellWeight when the case asks for linear weights
  v.optional_array(ArrayInfo{"conn/nodeCellWeightLinear", E::NodeCellEntries},
                   z.nodeCellWeightLinear);
}

/// Computes a zone's derived arrays (those visit_zone_arrays() visits with derived_array())
/// from the stored ones: faceOwnerDelta = faceCentroid - cellCentroid[owner] and
/// faceNeighbourDelta = faceCentroid - cellCentroid[neighbour] (0 on boundary faces), the same
/// expressions, so the same bits, as fvprep's zone builder. The zone-file reader calls it after
/// mapping a zone. Needs faceOwner, faceNeighbour, faceCentroid and cellCentroid; throws
/// fv::Error when a face names a cell outside the zone.
void derive_zone_arrays(Zone& z);

} // namespace fv
