#pragma once
/// \file rcm.hpp
/// Reverse Cuthill-McKee ordering of a symmetric adjacency (Boost.Graph
/// cuthill_mckee_ordering, one pseudo-peripheral start per connected component).
#include "common/csr.hpp"

#include <vector>

namespace fv {

/// RCM order of the rows of a symmetric adjacency: order[new] = old. Every component is
/// ordered from its own pseudo-peripheral start vertex. adjacency.rows() vertices.
std::vector<idx_t> rcm_order(const Csr& adjacency);

/// RCM order that ends with the vertices flagged in `last` (e.g. a zone's interface cells): the
/// Cuthill-McKee BFS starts from all of them at once (a virtual source joined to each, taking
/// them in their current relative order), so after reversal they come last and their
/// neighbours right before them, keeping the bandwidth small. Components holding no flagged
/// vertex are ordered by rcm_order() and placed first.
std::vector<idx_t> rcm_order_towards(const Csr& adjacency, const std::vector<char>& last);

/// Inverse of a permutation: inv[perm[i]] = i.
std::vector<idx_t> invert_permutation(const std::vector<idx_t>& perm);

/// Adjacency renumbered by a permutation (order[new] = old), rows sorted ascending.
Csr permute_adjacency(const Csr& adjacency, const std::vector<idx_t>& order);

} // namespace fv
