#pragma once
/// \file colouring.hpp
/// Balanced greedy colourings for race-free GPU loops. A colouring is a Csr whose row k lists
/// the entities of colour k in ascending order; together the rows are a permutation.
#include "common/csr.hpp"

#include <vector>

namespace fv {

/// Faces coloured so that no two faces of a colour share a cell (owner or neighbour; halo cells
/// >= nCells count too). nTotalCells bounds every owner/neighbour id.
Csr colour_faces(idx_t nTotalCells, const std::vector<idx_t>& owner,
                 const std::vector<idx_t>& neighbour);

/// Cells [0, nCells) coloured so that no two face neighbours (cellCells) share a colour; ids
/// >= nCells in cellCells (halo cells) are ignored. cellCells has at least nCells rows.
Csr colour_cells(const Csr& cellCells, idx_t nCells);

/// Number of groups and min / mean / max group size of a colouring or of hyperplanes.
struct GroupStats {
  idx_t count = 0;
  idx_t minSize = 0, maxSize = 0;
  double meanSize = 0.0;
};
GroupStats group_stats(const Csr& groups);

} // namespace fv
