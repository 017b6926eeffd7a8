// The supersonic node excess and the Venkatakrishnan / Barth-Jespersen limiters of the
// primitive variables (mesh-loop-modes paper eq. (8); hybrid paper eqs. (7)-(8)), the local
// extrema over face neighbours computed in the limiter's own loop (gradient_limiter_k.hpp).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/cell_field.hpp"
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/gradient_limiter_k.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/barth_jespersen.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/physics/portable_math.hpp"
#include "runtime/physics/venkat_limiter.hpp"

#include <cmath>

namespace fv::kernels {

template <int N>
void supersonic_node_excess(const ZoneView& z, real_t gamma, const real_t* W, real_t* excess) {
  static_assert(N >= phys::kNumEq, "the mean flow's primitives come first");
  constexpr int kMeanFlow = phys::kNumEq;
  const ZoneView v = z;
  forall("supersonic_node_excess", z.nNodes, [=] FV_HOST_DEVICE(idx_t node) {
    const idx_t n = v.nTotalCells;
    real_t e = 0.0;
    const idx_t m = v.nodeCellCount[node];
    for (idx_t j = 0; j < m; ++j) {
      const idx_t c = v.nodeSliceCells[v.node_entry(node, j)];
      real_t w[kMeanFlow]; // the mean flow's primitives lead every state model's
      for (int k = 0; k < kMeanFlow; ++k)
        w[k] = W[k * n + c];
      e += phys::supersonic_excess(w, gamma);
    }
    excess[node] = e;
  });
}

namespace {

template <int N, class S>
void limiter_shaped(const ZoneView& z, Limiter kind, real_t venkatK, const LimiterScales& scales,
                    const real_t* W, const real_t* grad, const real_t* supersonicNodes,
                    real_t* phi) {
  const ZoneView v = z;
  const LimiterScales sc = scales;
  const ConstCellField<3 * N> gr{grad, z.nTotalCells};
  const CellField<N> ph{phi, z.nTotalCells};
  forall("limiter", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t g[3 * N], p[N];
    if (kind != Limiter::None)
      gr.load(c, g);
    else
      for (int k = 0; k < 3 * N; ++k)
        g[k] = 0.0; // not read
    detail::cell_limiter<N, S>(v, kind, venkatK, sc, W, supersonicNodes, c, g, p);
    ph.store(c, p);
  });
}

} // namespace

template <int N>
void limiter(const ZoneView& z, Limiter kind, real_t venkatK, const LimiterScales& scales,
             const real_t* W, const real_t* grad, const real_t* supersonicNodes, real_t* phi) {
  visit_cell_shape(z, [&](auto s) {
    limiter_shaped<N, decltype(s)>(z, kind, venkatK, scales, W, grad, supersonicNodes, phi);
  });
}

#define FV_INSTANTIATE(N)                                                                          \
  template void supersonic_node_excess<N>(const ZoneView&, real_t, const real_t*, real_t*);        \
  template void limiter<N>(const ZoneView&, Limiter, real_t, const LimiterScales&, const real_t*,  \
                           const real_t*, const real_t*, real_t*);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
