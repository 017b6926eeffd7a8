#pragma once
/// \file node_match.hpp
/// Coincident-node search in O(N log N): nodes are sorted by their projection on a direction
/// with rationally independent components (1, sqrt 2, sqrt 3), so that even the nodes of
/// structured grids have distinct projections, and each node is compared only with the nodes
/// whose projection lies within the tolerance window. Used to glue CGNS zones and to find
/// duplicate nodes during validation.
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
