// Local extrema over face neighbours and the Venkatakrishnan / Barth-Jespersen limiters of
// the primitive variables (mesh-loop-modes paper eq. (8); hybrid paper eqs. (7)-(8)).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/barth_jespersen.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/physics/portable_math.hpp"
#include "runtime/physics/venkat_limiter.hpp"

#include <cmath>

namespace fv::kernels {

template <int N>
void local_min_max(const ZoneView& z, const real_t* W, real_t* wmin, real_t* wmax) {
  const ZoneView v = z;
  forall("local_min_max", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    for (int k = 0; k < N; ++k) {
      real_t lo = W[k * n + c], hi = lo;
      for (idx_t j = v.cellCellOffsets[c]; j < v.cellCellOffsets[c + 1]; ++j) {
        const real_t q = W[k * n + v.cellCells[j]];
        lo = q < lo ? q : lo;
        hi = q > hi ? q : hi;
      }
      wmin[k * n + c] = lo;
      wmax[k * n + c] = hi;
    }
  });
}

template <int N>
void supersonic_node_excess(const ZoneView& z, real_t gamma, const real_t* W, real_t* excess) {
  static_assert(N >= phys::EulerModel::kNumVars, "the mean flow's primitives come first");
  constexpr int kMeanFlow = phys::EulerModel::kNumVars;
  const ZoneView v = z;
  forall("supersonic_node_excess", z.nNodes, [=] FV_HOST_DEVICE(idx_t node) {
    const idx_t n = v.nTotalCells;
    real_t e = 0.0;
    for (idx_t j = v.nodeCellOffsets[node]; j < v.nodeCellOffsets[node + 1]; ++j) {
      const idx_t c = v.nodeCells[j];
      real_t w[kMeanFlow]; // the mean flow's primitives lead every state model's
      for (int k = 0; k < kMeanFlow; ++k)
        w[k] = W[k * n + c];
      const real_t a = phys::sound_speed(w, gamma);
      const real_t m2 = (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) / (a * a);
      e += m2 > 1.0 ? std::sqrt(m2) - 1.0 : 0.0;
    }
    excess[node] = e;
  });
}

/// True when a node of cell c (over its faces) has a positive supersonic excess.
FV_HOST_DEVICE FV_FORCEINLINE bool sees_supersonic(const ZoneView& v, idx_t c,
                                                   const real_t* excess) {
  for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
    const idx_t f = v.cellFaces[j];
    for (idx_t m = v.faceNodeOffsets[f]; m < v.faceNodeOffsets[f + 1]; ++m)
      if (excess[v.faceNodes[m]] > 0.0) return true;
  }
  return false;
}

template <int N>
void limiter(const ZoneView& z, Limiter kind, real_t venkatK, const LimiterScales& scales,
             const real_t* W, const real_t* grad, const real_t* wmin, const real_t* wmax,
             const real_t* supersonicNodes, real_t* phi) {
  const ZoneView v = z;
  const LimiterScales sc = scales;
  forall("limiter", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    if (kind == Limiter::None || (supersonicNodes && !sees_supersonic(v, c, supersonicNodes))) {
      for (int k = 0; k < N; ++k)
        phi[k * n + c] = 1.0;
      return;
    }
    real_t eps2 = 1.0;
    if (sc.cellSize) {
      const real_t kdx = venkatK * phys::portable_pow(v.cellVolume[c], 1.0 / 3.0);
      eps2 = kdx * kdx * kdx;
    }
    real_t p[N];
    for (int k = 0; k < N; ++k)
      p[k] = 1.0;
    for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
      const idx_t f = v.cellFaces[j];
      const real_t* d =
          v.cellFaceSign[j] > 0 ? v.faceOwnerDelta + 3 * f : v.faceNeighbourDelta + 3 * f;
      for (int k = 0; k < N; ++k) {
        const real_t d2 = grad[(3 * k) * n + c] * d[0] + grad[(3 * k + 1) * n + c] * d[1] +
                          grad[(3 * k + 2) * n + c] * d[2];
        const real_t q = W[k * n + c];
        const real_t dmax = wmax[k * n + c] - q, dmin = wmin[k * n + c] - q;
        const real_t l = kind == Limiter::Venkat
                             ? phys::venkat_phi(dmax, dmin, d2, eps2 * sc.s[k] * sc.s[k])
                             : phys::barth_phi(dmax, dmin, d2);
        p[k] = l < p[k] ? l : p[k];
      }
    }
    for (int k = 0; k < N; ++k)
      phi[k * n + c] = p[k] > 0.0 ? p[k] : 0.0;
  });
}

#define FV_INSTANTIATE(N)                                                                          \
  template void local_min_max<N>(const ZoneView&, const real_t*, real_t*, real_t*);                \
  template void supersonic_node_excess<N>(const ZoneView&, real_t, const real_t*, real_t*);       \
  template void limiter<N>(const ZoneView&, Limiter, real_t, const LimiterScales&, const real_t*,  \
                           const real_t*, const real_t*, const real_t*, const real_t*, real_t*);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
