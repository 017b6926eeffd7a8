#pragma once
/// \file wall_distance.hpp
/// Exact distance from points (cell centroids) to the nearest face of a set of wall faces,
/// for turbulence models (Spalart-Allmaras needs it in every cell, and it is a property of the
/// mesh: fvprep computes it once, offline).
///
/// Method: a bounding-volume hierarchy over the wall faces (axis-aligned boxes, median splits
/// of the face centres along the longest axis, 4 faces per leaf) searched by branch and bound:
/// a box no nearer than the best face found so far is skipped, so a point visits the boxes
/// around the foot of its perpendicular and a few faces (O(log n)), whatever its distance.
/// The distance to a face is exact (polygons fanned into triangles from their first corner:
/// exact for triangles and planar quadrilaterals). Points run in parallel (OpenMP).
#include "common/types.hpp"

#include <vector>

namespace fv {

/// Wall faces as polygons: the corners of face f are nodes[offsets[f] .. offsets[f+1]) of
/// xyz (3 per node, m).
struct WallFaces {
  const std::vector<real_t>* xyz = nullptr;
  std::vector<idx_t> offsets{0};
  std::vector<idx_t> nodes;
  idx_t size() const { return static_cast<idx_t>(offsets.size()) - 1; }
};

/// Distance from p (3 reals) to the triangle (a, b, c): the exact Euclidean distance to the
/// closest point of the triangle (Ericson, Real-Time Collision Detection, section 5.1.5).
real_t point_triangle_distance(const real_t* p, const real_t* a, const real_t* b, const real_t* c);

/// For each of the points (3 per point, m), the exact distance to the nearest wall face, m.
/// No wall face: every distance is +infinity. Throws fv::Error on a face of fewer than 3
/// corners.
std::vector<real_t> wall_distance(const std::vector<real_t>& points, const WallFaces& walls);

} // namespace fv
