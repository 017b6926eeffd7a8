#pragma once
/// \file node_sum_k.hpp
/// The point-wise node sum of the cell -> node interpolation (FV_HOST_DEVICE, one node), shared
/// by kernels::interpolate_to_nodes and fvbench's layout variants of it
/// (bench/fvbench/node_interp_layouts.cpp), which differ only in where the cells' values come
/// from: every variant adds the same terms in the same order (bitwise equal sums).
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels::detail {

/// q[k] = sum over node n's entries of the sliced node -> cell relation (SELL-32: the j-th
/// entries of 32 consecutive nodes side by side, ZoneView::node_entry) of weight * value k of
/// the entry's cell, in entry order; load(c, w) puts cell c's N values into w. V: a ZoneViewT
/// of either precision (its weights are exact in FP64; the sums in FP64).
template <int N, class V, class Load>
FV_HOST_DEVICE FV_FORCEINLINE void node_sum(const V& v, idx_t n, const Load& load, real_t (&q)[N]) {
  for (int k = 0; k < N; ++k)
    q[k] = 0.0;
  const idx_t m = v.nodeCellCount[n];
  idx_t e = v.node_entry(n, 0);
  for (idx_t j = 0; j < m; ++j, e += ZoneView::kNodeSlice) {
    real_t w[N];
    load(v.nodeSliceCells[e], w);
    const real_t wt = v.nodeSliceWeight[e];
    for (int k = 0; k < N; ++k)
      q[k] += wt * w[k];
  }
}

} // namespace fv::kernels::detail
