#pragma once
/// \file mesh_builder.hpp
/// MeshBuilder: what every reader fills while it parses a file, turned into an fv::Mesh by
/// finish(). Keeps the readers free of CSR bookkeeping and puts the 2D extrusion, the
/// patch table and the final consistency checks in one place.
#include "formats/mesh.hpp"
#include "formats/mesh_reader.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace fv {

/// Accumulates nodes, cells, boundary faces and patches of a mesh being read.
/// For a 2D mesh (dim == 2) "cells" are triangles/quads and boundary faces are edges (2 nodes);
/// finish() extrudes them. Owns all its data.
struct MeshBuilder {
  int dim = 3;                    ///< cell dimension: 3 (volume mesh) or 2 (planar mesh to extrude)
  std::vector<real_t> xyz;        ///< 3 per node, file units
  std::vector<gidx_t> nodeFileId; ///< file id per node when not index + 1 (else empty)

  // cells: nodes of cell i are cellConn[cellOff[i] .. cellOff[i+1])
  std::vector<CellType> cellType; ///< 3D only (2D cells are told apart by their node count)
  std::vector<idx_t> cellOff{0}, cellConn;
  std::vector<gidx_t> cellFileId;
  std::vector<std::int32_t> cellZone; ///< file zone of each cell (CGNS multi-zone), else empty

  // polyhedra (3D): polyCell[c] = row of polyCellFaces, or -1; faces of polyFaceNodes
  std::vector<idx_t> polyCell;
  std::vector<idx_t> pcfOff{0}, pcfConn; ///< faces of each polyhedron (~f: reversed)
  std::vector<idx_t> pfnOff{0}, pfnConn; ///< nodes of each polyhedral face

  // boundary faces (3D: polygons; 2D: edges)
  std::vector<idx_t> bOff{0}, bConn;
  std::vector<gidx_t> bFileId;
  std::vector<idx_t> bPatch; ///< patch index, or -1 when no patch was found (yet)
  std::vector<std::int32_t> bZone;

  std::vector<Patch> patches;
  std::vector<NodeSetPatch> nodeSetPatches; ///< node-set patches left for validation
  std::vector<std::string> zoneNames;       ///< file zones (only when several were merged)
  std::vector<std::string> warnings;

  std::string path, format, writer;
  Extrusion extrusion; ///< set by extrude_2d(), passed on to the Mesh

  idx_t nNodes() const { return static_cast<idx_t>(xyz.size() / 3); }
  idx_t nCells() const { return static_cast<idx_t>(cellOff.size() - 1); }
  idx_t nBFaces() const { return static_cast<idx_t>(bOff.size() - 1); }

  /// Adds a standard cell (3D) or a triangle/quad (2D, t ignored); returns its index.
  idx_t add_cell(CellType t, const idx_t* nodes, int n, gidx_t fileId);
  /// Adds a polyhedron given its faces (indices into the poly face list, ~f when reversed).
  idx_t add_poly_cell(const idx_t* faces, int nf, gidx_t fileId);
  /// Adds a polyhedral face (polygon); returns its index in the poly face list.
  idx_t add_poly_face(const idx_t* nodes, int n);
  /// Adds a boundary face (or edge in 2D) with a patch (-1: none yet); returns its index.
  idx_t add_bface(const idx_t* nodes, int n, gidx_t fileId, idx_t patch);
  /// Removes the boundary faces f with drop[f] != 0 (faces glued into the interior), keeping
  /// the others in order. Returns the old index of each kept face, for the caller's own
  /// per-face columns (keep_rows()).
  std::vector<idx_t> drop_bfaces(const std::vector<char>& drop);
  /// Index of the patch with this name, created with bcType when new. A later, different
  /// bcType for the same name is recorded as a warning.
  idx_t patch(const std::string& name, const std::string& bcType);
  /// Records a non-fatal issue (also logged at warning level).
  void warn(const std::string& msg);

  /// Turns the builder into a Mesh: checks node indices, drops patches without faces,
  /// extrudes 2D meshes (opts.extrudeThickness). Boundary faces left without a patch keep
  /// patch -1 only if allowUnpatched, else they get the patch "unassigned" with a warning.
  Mesh finish(const ReadOptions& opts);
  /// finish() of a builder holding only the boundary faces and patches of a mesh of nNodes
  /// nodes (a sliced read reads cells and coordinates in blocks: formats/mesh_slice.hpp).
  Mesh finish_boundary(idx_t nNodes);

 private:
  /// finish() after the cells: the boundary faces' nodes (of nn), the patch table, the Mesh.
  Mesh finish_checked(idx_t nn);
  std::unordered_map<std::string, idx_t> patchIndex_;
};

/// Keeps rows kept[0], kept[1], ... of v, in that order (kept: from drop_bfaces()).
template <class T>
void keep_rows(std::vector<T>& v, const std::vector<idx_t>& kept) {
  std::vector<T> out;
  out.reserve(kept.size());
  for (idx_t k : kept)
    out.push_back(v[static_cast<std::size_t>(k)]);
  v = std::move(out);
}

/// Extrudes a planar mesh (builder with dim == 2) into one layer of prisms/hexahedra of the
/// given thickness (<= 0: kDefaultExtrudeFraction of the largest in-plane extent) along the
/// plane's normal. Cells are oriented so their volumes are positive; the two new sides form
/// the patch "symmetry" (BCSymmetryPlane); edges become quads of their patch; b.extrusion
/// records the thickness and the direction (for the mesh, its zone file and fvrun). A thickness
/// the nodes cannot hold to a relative 1e-6 (below about 2.2e-10 times the largest coordinate)
/// is an error: a usage error when it was given.
void extrude_2d(MeshBuilder& b, double thickness);

} // namespace fv
