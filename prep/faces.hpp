#pragma once
/// \file faces.hpp
/// Face extraction: every face of an imported mesh exactly once, with owner/neighbour cells, an
/// orientation (owner -> neighbour, outward on the boundary) and, for boundary faces, the patch
/// and the boundary face of the file it matches.
#include "common/csr.hpp"
#include "common/zone.hpp"
#include "formats/mesh.hpp"

#include <string>
#include <vector>

namespace fv {

/// Options of build_faces().
struct FaceOptions {
  /// When non-empty, cell faces on the boundary that no patch of the file covers go to a new
  /// patch of this name (bcType "UserDefined") instead of being an error.
  std::string defaultPatch;
};

/// The faces of a mesh in the mesh's own (original) cell and node numbering. Owns its data.
/// Face order: by smallest node id, then by the sorted node list (deterministic; fvprep
/// renumbers faces afterwards, see renumber.hpp).
struct FaceSet {
  Csr faceNodes;                ///< nodes of each face, right-hand normal points owner -> neighbour
  std::vector<idx_t> owner;     ///< owner cell (for interior faces the lower original cell id)
  std::vector<idx_t> neighbour; ///< neighbour cell, kNone on boundary faces
  std::vector<idx_t> patch;     ///< patch index of boundary faces, -1 on interior faces
  std::vector<idx_t> bface;     ///< index into mesh.bfaceNodes, -1 on interior faces and on
                                ///< faces that went to the default patch
  std::vector<Patch> patches;   ///< mesh.patches, plus the default patch when one was needed

  idx_t nFaces() const { return static_cast<idx_t>(owner.size()); }
  idx_t nBoundaryFaces() const;
};

/// Builds every face once from the cells (standard shapes through common/cell_shapes.hpp,
/// polyhedra through mesh.polyCellFaces / polyFaceNodes) and matches the file's boundary faces
/// to them. Consecutive repeated nodes of a face (collapsed elements) are dropped; faces left
/// with fewer than 3 distinct nodes are not faces. Cost O(N log k) time (k: faces per node),
/// memory ~ 9 bytes per cell face plus the result.
/// Throws fv::Error (one line naming mesh.path and file ids) on: malformed cells, a face shared
/// by more than two cells, a boundary face of the file matching no cell face or an interior face,
/// a boundary face listed twice, a cell face on the boundary no patch covers (unless
/// opts.defaultPatch is set).
FaceSet build_faces(const Mesh& mesh, const FaceOptions& opts = {});

/// Checks the mesh arrays build_faces() relies on (sizes, node ranges, polyhedron references,
/// boundary faces and patch indices). Throws fv::Error naming the first bad entity.
void validate_mesh_arrays(const Mesh& mesh);

} // namespace fv
