#pragma once
/// \file connectivity.hpp
/// Small builders of derived connectivity from face -> cell relations (OpenMP threads; the
/// results do not depend on the thread count).
#include "common/csr.hpp"
#include "common/types.hpp"

#include <cstdint>
#include <vector>

namespace fv {

/// cellFaces (faces of each cell, ascending) and the parallel ownNgb sign (+1: the cell owns the
/// face, -1: it is the neighbour) from owner/neighbour (neighbour kNone on boundary faces).
/// Neighbours >= nCells (halo cells) get no row.
void build_cell_faces(idx_t nCells, const std::vector<idx_t>& owner,
                      const std::vector<idx_t>& neighbour, Csr& cellFaces,
                      std::vector<std::int8_t>& sign);

/// cellCells: for each of the rows of cellFaces, the cells across its interior faces, ascending.
Csr build_cell_cells(const Csr& cellFaces, const std::vector<idx_t>& owner,
                     const std::vector<idx_t>& neighbour);

/// The same in a new cell order, from faces in the old one: row c is old cell cellOld[c]'s, its
/// neighbours given by their new ids newCell[old] (newCell the inverse of cellOld). Equals
/// build_cell_cells() of the faces renumbered into the new order, entry for entry.
Csr build_cell_cells(const Csr& cellFaces, const std::vector<idx_t>& owner,
                     const std::vector<idx_t>& neighbour, const std::vector<idx_t>& cellOld,
                     const std::vector<idx_t>& newCell);

/// Numbers the ids [0, n) that occur in `rows` by their first occurrence (rows in order, each
/// row's entries in order): result[id] = new number, kNone for ids that never occur. Threads
/// find each id's first position by atomic minimum; the result does not depend on them.
std::vector<idx_t> first_touch_numbering(const Csr& rows, idx_t n);

/// Bandwidth max |i - j| and profile sum_i (i - min(i, min_j j)) of a symmetric adjacency.
struct Bandwidth {
  std::int64_t bandwidth = 0;
  std::int64_t profile = 0;
};
/// With `n` >= 0: of the first n rows, counting only entries below n (a zone's owned cells,
/// leaving out its halo cells).
Bandwidth adjacency_bandwidth(const Csr& adjacency, idx_t n = -1);

/// The same for the adjacency through the interior faces (owner, neighbour), without building
/// it: for the order of a mesh as read.
Bandwidth face_bandwidth(idx_t nCells, const std::vector<idx_t>& owner,
                         const std::vector<idx_t>& neighbour);

} // namespace fv
