#pragma once
/// \file cell_faces.hpp
/// Local faces of the standard cell shapes in CGNS node order (CGNS SIDS, "Unstructured Grid
/// Element Numbering Conventions"). Faces are listed so that their right-hand-rule normal
/// points out of a positively oriented cell.
#include "common/zone.hpp"

namespace fv {

/// Local face f of a standard cell shape: n corner indices into the cell's node list.
struct LocalFace {
  int n;
  int v[4];
};

/// Number of faces of a standard cell shape (0 for Polyhedron).
int cell_face_count(CellType t);

/// Face f (0-based) of a standard cell shape.
const LocalFace& cell_face(CellType t, int f);

/// Human-readable shape name ("tetrahedron", ...).
const char* cell_type_name(CellType t);

} // namespace fv
