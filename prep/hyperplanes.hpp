#pragma once
/// \file hyperplanes.hpp
/// LU-SGS hyperplanes (FlowStar, Section 3.2.2): cells grouped so that a forward sweep over the
/// groups in order (and a backward sweep in reverse), all cells of a group in parallel, does
/// exactly what the sequential sweep in cell order does.
#include "common/csr.hpp"

#include <vector>

namespace fv {

/// Hyperplane groups of cells [0, nCells) (row g = cells of group g, ascending). A cell's group
/// is one more than the largest group of its lower neighbours (cellCells entries j < i; ids
/// >= nCells, halo cells, are ignored), so
///   - no two cells of a group are neighbours, and
///   - every lower neighbour of a cell lies in an earlier group (upper ones in later groups).
/// With an RCM cell order (numbered by BFS levels) the groups follow the BFS level sets, split
/// where cells of one level are adjacent (FlowStar's preliminary planes and final groups).
/// Their number is the longest chain of increasing neighbours: the fewest groups of any
/// parallel sweep that reproduces the sequential one in this cell order.
Csr lusgs_hyperplanes(const Csr& cellCells, idx_t nCells);

/// The same for the sequential sweep in the order `sweepOrder` (sweepOrder[k] = the k-th cell
/// swept, a permutation of [0, nCells)) instead of cell order: a cell's lower neighbours are
/// those swept before it. The cells keep their numbering (memory order); only the groups follow
/// the sweep (the wavefront order of prep/wavefront_order.hpp, docs/connectivity.md).
Csr lusgs_hyperplanes(const Csr& cellCells, idx_t nCells, const std::vector<idx_t>& sweepOrder);

} // namespace fv
