#pragma once
/// \file node_weights.hpp
/// Linearly exact cell -> node interpolation weights. fvprep computes them once, over the whole
/// mesh, and stores them in the zone file (conn/nodeCellWeightLinear); fvrun computes them
/// itself (with a node exchange) only for zone files written before they were stored.
///
/// The zone's inverse-distance weights (zone.nodeCellWeight) reproduce constant fields only:
/// at nodes whose cells are not spread evenly around them (every boundary node) the
/// interpolated value of a linear field is off by O(h), which makes the node-averaged
/// Green-Gauss gradient of the adjacent cells O(1) wrong and MUSCL first order there. The
/// correction of Holmes & Connell (pseudo-Laplacian, in the form of Rausch et al.) rescales the
/// inverse-distance weights w_c to
///     w'_c = w_c (1 + lambda . d_c) / (1 + lambda . R),  d_c = x_c - x_node,
///     R = sum_c w_c d_c,  I = sum_c w_c d_c d_c^T,  lambda = -I^-1 R,
/// so that sum_c w'_c = 1 and sum_c w'_c d_c = 0: linear fields are interpolated exactly.
/// R and I are sums over ALL cells of a node: for a node shared by several zones the partial
/// sums must be added over the zones (`sum_nodes`, a node exchange in Sum mode) before
/// lambda is solved. Nodes whose I is (nearly) singular, i.e. whose cell centroids are nearly
/// coplanar, and nodes whose correction would scale a weight by a factor outside (-10, 10) keep the
/// inverse-distance weights.
#include "common/csr.hpp"
#include "common/types.hpp"

#include <functional>
#include <vector>

namespace fv {

/// Adds the partial per-node sums of other zones: field[k * nNodes + node], ncomp components.
using NodeSum = std::function<void(std::vector<real_t>& field, int ncomp)>;

/// Linearly exact weights parallel to `nodeCells` (rows: nodes, indices: cells) from the
/// inverse-distance weights `weight` (parallel to nodeCells), the node coordinates `nodeXyz`
/// (3 per node) and the cell centroids `cellCentroid` (3 per cell). `sum_nodes` adds the
/// partial sums of the other zones sharing a node; empty when nodeCells lists every cell of
/// every node (the global mesh, or a single zone). Keeps the inverse-distance weights where I
/// is singular or the correction is out of bounds (see file comment).
std::vector<real_t> linear_exact_node_weights(const Csr& nodeCells, const real_t* weight,
                                              const real_t* nodeXyz, const real_t* cellCentroid,
                                              const NodeSum& sum_nodes = {});

} // namespace fv
