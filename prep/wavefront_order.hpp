#pragma once
/// \file wavefront_order.hpp
/// Cell order for parallel LU-SGS: BFS levels (FlowStar's preliminary hyperplanes), each split
/// by a colouring of the cells inside the level, numbered level by level and colour by colour.
#include "common/csr.hpp"

#include <vector>

namespace fv {

/// Reorders an RCM order (order[new] = old, as rcm_order_towards(adjacency, last) returns it) so
/// that every BFS level, split into its colour classes, is a contiguous block:
///   key = (flagged vertices last, component, BFS level counted from the end, colour, RCM
///   position).
/// Levels are BFS distances from the flagged vertices (all at once), or, in components without
/// one, from the component's last vertex in `order` (its Cuthill-McKee start). Colours are a
/// greedy colouring of the adjacency restricted to one level (in RCM position order), so no two
/// cells of a (level, colour) block are adjacent and every neighbour of a cell lies in an earlier
/// or later block: the LU-SGS hyperplanes of the result number about (levels x colours per
/// level) instead of the longest chain along a level, at the price of about twice the RCM
/// bandwidth.
std::vector<idx_t> wavefront_order(const Csr& adjacency, const std::vector<idx_t>& order,
                                   const std::vector<char>& last);

/// Number of LU-SGS hyperplanes (longest chain of increasing neighbours) the vertices of
/// `adjacency` have when numbered by `order` (order[new] = old), without renumbering.
idx_t count_sweep_levels(const Csr& adjacency, const std::vector<idx_t>& order);

} // namespace fv
