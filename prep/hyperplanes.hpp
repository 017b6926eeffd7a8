#pragma once
/// \file hyperplanes.hpp
/// LU-SGS hyperplanes (FlowStar, Section 3.2.2): cells grouped so that a forward sweep over the
/// groups in order (and a backward sweep in reverse), all cells of a group in parallel, does
/// exactly what the sequential sweep in cell order does.
#include "common/csr.hpp"

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

} // namespace fv
