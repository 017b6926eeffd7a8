#pragma once
/// \file dist_mesh.hpp
/// The distributed fvprep (`mpirun -np N fvprep MESH --parts P -o OUT`): the renumbered global
/// mesh of prep/global_mesh.hpp computed by N ranks together, each holding a block of it, and
/// zones built on every rank from what the ranks hand each other. The numbering is the serial
/// one (Morton cell order, Algorithm-2 faces, first-touch nodes), so for the same partition
/// the zones are the serial ones, array for array, and the mesh UUID is the same.
///
/// How the work is split (docs/parallel.md, "Preparing on several processes"):
///   - reading: each rank holds a slice of the source mesh (formats/mesh_slice.hpp: blocks of
///     cells, file boundary faces and node coordinates; a CGNS/HDF5 file of one unstructured
///     3D zone with standard linear volume sections is read in slices, any other file whole and
///     then cut);
///   - faces: each rank sends its slice's cell and boundary faces, with their nodes, to the rank
///     whose node range holds their smallest node, which matches them (match_face_buckets()),
///     so the face list is build_faces()' in pieces;
///   - cells: Morton keys of the slice's cells (node coordinates fetched from their holders),
///     sorted across ranks (sample sort); the cells then move to the rank of their renumbered
///     block;
///   - faces are numbered by the rank holding their lower renumbered cell; nodes by the rank of
///     the first cell touching them;
///   - geometry, checks and wall distance per cell block; the dual graph goes to PT-Scotch
///     (prep/partition_distributed.hpp), or to METIS on rank 0 for a serial-equal partition;
///   - zones are built T at a time per rank (T OpenMP threads; prep/dist_zones.hpp), each from
///     the cells, faces and geometry its owned cells and their node neighbours need, fetched
///     from the ranks holding them.
/// Every rank keeps four renumbering maps (4 bytes per cell or node each) while faces and
/// nodes are numbered. Then each rank holds its block in renumbered order (materialize_block());
/// the geometry, the wall distance, the mesh UUID and the zones read the blocks. Error messages
/// name cells and faces as the file does, through their holders (prep/dist_source.hpp).
#include "common/csr.hpp"
#include "common/zone.hpp"
#include "formats/mesh_slice.hpp"
#include "prep/dist_comm.hpp"
#include "prep/dist_source.hpp"
#include "prep/faces.hpp"
#include "prep/geometry.hpp"
#include "prep/prep_options.hpp"
#include "prep/prep_report.hpp"

#include <cstdint>
#include <vector>

namespace fv {

/// One face of the renumbered global mesh, as the distributed prepare passes it between ranks.
/// Its nodes are those build_faces() gives face fsId, reversed when flip (fetched into
/// DistGlobalMesh::faceNodes from the rank that matched it).
struct DistFace {
  gidx_t gid = -1;       ///< id in the renumbered global mesh
  gidx_t fsId = -1;      ///< id in build_faces() order (orders a cell's faces as the serial path)
  idx_t lo = kNone;      ///< owner: the lower renumbered cell
  idx_t hi = kNone;      ///< neighbour, kNone on the boundary
  idx_t patch = -1;      ///< patch of a boundary face, -1 inside
  idx_t bface = -1;      ///< file boundary face (-1: interior or default patch)
  std::int32_t flip = 0; ///< 1: the node loop of `entry` is reversed
};

/// The renumbered global mesh held by one rank of the distributed prepare. Owns its data.
struct DistGlobalMesh {
  // ---- global
  gidx_t nCells = 0, nFaces = 0, nNodes = 0, nBoundaryFaces = 0;
  std::vector<Patch> patches;
  std::vector<gidx_t> patchFaceOffsets; ///< nPatches + 1, global face ids
  Extrusion extrusion; ///< of a 2D mesh (thickness 0: 3D): node weights in its plane
  dist::Blocks cells;                   ///< renumbered cell ids by rank
  // ---- renumbering maps, on every rank
  std::vector<idx_t> cellMesh; ///< source (fv::Mesh) cell of each renumbered cell
  std::vector<idx_t> newCell;  ///< renumbered id of each source cell
  std::vector<idx_t> newNode;  ///< renumbered id of each source node, kNone when unused
  std::vector<idx_t> nodeMesh; ///< source node of each renumbered node
  // ---- this rank's block of cells: renumbered ids [cells.first(rank), cells.first(rank + 1))
  std::vector<DistFace> faces;           ///< every face of the block's cells, ascending gid
  Csr cellFaces;                         ///< block cell i's faces (indices into faces), ascending
  std::vector<std::int8_t> cellFaceSign; ///< parallel to cellFaces: +1 owner, -1 neighbour
  CellGeometry cellGeom;                 ///< of the block's cells
  std::vector<real_t> wallDistance;      ///< of the block's cells; empty without wall patches
  // ---- what the checks found (global)
  real_t minVolume = 0, maxVolume = 0, maxClosure = 0;
  // ---- the block in renumbered node ids (materialize_block()): what the zones, the mesh UUID
  //      and the rest of the prepare read instead of the source mesh
  dist::Ranges nodeHolders; ///< renumbered nodes: rank r numbered [first[r], first[r + 1]) and
                            ///< holds their coordinates
  std::vector<CellType> blockCellType; ///< of the block's cells
  Csr blockCellNodes;                  ///< the block's cells' nodes (block node ids, element order)
  Csr faceNodes;                       ///< parallel to faces: block node ids, normal lo -> hi
  std::vector<idx_t> blockNodes;       ///< block node -> renumbered node id (ascending)
  std::vector<real_t> blockNodeXyz;    ///< coordinates of the block nodes, 3 per node
};

/// Builds the renumbered global mesh over comm's ranks from their slices of the source mesh.
/// COLLECTIVE; bad input throws the serial prepare's fv::Error on every rank.
DistGlobalMesh build_dist_global_mesh(const dist::Comm& comm, const MeshSlice& slice,
                                      const PrepOptions& opts, PrepReport* report = nullptr);

/// Makes the block in renumbered node ids (the cells moved there, their nodes, the coordinates
/// of those nodes fetched from the slices, the faces' node loops g.faceNodes; node ids are
/// block node ids, indices into g.blockNodes). Called by build_dist_global_mesh() before the
/// geometry, which then reads the block (renumbered order: nearby cells, nearby nodes).
void materialize_block(const dist::Comm& comm, const MeshSlice& slice, const SliceLayout& layout,
                       DistGlobalMesh& g);

/// Frees the four renumbering maps; after it, and after materialize_block(), nothing reads the
/// source slices.
void release_source_maps(DistGlobalMesh& g);

/// The face neighbours of the block's cells (renumbered ids, ascending, one per face: the
/// serial GlobalMesh::cellCells rows).
Csr dist_cell_cells(const dist::Comm& comm, const DistGlobalMesh& g);

} // namespace fv
