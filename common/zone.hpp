#pragma once
/// \file zone.hpp
/// The zone-file schema: what one zone of a prepared mesh holds, and the one list of its arrays
/// (visit_zone()) that the writer, the memory-mapping reader, the checker and the checksums all
/// iterate over, so that the layout is written down exactly once.
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
#include "common/csr.hpp"
#include "common/types.hpp"

#include <string>
#include <vector>

namespace fv {

/// Format version of zone files written by this build; readers accept exactly the versions in
/// [kZoneFormatMinVersion, kZoneFormatVersion].
inline constexpr int kZoneFormatVersion = 1;
inline constexpr int kZoneFormatMinVersion = 1;

/// Cell shapes (values are stored in zone files: never renumber).
enum class CellType : std::int8_t { Tet = 0, Pyramid = 1, Prism = 2, Hex = 3, Polyhedron = 4 };

/// Number of corner nodes of a standard cell shape (0 for Polyhedron: it has any number).
constexpr int cell_node_count(CellType t) {
  switch (t) {
  case CellType::Tet:
    return 4;
  case CellType::Pyramid:
    return 5;
  case CellType::Prism:
    return 6;
  case CellType::Hex:
    return 8;
  case CellType::Polyhedron:
    return 0;
  }
  return 0;
}

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
  Array<gidx_t> faceGlobalId;       ///< id in the renumbered global mesh
  Array<idx_t> faceOwner;           ///< owner cell (always an owned cell)
  Array<idx_t> faceNeighbour;       ///< neighbour cell (owned or halo), kNone on boundary faces
  Array<real_t> faceArea;           ///< area vector, 3 per face, owner -> neighbour, |S| in m^2
  Array<real_t> faceCentroid;       ///< 3 per face, m
  Array<real_t> faceOwnerDelta;     ///< face centroid - owner centroid, 3 per face, m
  Array<real_t> faceNeighbourDelta; ///< face centroid - neighbour centroid (0 on boundary), m

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

/// Every array of a zone with its dataset path, in schema order. `v` is called as
///   v.array(name, Array<T>&)           for plain arrays,
///   v.optional_array(name, Array<T>&)  for arrays a zone (or an older file) may lack: empty
///                                      or of the full size, and
///   v.csr(name, Csr&)                  for CSR relations (stored as name/offsets, name/indices).
/// Z is Zone or const Zone.
template <class Z, class V>
void visit_zone_arrays(Z& z, V&& v) {
  v.array("patchFaceOffsets", z.patchFaceOffsets);
  v.array("cells/globalId", z.cellGlobalId);
  v.array("cells/type", z.cellType);
  v.array("cells/volume", z.cellVolume);
  v.array("cells/centroid", z.cellCentroid);
  v.array("faces/globalId", z.faceGlobalId);
  v.array("faces/owner", z.faceOwner);
  v.array("faces/neighbour", z.faceNeighbour);
  v.array("faces/area", z.faceArea);
  v.array("faces/centroid", z.faceCentroid);
  v.array("faces/ownerDelta", z.faceOwnerDelta);
  v.array("faces/neighbourDelta", z.faceNeighbourDelta);
  v.array("nodes/globalId", z.nodeGlobalId);
  v.array("nodes/xyz", z.nodeXyz);
  v.csr("conn/cellFaces", z.cellFaces);
  v.array("conn/cellFaceSign", z.cellFaceSign);
  v.csr("conn/cellCells", z.cellCells);
  v.csr("conn/cellNodes", z.cellNodes);
  v.csr("conn/faceNodes", z.faceNodes);
  v.csr("conn/nodeFaces", z.nodeFaces);
  v.csr("conn/nodeCells", z.nodeCells);
  v.array("conn/nodeCellWeight", z.nodeCellWeight);
  v.csr("order/faceColours", z.faceColours);
  v.csr("order/cellColours", z.cellColours);
  v.csr("order/hyperplanes", z.hyperplanes);
  v.array("exchange/cells/neighbours", z.cellExchange.neighbours);
  v.csr("exchange/cells/send", z.cellExchange.send);
  v.csr("exchange/cells/recv", z.cellExchange.recv);
  v.array("exchange/nodes/neighbours", z.nodeExchange.neighbours);
  v.csr("exchange/nodes/send", z.nodeExchange.send);
  v.csr("exchange/nodes/recv", z.nodeExchange.recv);
  v.optional_array("cells/wallDistance", z.cellWallDistance);
}

} // namespace fv
