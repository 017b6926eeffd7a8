#pragma once
/// \file node_match.hpp
/// Coincident-node search in O(N log N): nodes are binned on a grid of spacing 2*tol, the
/// bins sorted, and each node compared only with the nodes of the 8 bins its tolerance box
/// touches. Used to glue CGNS zones and to find duplicate nodes during validation.
#include "common/types.hpp"

#include <cstdint>
#include <vector>

namespace fv {

/// Pairs (i, j), i < j, of nodes closer than tol (max-norm) to each other. When `group` is
/// not empty, only nodes of different groups are paired. xyz: 3 per node.
std::vector<std::pair<idx_t, idx_t>>
find_coincident_nodes(const std::vector<real_t>& xyz, double tol,
                      const std::vector<std::int32_t>& group = {});

/// Union-find representative ids: rep[i] is the smallest node id coincident (transitively)
/// with node i according to pairs.
std::vector<idx_t> merge_representatives(idx_t n,
                                         const std::vector<std::pair<idx_t, idx_t>>& pairs);

} // namespace fv
