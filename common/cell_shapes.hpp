#pragma once
/// \file cell_shapes.hpp
/// The one table of the standard cell shapes (tetrahedron, pyramid, prism, hexahedron) that the
/// mesh readers and writers, fvprep and the solution files share: corner and face counts, the
/// local faces, the VTK/XDMF codes and node order, the linear Gmsh element type.
///
/// Node order: CGNS (CGNS SIDS, "Unstructured Grid Element Numbering Conventions"), fvkit's order
/// everywhere. Local faces are listed so that their right-hand-rule normal points out of a
/// positively oriented cell.
///
/// Ownership: kCellShapes is static constexpr data (no allocation, no initialisation order);
/// the accessors return references into it or values. Header-only and constexpr apart from the
/// checked accessors in cell_shapes.cpp, so host code of any layer (and nvcc) can include it;
/// no kernel uses it today (the device only sees faces, never cell shapes).
///
/// Polyhedron has an entry (name and the codes of formats that know polyhedra) but no fixed
/// table: 0 nodes and 0 faces; cell_face() and vtk_corner() refuse it. Values of CellType
/// outside the enum (a corrupt zone file's int8) get kUnknownCellShape.
#include <cstdint>

namespace fv {

/// Cell shapes (values are stored in zone files: never renumber).
enum class CellType : std::int8_t { Tet = 0, Pyramid = 1, Prism = 2, Hex = 3, Polyhedron = 4 };

/// Number of CellType values: they are 0 .. kCellTypeCount - 1.
inline constexpr int kCellTypeCount = 5;
inline constexpr int kMaxCellNodes = 8; ///< corners of the largest standard shape (hexahedron)
inline constexpr int kMaxCellFaces = 6; ///< faces of the largest standard shape (hexahedron)
inline constexpr int kMaxFaceNodes = 4; ///< corners of the largest local face (quadrilateral)

/// Local face of a standard cell shape: n corner indices into the cell's (CGNS) node list, in
/// the order whose right-hand-rule normal points out of the cell; unused entries are -1.
struct LocalFace {
  int n;
  int v[kMaxFaceNodes];
};

/// One entry of the shape table (see kCellShapes).
struct CellShape {
  const char* name;               ///< human-readable name: "tetrahedron", "pyramid", "prism", ...
  int nodeCount;                  ///< corner nodes (0 for Polyhedron)
  int faceCount;                  ///< local faces (0 for Polyhedron)
  LocalFace faces[kMaxCellFaces]; ///< the first faceCount entries: outward, CGNS node order
  int vtkType;                    ///< VTK cell type id (also SU2's element id): 10, 14, 13, 12, 42
  int xdmfCode;                   ///< XDMF Mixed topology code: 6, 7, 8, 9, 16
  const char* xdmfName;           ///< XDMF/VTK shape name: "tetrahedron", ..., "wedge", ...
  /// VTK (and XDMF) corner k is CGNS node vtkNode[k], k < nodeCount; -1 beyond. The identity
  /// except for the prism: CGNS PENTA_6's triangle (0,1,2) has its right-hand normal pointing
  /// towards (3,4,5), VTK's wedge has it pointing away, so each triangle is reversed.
  int vtkNode[kMaxCellNodes];
  int gmshType; ///< linear Gmsh element type (corners in CGNS order); -1 for Polyhedron
};

/// The shape table, indexed by CellType. Each entry: name, nodeCount, faceCount, faces, vtkType,
/// xdmfCode, xdmfName, vtkNode, gmshType.
inline constexpr CellShape kCellShapes[kCellTypeCount] = {
    {"tetrahedron",
     4,
     4,
     {{3, {0, 2, 1, -1}}, {3, {0, 1, 3, -1}}, {3, {1, 2, 3, -1}}, {3, {2, 0, 3, -1}}},
     10,
     6,
     "tetrahedron",
     {0, 1, 2, 3, -1, -1, -1, -1},
     4},
    {"pyramid",
     5,
     5,
     {{4, {0, 3, 2, 1}},
      {3, {0, 1, 4, -1}},
      {3, {1, 2, 4, -1}},
      {3, {2, 3, 4, -1}},
      {3, {3, 0, 4, -1}}},
     14,
     7,
     "pyramid",
     {0, 1, 2, 3, 4, -1, -1, -1},
     7},
    {"prism",
     6,
     5,
     {{4, {0, 1, 4, 3}},
      {4, {1, 2, 5, 4}},
      {4, {2, 0, 3, 5}},
      {3, {0, 2, 1, -1}},
      {3, {3, 4, 5, -1}}},
     13,
     8,
     "wedge",
     {0, 2, 1, 3, 5, 4, -1, -1},
     6},
    {"hexahedron",
     8,
     6,
     {{4, {0, 3, 2, 1}},
      {4, {0, 1, 5, 4}},
      {4, {1, 2, 6, 5}},
      {4, {2, 3, 7, 6}},
      {4, {0, 4, 7, 3}},
      {4, {4, 5, 6, 7}}},
     12,
     9,
     "hexahedron",
     {0, 1, 2, 3, 4, 5, 6, 7},
     5},
    {"polyhedron", 0, 0, {}, 42, 16, "polyhedron", {-1, -1, -1, -1, -1, -1, -1, -1}, -1},
};

/// What cell_shape() returns for a value outside CellType: no nodes, no faces, codes -1.
inline constexpr CellShape kUnknownCellShape = {
    "unknown", 0, 0, {}, -1, -1, "unknown shape", {-1, -1, -1, -1, -1, -1, -1, -1}, -1};

static_assert(static_cast<int>(CellType::Polyhedron) + 1 == kCellTypeCount,
              "kCellShapes has one entry per CellType");

/// True for the values a CellType may hold (a zone file's int8 may hold any other).
constexpr bool is_cell_type(int v) {
  return v >= 0 && v < kCellTypeCount;
}

/// True for the shapes with a fixed table: Tet, Pyramid, Prism, Hex.
constexpr bool is_standard_shape(CellType t) {
  return is_cell_type(static_cast<int>(t)) && t != CellType::Polyhedron;
}

/// The table entry of t (kUnknownCellShape for a value outside the enum).
constexpr const CellShape& cell_shape(CellType t) {
  return is_cell_type(static_cast<int>(t)) ? kCellShapes[static_cast<int>(t)] : kUnknownCellShape;
}

/// Number of corner nodes of a standard cell shape (0 for Polyhedron: it has any number).
constexpr int cell_node_count(CellType t) {
  return cell_shape(t).nodeCount;
}

/// Number of faces of a standard cell shape (0 for Polyhedron).
constexpr int cell_face_count(CellType t) {
  return cell_shape(t).faceCount;
}

/// Number of faces of shape t with n corners (0 for Polyhedron).
constexpr int cell_face_count(CellType t, int n) {
  int k = 0;
  for (int f = 0; f < cell_shape(t).faceCount; ++f)
    k += cell_shape(t).faces[f].n == n;
  return k;
}

/// Human-readable shape name ("tetrahedron", ..., "polyhedron"; "unknown" outside the enum).
constexpr const char* cell_type_name(CellType t) {
  return cell_shape(t).name;
}

/// Face f (0-based) of a standard cell shape; throws for Polyhedron (checks f in debug builds).
const LocalFace& cell_face(CellType t, int f);

/// Index into the CGNS node list of VTK/XDMF corner k of a standard shape t: the VTK node list
/// is vtk[k] = cgns[vtk_corner(t, k)], and a VTK list is read as cgns[vtk_corner(t, k)] =
/// vtk[k]. Throws for Polyhedron (checks k in debug builds).
int vtk_corner(CellType t, int k);

/// The shape whose field `code` (e.g. &CellShape::vtkType) equals `value`, Polyhedron included;
/// false when none does.
constexpr bool cell_type_of(int CellShape::*code, long long value, CellType& t) {
  for (int i = 0; i < kCellTypeCount; ++i)
    if (kCellShapes[i].*code == value && value >= 0) {
      t = static_cast<CellType>(i);
      return true;
    }
  return false;
}

} // namespace fv
