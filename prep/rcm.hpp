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

/// Inverse of a permutation: inv[perm[i]] = i.
std::vector<idx_t> invert_permutation(const std::vector<idx_t>& perm);

/// Adjacency renumbered by a permutation (order[new] = old), rows sorted ascending.
Csr permute_adjacency(const Csr& adjacency, const std::vector<idx_t>& order);

} // namespace fv
