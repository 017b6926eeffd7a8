#pragma once
/// \file faces.hpp
/// Face extraction: every face of an imported mesh exactly once, with owner/neighbour cells, an
/// orientation (owner -> neighbour, outward on the boundary) and, for boundary faces, the patch
/// and the boundary face of the file it matches.
#include "common/csr.hpp"
#include "common/zone.hpp"
#include "formats/mesh.hpp"

#include <cstdint>
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

// ---- the pieces of build_faces(), for the distributed fvprep (prep/dist_mesh.hpp), which
// matches the faces of each node range on its own rank.

/// A face as one cell or the file sees it: (cell << 16) | local face, or ~bface (negative) for
/// boundary face bface of the file.
using FaceEntry = std::int64_t;
/// The entry of local face lf of cell c.
FaceEntry cell_face_entry(idx_t c, int lf);
/// Faces of cell c (its shape's, or its polyhedron face list's).
int mesh_cell_face_count(const Mesh& m, idx_t c);
/// The nodes of an entry's face as the cell (outward) or the file lists them, repeated nodes
/// dropped.
void face_entry_nodes(const Mesh& m, FaceEntry e, std::vector<idx_t>& out);

/// What match_face_buckets() reads of the entries it matches: their nodes, the patch of file
/// boundary faces, and the names that error messages give. `slot` is the item's slot as passed
/// to match_face_buckets().
class FaceEntrySource {
 public:
  virtual ~FaceEntrySource() = default;
  /// The mesh's name in messages (its path).
  virtual const std::string& name() const = 0;
  /// The patch table the file's boundary faces index.
  virtual const std::vector<Patch>& patches() const = 0;
  /// face_entry_nodes() of the entry.
  virtual void nodes(FaceEntry e, idx_t slot, std::vector<idx_t>& out) const = 0;
  /// The patch of a file boundary face entry.
  virtual idx_t bface_patch(FaceEntry e, idx_t slot) const = 0;
  /// How messages name cell c and the boundary face of an entry (prep/mesh_ids.hpp).
  virtual std::string cell_label(idx_t c) const = 0;
  virtual std::string bface_label(FaceEntry e, idx_t slot) const = 0;
};

/// The entries of a whole fv::Mesh (build_faces()).
class MeshFaceEntries final : public FaceEntrySource {
 public:
  explicit MeshFaceEntries(const Mesh& m);
  const std::string& name() const override { return name_; }
  const std::vector<Patch>& patches() const override { return m_.patches; }
  void nodes(FaceEntry e, idx_t slot, std::vector<idx_t>& out) const override;
  idx_t bface_patch(FaceEntry e, idx_t slot) const override;
  std::string cell_label(idx_t c) const override;
  std::string bface_label(FaceEntry e, idx_t slot) const override;

 private:
  const Mesh& m_;
  std::string name_;
};

/// The node loop of a face entry as match_face_buckets() reads it next to the entry, so that
/// matching does not go back to the cells (whose rows it would visit in bucket order, one cache
/// miss each): the nodes of face_entry_nodes() when there are at most 4 of them, kNone after the
/// last; v[0] == kLongLoop for a longer loop, which is read from the FaceEntrySource.
struct FaceLoop4 {
  static constexpr idx_t kLongLoop = -2;
  idx_t v[4];
};
/// The FaceLoop4 of a node loop (face_entry_nodes()' output).
FaceLoop4 face_loop4(const std::vector<idx_t>& nodes);

/// One entry in a bucket of match_face_buckets(): the entry, its node loop and the slot by which
/// the FaceEntrySource knows it (kNone for a whole fv::Mesh). One record, so that bucketing
/// writes one place per entry.
struct FaceBucketItem {
  FaceEntry entry;
  FaceLoop4 loop;
  idx_t slot;
};

/// What match_face_buckets() found.
struct FaceBucketResult {
  FaceSet faces;                  ///< the buckets' faces, in build_faces() order
  bool defaultPatchAdded = false; ///< faces.patches ends with a default patch not in the file
  bool defaultPatchUsed = false;  ///< some face of these buckets went to the default patch
};

/// The faces whose smallest node lies in [nodeLo, nodeHi): bucket v (node nodeLo + v) holds the
/// items[bucketOff[v] .. bucketOff[v+1]) of every cell face and file boundary face
/// whose smallest node it is (any order: they are sorted here). Faces come out in build_faces()
/// order, so consecutive node ranges concatenate to build_faces()' face list; errors are those
/// of build_faces() for the lowest failing bucket; the items are left sorted. src.nodes() is
/// asked only for loops of more than 4 nodes, by the item's entry and slot. A default patch
/// is always appended to faces.patches when opts asks for one the file lacks (build_faces()
/// drops it when unused).
FaceBucketResult match_face_buckets(const FaceEntrySource& src, idx_t nodeLo, idx_t nodeHi,
                                    const std::vector<idx_t>& bucketOff,
                                    std::vector<FaceBucketItem>& items, const FaceOptions& opts);

/// Checks the mesh arrays build_faces() relies on (sizes, node ranges, polyhedron references,
/// boundary faces and patch indices). Throws fv::Error naming the first bad entity.
void validate_mesh_arrays(const Mesh& mesh);
/// The two halves of validate_mesh_arrays(), for a mesh whose cells and boundary faces refer to
/// nNodes nodes held elsewhere (a slice of the distributed fvprep): cells (and polyhedra), then
/// boundary faces.
void validate_cell_arrays(const Mesh& mesh, idx_t nNodes);
void validate_bface_arrays(const Mesh& mesh, idx_t nNodes);

} // namespace fv
