#pragma once
/// \file gradient_limiter_k.hpp
/// Point-wise pieces (FV_HOST_DEVICE, one cell each) of the node-averaged Green-Gauss gradient
/// and of the Venkatakrishnan / Barth-Jespersen limiters, shared by the separate kernels
/// (green_gauss_gradient, limiter) and the fused gradient_and_limiter, so that every path does
/// the same arithmetic in the same order (bitwise equal results).
#include "runtime/backend/loop_hints.hpp"
#include "runtime/backend/thread_scratch.hpp"
#include "runtime/kernels/cell_face_geometry_k.hpp"
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/zone_view.hpp"
#include "runtime/physics/barth_jespersen.hpp"
#include "runtime/physics/portable_math.hpp"
#include "runtime/physics/venkat_limiter.hpp"

namespace fv::kernels::detail {

/// cell_gradient() of a zone of shape S with node slots (kSlotNodes<S> > 0: F faces of K nodes,
/// U distinct nodes; ZoneViewCommon::cellLocalNodes, cellFaceNodeSlots): per component, the
/// cell's U node values are gathered once into thread scratch, and each face sums its nodes
/// from there, so that a node shared by 3 of the cell's faces is loaded once rather than 3
/// times. Same terms, same order: bitwise the result of the faceNodes loop.
template <int N, class Shape, class V>
FV_HOST_DEVICE FV_FORCEINLINE void cell_gradient_by_slots(const V& v, const real_t* Wn, idx_t c,
                                                          real_t (&g)[3 * N]) {
  constexpr int F = Shape::kCellFaces, K = Shape::kFaceNodes, U = kSlotNodes<Shape>;
  idx_t node[U];
  for (int u = 0; u < U; ++u)
    node[u] = v.cellLocalNodes[U * c + u];
  real_t S[3 * F];
  unsigned slots[F];
  for (int j = 0; j < F; ++j) {
    const idx_t f = v.cellFaces[F * c + j];
    const real_t s = static_cast<real_t>(v.cellFaceSign[F * c + j]) / static_cast<real_t>(K);
    S[3 * j] = v.faceArea[3 * f] * s;
    S[3 * j + 1] = v.faceArea[3 * f + 1] * s;
    S[3 * j + 2] = v.faceArea[3 * f + 2] * s;
    slots[j] = v.cellFaceNodeSlots[F * c + j];
  }
  const real_t inv = 1.0 / v.cellVolume[c];
  ThreadScratch<real_t, U> value;
  for (int k = 0; k < N; ++k) {
    for (int u = 0; u < U; ++u)
      value[u] = Wn[k * v.nNodes + node[u]];
    real_t g0 = 0.0, g1 = 0.0, g2 = 0.0;
    for (int j = 0; j < F; ++j) {
      real_t qf = 0.0;
      for (int m = 0; m < K; ++m)
        qf += value[static_cast<int>((slots[j] >> (4 * m)) & 15u)];
      g0 += qf * S[3 * j];
      g1 += qf * S[3 * j + 1];
      g2 += qf * S[3 * j + 2];
    }
    g[3 * k] = g0 * inv;
    g[3 * k + 1] = g1 * inv;
    g[3 * k + 2] = g2 * inv;
  }
}

/// Gradient of the N node fields Wn (blocked, stride nNodes) in owned cell c: face value = mean
/// of its nodes' values, g[3k + d] = sum_faces sign * value_k * S_d / V (V a ZoneViewT of any
/// geometry precision; the sums in FP64). S: the zone's CellShape. BySlots: through the node
/// slots where the zone has them (cell_gradient_by_slots()). The same sums in the same order
/// for every shape, with or without the slots.
template <int N, class S, bool BySlots = true, class V>
FV_HOST_DEVICE FV_FORCEINLINE void cell_gradient(const V& v, const real_t* Wn, idx_t c,
                                                 real_t (&g)[3 * N]) {
  if constexpr (BySlots && kSlotNodes < S >> 0) {
    if (v.cellLocalNodes) {
      cell_gradient_by_slots<N, S>(v, Wn, c, g);
      return;
    }
  }
  for (int k = 0; k < 3 * N; ++k)
    g[k] = 0.0;
  // rolled on the GPU: measured faster (runtime/backend/loop_hints.hpp)
  FV_DEVICE_NO_UNROLL
  for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
    const idx_t f = v.cellFaces[j];
    const real_t sign = static_cast<real_t>(v.cellFaceSign[j]);
    const idx_t nb = S::nodes_begin(v, f), ne = S::nodes_end(v, f);
    real_t qf[N];
    for (int k = 0; k < N; ++k)
      qf[k] = 0.0;
    for (idx_t m = nb; m < ne; ++m) {
      const idx_t node = v.faceNodes[m];
      for (int k = 0; k < N; ++k)
        qf[k] += Wn[k * v.nNodes + node];
    }
    const real_t s = sign / static_cast<real_t>(ne - nb);
    const real_t S0 = v.faceArea[3 * f] * s, S1 = v.faceArea[3 * f + 1] * s,
                 S2 = v.faceArea[3 * f + 2] * s;
    for (int k = 0; k < N; ++k) {
      g[3 * k] += qf[k] * S0;
      g[3 * k + 1] += qf[k] * S1;
      g[3 * k + 2] += qf[k] * S2;
    }
  }
  const real_t inv = 1.0 / v.cellVolume[c];
  for (int k = 0; k < 3 * N; ++k)
    g[k] *= inv;
}

/// True when a node of cell c (over its faces) has a positive supersonic excess.
FV_HOST_DEVICE FV_FORCEINLINE bool sees_supersonic(const ZoneViewCommon& v, idx_t c,
                                                   const real_t* excess) {
  for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
    const idx_t f = v.cellFaces[j];
    for (idx_t m = v.faceNodeOffsets[f]; m < v.faceNodeOffsets[f + 1]; ++m)
      if (excess[v.faceNodes[m]] > 0.0) return true;
  }
  return false;
}

/// Limiter of owned cell c for the N components of W (blocked, stride nTotalCells; halo values
/// in place) with the cell's gradient g: phi = min over the cell's faces of the limiter of the
/// unlimited increment to the face, from the extrema over the cell and its face neighbours;
/// 1 where the limiter is off (kind None, or a subsonic stencil when supersonicNodes is given).
/// Clipped at 0. The offsets and the neighbours come through geo (ThroughFaces: cellFaces and
/// cellCells; ThroughSlots: the slot-ordered copies), bitwise the same phi either way.
template <int N, class S, class Geo, class V>
FV_HOST_DEVICE FV_FORCEINLINE void cell_limiter(const V& v, const Geo& geo, Limiter kind,
                                                real_t venkatK, const LimiterScales& sc,
                                                const real_t* W, const real_t* supersonicNodes,
                                                idx_t c, const real_t (&g)[3 * N], real_t (&p)[N]) {
  const idx_t n = v.nTotalCells;
  for (int k = 0; k < N; ++k)
    p[k] = 1.0;
  if (kind == Limiter::None || (supersonicNodes && !sees_supersonic(v, c, supersonicNodes))) return;
  real_t eps2 = 1.0;
  if (sc.cellSize) {
    const real_t kdx = venkatK * phys::portable_pow(v.cellVolume[c], 1.0 / 3.0);
    eps2 = kdx * kdx * kdx;
  }
  // the cell's value and the extrema over the cell and its face neighbours
  real_t q[N], lo[N], hi[N];
  for (int k = 0; k < N; ++k) {
    q[k] = W[k * n + c];
    lo[k] = q[k];
    hi[k] = q[k];
  }
  geo.template for_each_neighbour<S>(v, c, [&](idx_t nb) {
    for (int k = 0; k < N; ++k) {
      const real_t w = W[k * n + nb];
      lo[k] = w < lo[k] ? w : lo[k];
      hi[k] = w > hi[k] ? w : hi[k];
    }
  });
  // rolled on the GPU: measured faster (runtime/backend/loop_hints.hpp)
  FV_DEVICE_NO_UNROLL
  for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
    real_t d[3];
    geo.template offset_to<S>(v, c, j, d[0], d[1], d[2]);
    for (int k = 0; k < N; ++k) {
      const real_t d2 = g[3 * k] * d[0] + g[3 * k + 1] * d[1] + g[3 * k + 2] * d[2];
      const real_t dmax = hi[k] - q[k], dmin = lo[k] - q[k];
      const real_t l = is_venkat(kind) ? phys::venkat_phi(dmax, dmin, d2, eps2 * sc.s[k] * sc.s[k])
                                       : phys::barth_phi(dmax, dmin, d2);
      p[k] = l < p[k] ? l : p[k];
    }
  }
  for (int k = 0; k < N; ++k)
    p[k] = p[k] > 0.0 ? p[k] : 0.0;
}

/// cell_limiter() through the face arrays (ThroughFaces).
template <int N, class S, class V>
FV_HOST_DEVICE FV_FORCEINLINE void
cell_limiter(const V& v, Limiter kind, real_t venkatK, const LimiterScales& sc, const real_t* W,
             const real_t* supersonicNodes, idx_t c, const real_t (&g)[3 * N], real_t (&p)[N]) {
  cell_limiter<N, S>(v, ThroughFaces{}, kind, venkatK, sc, W, supersonicNodes, c, g, p);
}

} // namespace fv::kernels::detail
