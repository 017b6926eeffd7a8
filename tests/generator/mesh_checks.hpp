#pragma once
/// \file mesh_checks.hpp
/// Independent checks of an fv::Mesh for the generator tests: cell volumes by the divergence
/// theorem and a small sort-based face matcher (kept apart from prep/faces so that the tests
/// do not trust the code they will later check).
#include "formats/mesh.hpp"

#include <array>
#include <string>
#include <vector>

namespace fv::testing {

/// Volume of cell c: sum over its outward faces, each cut into triangles around the face's
/// node mean, of the signed tetrahedra with the cell's node mean.
double cell_volume(const Mesh& m, idx_t c);

/// Outward area vector of boundary face f (triangles around the face's node mean).
std::array<double, 3> bface_area(const Mesh& m, idx_t f);

/// Result of matching every cell face against the other cell faces and the boundary faces.
struct FaceMatch {
  long interior = 0; ///< faces shared by two cells with opposite orientation
  long boundary = 0; ///< cell faces matched by exactly one boundary face of the same orientation
  std::vector<std::string> errors; ///< the first problems found (empty when conforming)
};

/// Every cell face must be matched by exactly one other cell face (reversed) or by exactly
/// one boundary face (same orientation, i.e. outward); every boundary face by one cell face.
FaceMatch match_faces(const Mesh& m);

/// Canonical geometry of a mesh, independent of its numbering: for each cell its type and its
/// node coordinates in element order, sorted; and the sorted node coordinates.
struct Geometry {
  std::vector<std::vector<double>> cells;
  std::vector<std::array<double, 3>> nodes;
  std::vector<std::vector<double>> bfaces; ///< patch id then node coordinates, sorted
  bool operator==(const Geometry& o) const {
    return cells == o.cells && nodes == o.nodes && bfaces == o.bfaces;
  }
};
Geometry canonical_geometry(const Mesh& m);

} // namespace fv::testing
