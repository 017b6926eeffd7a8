#pragma once
/// \file global_mesh.hpp
/// The whole mesh renumbered once (cells in Morton order, faces by Algorithm 2 of the hybrid
/// MPI-CUDA paper, nodes by first touch) with every connectivity and geometry array. Its numbering
/// defines the global ids of zone files, so they do not depend on the partitioning.
#include "common/csr.hpp"
#include "common/zone.hpp"
#include "formats/mesh.hpp"
#include "prep/geometry.hpp"
#include "prep/prep_options.hpp"
#include "prep/prep_report.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fv {

/// The renumbered global mesh. Owns its data. All ids are in the renumbered numbering unless
/// named *Mesh (ids of fv::Mesh, i.e. of the reader).
///   cells: [0, nCells) in Morton order (prep/spatial_order.hpp; file order with
///          Renumber::None). Zones renumber their cells by their own RCM (prep/zones.hpp).
///   faces: [0, nBoundaryFaces) boundary faces by patch, then by owner;
///          [nBoundaryFaces, nFaces) interior faces by (owner, neighbour), owner < neighbour
///   nodes: by first touch in cell order (cellNodes order)
struct GlobalMesh {
  std::vector<Patch> patches;
  std::vector<idx_t> patchFaceOffsets; ///< nPatches + 1: boundary faces of patch p
  Extrusion extrusion; ///< of a 2D mesh (thickness 0: 3D): node weights in its plane

  // ---- cells
  std::vector<idx_t> cellMesh; ///< fv::Mesh id of each cell
  std::vector<CellType> cellType;
  Csr cellNodes;                         ///< renumbered node ids, element (CGNS) order
  Csr cellFaces;                         ///< faces of each cell, ascending
  std::vector<std::int8_t> cellFaceSign; ///< +1 owner, -1 neighbour, parallel to cellFaces
  Csr cellCells;                         ///< face neighbours, ascending

  // ---- faces
  Csr faceNodes;                ///< normal points owner -> neighbour (outward on the boundary)
  std::vector<idx_t> owner;     ///< owner cell (the lower id on interior faces)
  std::vector<idx_t> neighbour; ///< kNone on boundary faces
  std::vector<idx_t> facePatch; ///< patch of boundary faces, -1 on interior faces
  std::vector<idx_t> faceBface; ///< fv::Mesh boundary face id (-1: interior / default patch)

  // ---- nodes
  std::vector<idx_t> nodeMesh; ///< fv::Mesh id of each node
  std::vector<real_t> xyz;     ///< 3 per node, m
  Csr nodeCells;               ///< transpose of cellNodes (cells ascending)

  // ---- geometry. Face geometry and node weights are not held for the whole mesh: each zone
  // computes those of its faces and nodes (face_geometry(), node_row_weights()), bitwise what a
  // whole-mesh computation gives, so that fvprep's peak holds neither (48 B per face, 16 B per
  // node-cell entry).
  CellGeometry cellGeom;
  /// Exact distance from each cell centroid to the nearest wall face (prep/wall_distance.hpp),
  /// m; empty when the mesh has no wall patch (PrepOptions::walls).
  std::vector<real_t> wallDistance;

  idx_t nCells() const { return static_cast<idx_t>(cellType.size()); }
  idx_t nFaces() const { return static_cast<idx_t>(owner.size()); }
  idx_t nNodes() const { return static_cast<idx_t>(nodeMesh.size()); }
  idx_t nBoundaryFaces() const { return patchFaceOffsets.empty() ? 0 : patchFaceOffsets.back(); }
};

/// Node -> cell weights of some nodes of a GlobalMesh over every cell of each node, so that a
/// node shared by zones gets the same weights in each. Owns its data.
struct NodeRowWeights {
  Csr rows; ///< row i: the cells of node nodes[i] (global ids, ascending: g.nodeCells' row)
  std::vector<real_t> inverseDistance; ///< parallel to rows: node_cell_weights()
  /// parallel to rows: linearly exact (common/node_weights.hpp); on a 2D mesh (g.extrusion) the
  /// in-plane inverse distance (node_row_weights())
  std::vector<real_t> linear;
};

/// The weights of nodes[0..n) (global node ids) from g.nodeCells, g.xyz and g.cellGeom.centroid:
/// row by row bitwise what node_cell_weights() and linear_exact_node_weights() give over the
/// whole mesh.
NodeRowWeights node_row_weights(const GlobalMesh& g, const gidx_t* nodes, idx_t n);

/// Builds faces, renumbers, builds connectivity and geometry and checks the cells (positive
/// volume, closure <= opts.closureTol). Fills report's counts, bandwidths and phase timings
/// when given. Throws fv::Error (naming mesh.path and file ids) on bad meshes.
GlobalMesh build_global_mesh(const Mesh& mesh, const PrepOptions& opts,
                             PrepReport* report = nullptr);

/// The same from faces already built by build_faces(mesh, opts.faces) (e.g. by validate_mesh()),
/// which are consumed.
GlobalMesh build_global_mesh(const Mesh& mesh, FaceSet&& faces, const PrepOptions& opts,
                             PrepReport* report = nullptr);

/// Called by build_global_topology() with g.cellCells as soon as the cell order is known, before
/// the faces and nodes are renumbered: fvprep starts METIS on it there (ConcurrentPartition).
/// The graph is final; nothing writes it afterwards.
using CellGraphReady = std::function<void(const Csr& cellCells)>;

/// The first half of build_global_mesh(): faces, renumbering and connectivity, without the
/// geometry (cellGeom and wall distance stay empty). g.cellCells is built with the cell order
/// and handed to `cellGraphReady` when given.
GlobalMesh build_global_topology(const Mesh& mesh, FaceSet&& faces, const PrepOptions& opts,
                                 PrepReport* report = nullptr,
                                 const CellGraphReady& cellGraphReady = {});

/// The second half: cell geometry, the volume and closure checks (errors name the failing cell
/// of the lowest file id) and wall distance.
void add_global_geometry(const Mesh& mesh, GlobalMesh& g, const PrepOptions& opts,
                         PrepReport* report = nullptr);

/// Frees the arrays of g that building zones does not read (the cells' closure measure, which
/// validation used, the boundary faces' ids in the source mesh and the cells' face signs), about
/// 16 bytes per cell: fvprep's peak is reached while zones are built. Call after the last reader
/// (make_zone_header, the reports) is done with them.
void release_unused_by_zones(GlobalMesh& g);

/// The patches whose faces are walls for the wall distance: opts.walls by name (a usage error
/// names an unknown one), else the no-slip wall BC types.
std::vector<char> wall_patch_flags(const Mesh& mesh, const std::vector<Patch>& patches,
                                   const PrepOptions& opts);

/// True when a cell fails the volume or closure check of opts.
bool cell_fails_checks(real_t volume, real_t closure, const PrepOptions& opts);

/// Throws the error of a cell failing the checks (named by its fv::Mesh id and file id).
[[noreturn]] void throw_bad_cell(const Mesh& mesh, idx_t meshCell, real_t volume, real_t closure,
                                 const PrepOptions& opts);
/// The same, the mesh and cell named by the caller (mesh_name(), cell_label()).
[[noreturn]] void throw_bad_cell(const std::string& meshName, const std::string& cellLabel,
                                 real_t volume, real_t closure, const PrepOptions& opts);

/// Inverse-distance node weights: for each nodeCells entry (n, c), 1/|x_n - x_c| normalised over
/// the row (a node at a centroid gets weight 1 for that cell); the distance in the plane of a
/// 2D mesh extruded along `plane` (unit; zero for a 3D mesh), independent of the thickness.
std::vector<real_t> node_cell_weights(const Csr& nodeCells, const real_t* nodeXyz,
                                      const real_t* cellCentroid,
                                      const std::array<real_t, 3>& plane = {0, 0, 0});

} // namespace fv
