#pragma once
/// \file geometry.hpp
/// Finite-volume geometry in double precision: face area vectors and centroids, cell volumes,
/// centroids and closure. Faces are polygons split into triangles about their node average
/// (exact for planar faces, well defined and watertight for warped ones: both cells of a face
/// use the same triangles). Cell quantities follow from the divergence theorem over the cell's
/// faces, with the ownNgb sign, about a cell-local reference point (no loss of precision far
/// from the origin). Units: those of the node coordinates (m, m^2, m^3).
#include "common/csr.hpp"
#include "common/types.hpp"

#include <cstdint>
#include <vector>

namespace fv {

struct FaceSet;
struct Mesh;

/// Face geometry, one entry (or 3 interleaved) per face. Owns its data.
struct FaceGeometry {
  std::vector<real_t> area; ///< area vector S (3 per face), right-hand rule of the node loop, m^2
  std::vector<real_t> centroid; ///< area centroid (3 per face), m
};

/// Cell geometry, one entry (or 3 interleaved) per cell. Owns its data.
struct CellGeometry {
  std::vector<real_t> volume;   ///< m^3 (negative for inverted cells)
  std::vector<real_t> centroid; ///< 3 per cell, m
  std::vector<real_t> closure;  ///< |sum ownNgb S| / sum |S| over the cell's faces (0 if closed)
};

/// Area vector (3, m^2) and centroid (3, m) of the polygon of n nodes `nodes` (indexing xyz,
/// 3 per node). Every function here computes a face through it, so a face gets the same bits
/// wherever it is computed (globally, in a zone, or for one cell).
void face_geometry(const real_t* xyz, const idx_t* nodes, idx_t n, real_t* area, real_t* centroid);

/// Area vectors and centroids of every row of faceNodes (nodes index xyz, 3 per node).
FaceGeometry compute_face_geometry(const real_t* xyz, const Csr& faceNodes);

/// Volumes, centroids and closure of every row of cellFaces; sign[k] is +1 when the cell owns
/// face cellFaces.indices()[k] (normal points out of it), -1 when it is the neighbour.
CellGeometry compute_cell_geometry(const real_t* xyz, const Csr& faceNodes, const FaceGeometry& fg,
                                   const Csr& cellFaces, const std::vector<std::int8_t>& sign);

/// The same without stored face geometry: each cell computes its faces' geometry itself
/// (face_geometry(), so the results are bitwise those of the overload above). fvprep uses it so
/// that the whole mesh's face geometry (48 B per face) is never held; zones compute their own.
CellGeometry compute_cell_geometry(const real_t* xyz, const Csr& faceNodes, const Csr& cellFaces,
                                   const std::vector<std::int8_t>& sign);

/// Face and cell geometry of a mesh's faces (original numbering).
struct Geometry {
  FaceGeometry faces;
  CellGeometry cells;
};

/// Convenience: cellFaces from the FaceSet, then face and cell geometry.
Geometry compute_geometry(const Mesh& mesh, const FaceSet& faces);

/// Checks every cell has a positive volume and a closure below `closureTol`; throws fv::Error
/// naming mesh.path and the first bad cell by its file id. Cells are in the mesh's numbering.
void verify_cell_geometry(const Mesh& mesh, const CellGeometry& cg, real_t closureTol = 1e-8);

} // namespace fv
