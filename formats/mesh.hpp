#pragma once
/// \file mesh.hpp
/// fv::Mesh: an imported unstructured mesh in memory, as the readers (CGNS, SU2, Gmsh) and the
/// generators produce it and fvprep consumes it. All indices are 0-based.
///
/// Node order of cells follows the CGNS convention (same corners as VTK for Tet/Pyramid/Hex;
/// PENTA_6 = triangle 0-1-2 then 3-4-5 above it). Readers convert other conventions to it.
/// With that order the faces of standard cells point outward (see common/cell_shapes.hpp).
#include "common/csr.hpp"
#include "common/types.hpp"
#include "common/zone.hpp"

#include <string>
#include <vector>

namespace fv {

/// A patch that the file gives as a node set and that the reader could not map onto the file's
/// boundary elements (e.g. CGNS BCs at Vertex in a zone without boundary sections). Validation
/// (prep/validate.hpp) gives it the cell faces on the boundary whose nodes all lie in the set.
struct NodeSetPatch {
  idx_t patch = 0;          ///< index into Mesh::patches
  std::vector<idx_t> nodes; ///< mesh node indices, ascending
};

/// An imported mesh. Owns all its data.
struct Mesh {
  // ---- nodes
  std::vector<real_t> xyz; ///< 3 per node, interleaved, in file units (normally m)

  // ---- volume cells
  std::vector<CellType> cellType; ///< one per cell
  Csr cellNodes;                  ///< nodes of each cell (for Polyhedron: its distinct nodes)
  /// Polyhedral cells only: for cell c with polyCell[c] = k >= 0, polyCellFaces row k lists
  /// faces of polyFaceNodes; an entry ~f (bitwise not, negative) means face f is reversed for
  /// this cell. polyCell[c] = -1 for standard cells. Empty when the mesh has no polyhedra.
  std::vector<idx_t> polyCell;
  Csr polyCellFaces;
  Csr polyFaceNodes;

  // ---- boundary faces (polygons of 3 or more nodes, any orientation as read)
  Csr bfaceNodes;                ///< nodes of each boundary face
  std::vector<idx_t> bfacePatch; ///< patch index of each boundary face
  std::vector<Patch> patches;    ///< patch table
  /// Patches still given as node sets (usually none; see NodeSetPatch).
  std::vector<NodeSetPatch> nodeSetPatches;

  // ---- provenance, for messages: ids as the file numbers them
  std::vector<gidx_t> cellFileId;    ///< file id of each cell (e.g. CGNS element id, 1-based)
  std::vector<gidx_t> bfaceFileId;   ///< file id of each boundary face (-1 if synthesised)
  std::string path;                  ///< file the mesh was read from
  std::string format;                ///< "CGNS/HDF5", "CGNS/ADF", "SU2", "Gmsh 4.1 binary", ...
  std::string writer;                ///< tool that wrote the file, when the file says
  std::vector<std::string> warnings; ///< non-fatal issues found while reading
  /// File id of each node when it is not index + 1 (SU2: 0-based index; Gmsh: node tag);
  /// empty when node i is node i + 1 of the file (CGNS single zone, generated meshes).
  std::vector<gidx_t> nodeFileId;
  /// Several file zones merged into one mesh (CGNS multi-zone): their names, and the zone of
  /// each cell / boundary face (index into fileZones). All three are empty for one zone.
  std::vector<std::string> fileZones;
  std::vector<std::int32_t> cellFileZone;
  std::vector<std::int32_t> bfaceFileZone;
  /// The extrusion that made this mesh of a 2D one (extrude_2d()); thickness 0 for a 3D mesh.
  Extrusion extrusion;

  idx_t nNodes() const { return static_cast<idx_t>(xyz.size() / 3); }
  idx_t nCells() const { return static_cast<idx_t>(cellType.size()); }
  idx_t nBoundaryFaces() const { return bfaceNodes.rows(); }
};

/// File id of node v (see Mesh::nodeFileId).
inline gidx_t node_file_id(const Mesh& m, idx_t v) {
  return static_cast<std::size_t>(v) < m.nodeFileId.size()
             ? m.nodeFileId[static_cast<std::size_t>(v)]
             : static_cast<gidx_t>(v) + 1;
}

} // namespace fv
