#pragma once
/// \file quad_grid.hpp
/// Recovers the (i, j) structure of an all-quadrilateral 2D mesh that is one structured block,
/// possibly with a cut whose two sides share nodes (a C-grid's wake cut, an O-grid's seam): the
/// test of the Plot3D reader rebuilds the structured C-grid from the SU2 copy of it.
#include "common/types.hpp"

#include <array>
#include <vector>

namespace fv::testing {

/// The nodes of a structured ni x nj grid: node[i + ni * j] (0-based) is a quad-mesh node; on
/// a cut the two sides' vertices name the same node.
struct QuadGrid {
  int ni = 0, nj = 0;
  std::vector<idx_t> node;
};

/// Walks the quads row by row from a corner (a node of one quad with two boundary edges),
/// along either edge: a row ends at a boundary edge or at a quad already walked, the rows end
/// where the next one would start on a boundary or on a walked quad. Returns the first walk
/// whose rows are equally long, cover every quad once and share their nodes with the next row;
/// an empty grid (ni = 0) when none does.
QuadGrid structure_quads(const std::vector<std::array<idx_t, 4>>& quads);

} // namespace fv::testing
