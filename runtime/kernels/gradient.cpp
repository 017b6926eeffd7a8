// Cell -> node interpolation and node-averaged Green-Gauss gradients (mesh-loop-modes paper
// §2.1 eqs. (6)-(7); hybrid MPI-CUDA paper eq. (6)), as gather loops without atomics, for a
// field of any width N (the model's variable count). The node loop reads the node -> cell
// relation in SELL-32 slices (ZoneView::node_entry): with the CSR relation, each thread walked
// its own ~23 entries (tetrahedra) and the index and weight loads of a warp were scattered;
// sliced, they are coalesced (about 4x faster on 10M tetrahedra, docs/performance.md).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/cell_field.hpp"
#include "runtime/kernels/gradient_limiter_k.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/node_sum_k.hpp"

namespace fv::kernels {

template <int N, class G>
void interpolate_to_nodes(const ZoneViewT<G>& z, const real_t* W, real_t* Wn) {
  const ZoneViewT<G> v = z;
  const ConstCellField<N> w{W, z.nTotalCells};
  const CellField<N> wn{Wn, z.nNodes};
  // 256-thread blocks: measured faster than forall's 128 for this node loop (40 registers,
  // occupancy not the limit; 0.79 vs 0.86 ms on 10M tetrahedra)
  forall<256>("interpolate_to_nodes", z.nNodes, [=] FV_HOST_DEVICE(idx_t n) {
    real_t q[N];
    const auto load = [&](idx_t c, real_t(&wc)[N]) { w.load(c, wc); };
    detail::node_sum<N>(v, n, load, q);
    wn.store(n, q);
  });
}

template <int N, class G>
void green_gauss_gradient(const ZoneViewT<G>& z, const real_t* Wn, real_t* grad) {
  const ZoneViewT<G> v = z;
  const CellField<3 * N> gr{grad, z.nTotalCells};
  forall("green_gauss_gradient", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t g[3 * N];
    detail::cell_gradient<N>(v, Wn, c, g);
    gr.store(c, g);
  });
}

template <int N, class G>
void gradient_and_limiter(const ZoneViewT<G>& z, const real_t* Wn, Limiter kind, real_t venkatK,
                          const LimiterScales& scales, const real_t* W,
                          const real_t* supersonicNodes, real_t* grad, real_t* phi) {
  const ZoneViewT<G> v = z;
  const LimiterScales sc = scales;
  const CellField<3 * N> gr{grad, z.nTotalCells};
  const CellField<N> ph{phi, z.nTotalCells};
  forall("gradient_and_limiter", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t g[3 * N], p[N];
    detail::cell_gradient<N>(v, Wn, c, g);
    gr.store(c, g);
    detail::cell_limiter<N>(v, kind, venkatK, sc, W, supersonicNodes, c, g, p);
    ph.store(c, p);
  });
}

#define FV_INSTANTIATE_G(N, G)                                                                     \
  template void interpolate_to_nodes<N, G>(const ZoneViewT<G>&, const real_t*, real_t*);           \
  template void green_gauss_gradient<N, G>(const ZoneViewT<G>&, const real_t*, real_t*);           \
  template void gradient_and_limiter<N, G>(const ZoneViewT<G>&, const real_t*, Limiter, real_t,    \
                                           const LimiterScales&, const real_t*, const real_t*,     \
                                           real_t*, real_t*);
#define FV_INSTANTIATE(N) FV_FOR_EACH_PRECISION(FV_INSTANTIATE_G, N)
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE
#undef FV_INSTANTIATE_G

} // namespace fv::kernels
