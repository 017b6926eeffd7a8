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
///
/// A 2D mesh extruded one cell thick (Extrusion) puts every cell of a node on the same side of
/// it along the extrusion: the offsets d_c all have the same component there, which no weights
/// with sum 1 can cancel, so I R = -R has only the degenerate solution and no node would be
/// corrected. Given the extrusion direction n, the offsets are taken in the mesh's plane,
/// d_c - (d_c . n) n, and lambda solved there: the weights are then exact for fields linear in
/// the plane and independent of the thickness. There a node keeps its inverse-distance weights
/// unless every factor lies in [0, 2] (Frink's clipping range): with the 3D bound, the
/// stretched cells of a RANS C-grid got negative weights and Spalart-Allmaras stalled
/// (bench/results/planar_node_weights_2026-12-07/).
#include "common/csr.hpp"
#include "common/types.hpp"

#include <array>
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
/// is singular or the correction is out of bounds (see file comment). `plane`: the extrusion
/// direction (unit) of a 2D mesh, zero for a 3D one.
std::vector<real_t> linear_exact_node_weights(const Csr& nodeCells, const real_t* weight,
                                              const real_t* nodeXyz, const real_t* cellCentroid,
                                              const NodeSum& sum_nodes = {},
                                              const std::array<real_t, 3>& plane = {0, 0, 0});

/// The offset of a cell centroid from a node, in the plane of a 2D mesh extruded along `plane`
/// (unit; zero: the full 3D offset).
inline void node_offset(const real_t* cell, const real_t* node, const std::array<real_t, 3>& plane,
                        real_t d[3]) {
  for (int k = 0; k < 3; ++k)
    d[k] = cell[k] - node[k];
  const real_t along = d[0] * plane[0] + d[1] * plane[1] + d[2] * plane[2];
  for (int k = 0; k < 3; ++k)
    d[k] -= along * plane[static_cast<std::size_t>(k)];
}

} // namespace fv
