// Cell -> node interpolation and node-averaged Green-Gauss gradients (mesh-loop-modes paper
// §2.1 eqs. (6)-(7); hybrid MPI-CUDA paper eq. (6)), as gather loops without atomics, for a
// field of any width N (the model's variable count).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/cell_field.hpp"
#include "runtime/kernels/kernels.hpp"

namespace fv::kernels {

template <int N>
void interpolate_to_nodes(const ZoneView& z, const real_t* W, real_t* Wn) {
  const ZoneView v = z;
  const ConstCellField<N> w{W, z.nTotalCells};
  const CellField<N> wn{Wn, z.nNodes};
  forall("interpolate_to_nodes", z.nNodes, [=] FV_HOST_DEVICE(idx_t n) {
    real_t q[N];
    for (int k = 0; k < N; ++k)
      q[k] = 0.0;
    for (idx_t j = v.nodeCellOffsets[n]; j < v.nodeCellOffsets[n + 1]; ++j) {
      const idx_t c = v.nodeCells[j];
      const real_t wt = v.nodeCellWeight[j];
      for (int k = 0; k < N; ++k)
        q[k] += wt * w(k, c);
    }
    wn.store(n, q);
  });
}

template <int N>
void green_gauss_gradient(const ZoneView& z, const real_t* Wn, real_t* grad) {
  const ZoneView v = z;
  const ConstCellField<N> wn{Wn, z.nNodes};
  const CellField<3 * N> gr{grad, z.nTotalCells};
  forall("green_gauss_gradient", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t g[3 * N];
    for (int k = 0; k < 3 * N; ++k)
      g[k] = 0.0;
    for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
      const idx_t f = v.cellFaces[j];
      const real_t sign = static_cast<real_t>(v.cellFaceSign[j]);
      const idx_t nb = v.faceNodeOffsets[f], ne = v.faceNodeOffsets[f + 1];
      real_t qf[N];
      for (int k = 0; k < N; ++k)
        qf[k] = 0.0;
      for (idx_t m = nb; m < ne; ++m) {
        const idx_t node = v.faceNodes[m];
        for (int k = 0; k < N; ++k)
          qf[k] += wn(k, node);
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
      gr(k, c) = g[k] * inv;
  });
}

#define FV_INSTANTIATE(N)                                                                          \
  template void interpolate_to_nodes<N>(const ZoneView&, const real_t*, real_t*);                  \
  template void green_gauss_gradient<N>(const ZoneView&, const real_t*, real_t*);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
