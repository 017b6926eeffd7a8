#pragma once
/// \file structured_block.hpp
/// Index arithmetic of one structured block (a CGNS structured zone, a Plot3D block): its
/// cells as hexahedra (quadrilaterals in 2D), its boundary faces side by side, which of those
/// faces a point range or point list names, and the node pairs of a 1-to-1 interface.
/// Indices given to and returned by these functions are 1-based (i, j, k) triples as in the
/// file; node and cell numbers are 0-based linear indices, i fastest (Fortran order, as CGNS
/// and Plot3D store the coordinates).
#include "common/types.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fv {

/// One structured block of dim (2 or 3) index directions.
struct StructuredBlock {
  int dim = 3;                             ///< index dimension: 2 (planar) or 3
  std::array<std::int64_t, 3> nv{1, 1, 1}; ///< vertices per direction (nv[2] = 1 in 2D)

  std::int64_t n_nodes() const { return nv[0] * nv[1] * nv[2]; }
  std::int64_t n_cells() const;
  /// Linear node number of the 1-based vertex (i, j, k).
  std::int64_t node(const std::array<std::int64_t, 3>& ijk) const {
    return (ijk[0] - 1) + nv[0] * ((ijk[1] - 1) + nv[1] * (ijk[2] - 1));
  }
  /// True when the 1-based triple lies inside the vertex range of the block.
  bool has_vertex(const std::array<std::int64_t, 3>& ijk) const;
};

/// Node numbers of every cell, 8 per hexahedron (3D) or 4 per quadrilateral (2D), in the
/// standard corner order, cells numbered i fastest. With leftHanded, the hexahedra are
/// mirrored (k layers swapped) so that their volumes come out positive.
std::vector<std::int64_t> block_cells(const StructuredBlock& b, bool leftHanded);

/// Sign of the block's handedness from its coordinates (3 per node, block order): true when
/// the sum of the cell Jacobians (i x j . k) is negative. Always false in 2D (2D cells are
/// oriented when extruded).
bool block_is_left_handed(const StructuredBlock& b, const std::vector<double>& xyz);

/// One boundary face of a block: its side (0 imin, 1 imax, 2 jmin, 3 jmax, 4 kmin, 5 kmax)
/// and the 1-based vertex of its lowest corner.
struct BlockFace {
  int side = 0;
  std::array<std::int64_t, 3> lo{1, 1, 1};
};

/// Every boundary face of the block, side by side (2 (dim) faces per side cell).
std::vector<BlockFace> block_boundary_faces(const StructuredBlock& b);

/// Corner nodes of a boundary face (4 in 3D, 2 in 2D); returns the count.
int block_face_nodes(const StructuredBlock& b, const BlockFace& f, std::int64_t out[4]);

/// Corner vertices (1-based triples) of a boundary face; returns the count.
int block_face_corners(const StructuredBlock& b, const BlockFace& f,
                       std::array<std::int64_t, 3> out[4]);

/// How a point set names faces: by their vertices, or by the face's own index (the face
/// centre: vertex index in the face's normal direction, cell indices in the others).
enum class PointSetAt { Vertex, FaceCenter };

/// True when face f is named by the range lo..hi (1-based, inclusive). At vertices, every
/// corner must lie in the range. At face centres the range must be one plane in f's normal
/// direction, on f's side, and contain f's index in the others.
bool face_in_range(const StructuredBlock& b, const BlockFace& f, PointSetAt at,
                   const std::array<std::int64_t, 3>& lo, const std::array<std::int64_t, 3>& hi);

/// Face-centre index (1-based) of a boundary face: the plane's vertex index in the normal
/// direction, the cell indices in the others.
std::array<std::int64_t, 3> face_center_index(const StructuredBlock& b, const BlockFace& f);

/// Node pairs (node of this block, node of the donor block) of a 1-to-1 interface given as in
/// CGNS GridConnectivity1to1_t: the vertex range of this block, the donor's range begin and
/// the transform (Index2 = T (Index1 - Begin1) + Begin2, transform[c] = +/-(row + 1) of
/// column c). Throws fv::Error naming `where` when a donor index falls outside the donor.
std::vector<std::pair<std::int64_t, std::int64_t>>
one_to_one_pairs(const StructuredBlock& self, const StructuredBlock& donor,
                 const std::array<std::int64_t, 3>& lo, const std::array<std::int64_t, 3>& hi,
                 const std::array<std::int64_t, 3>& donorBegin, const std::array<int, 3>& transform,
                 const std::string& where);

} // namespace fv
