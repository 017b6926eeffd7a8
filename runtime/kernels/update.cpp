// Point-wise cell kernels: primitive variables, local time steps, Runge-Kutta stages.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/cell_field.hpp"
#include "runtime/kernels/cell_update_k.hpp"
#include "runtime/kernels/kernels.hpp"

#include <type_traits>

namespace fv::kernels {

template <class Model>
void primitives(idx_t n, idx_t stride, real_t gamma, const real_t* U, real_t* W) {
  constexpr int N = Model::kNumVars;
  const ConstCellField<N> uf{U, stride};
  const CellField<N> wf{W, stride};
  forall("primitives", n, [=] FV_HOST_DEVICE(idx_t c) {
    real_t u[N], w[N];
    uf.load(c, u);
    Model::to_primitive(u, w, gamma);
    wf.store(c, w);
  });
}
#define FV_INSTANTIATE(M) template void primitives<M>(idx_t, idx_t, real_t, const real_t*, real_t*);
FV_FOR_EACH_CONVECTIVE_MODEL(FV_INSTANTIATE)
#undef FV_INSTANTIATE

void local_time_step(const ZoneView& z, real_t gamma, real_t cfl, const real_t* W, real_t* dt) {
  const ZoneView v = z;
  forall("local_time_step", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t w[phys::kNumEq];
    for (int k = 0; k < phys::kNumEq; ++k)
      w[k] = W[k * n + c];
    const real_t a = phys::sound_speed(w, gamma);
    real_t lambda = 0.0;
    for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
      const real_t* S = v.faceArea + 3 * v.cellFaces[j];
      const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
      lambda += phys::MeanFlowConvection::face_radius(w, a, S, area);
    }
    dt[c] = cfl * v.cellVolume[c] / lambda;
  });
}

namespace {

/// rk_stage; with a state model M (not void) also the new state's primitives into W.
template <int N, class M>
void rk_stage_with(const ZoneView& z, real_t a, real_t b, real_t beta, const real_t* dt,
                   real_t dtGlobal, const real_t* U0, const real_t* U, const real_t* R,
                   real_t* Unew, real_t gamma, real_t* W) {
  const ZoneView v = z;
  const char* label = std::is_void_v<M> ? "rk_stage" : "rk_stage_primitives";
  forall(label, z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    const real_t h = detail::rk_step_factor(v, beta, dt, dtGlobal, c);
    real_t u[N];
    for (int k = 0; k < N; ++k) {
      const idx_t i = k * n + c;
      u[k] = detail::rk_value(a, b, h, U0[i], U[i], R[i]);
    }
    detail::store_stage<M>(v, c, u, Unew, gamma, W);
  });
}

} // namespace

template <int N>
void rk_stage(const ZoneView& z, real_t a, real_t b, real_t beta, const real_t* dt, real_t dtGlobal,
              const real_t* U0, const real_t* U, const real_t* R, real_t* Unew) {
  rk_stage_with<N, void>(z, a, b, beta, dt, dtGlobal, U0, U, R, Unew, 0.0, nullptr);
}

template <class M>
void rk_stage_primitives(const ZoneView& z, real_t a, real_t b, real_t beta, const real_t* dt,
                         real_t dtGlobal, const real_t* U0, const real_t* U, const real_t* R,
                         real_t* Unew, real_t gamma, real_t* W) {
  rk_stage_with<M::kNumVars, M>(z, a, b, beta, dt, dtGlobal, U0, U, R, Unew, gamma, W);
}

template <int N>
void accumulate(const ZoneView& z, real_t keep, real_t w, const real_t* R, real_t* acc) {
  const ZoneView v = z;
  forall("accumulate", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < N; ++k) {
      const idx_t i = k * v.nTotalCells + c;
      acc[i] = (keep == 0.0 ? 0.0 : keep * acc[i]) + w * R[i];
    }
  });
}

template <int N>
void subtract_source(const ZoneView& z, const real_t* Q, real_t* R) {
  const ZoneView v = z;
  forall("subtract_source", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < N; ++k)
      R[k * v.nTotalCells + c] -= Q[k * v.nTotalCells + c];
  });
}

#define FV_INSTANTIATE(N)                                                                          \
  template void rk_stage<N>(const ZoneView&, real_t, real_t, real_t, const real_t*, real_t,        \
                            const real_t*, const real_t*, const real_t*, real_t*);                 \
  template void accumulate<N>(const ZoneView&, real_t, real_t, const real_t*, real_t*);            \
  template void subtract_source<N>(const ZoneView&, const real_t*, real_t*);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE
#define FV_INSTANTIATE(M)                                                                          \
  template void rk_stage_primitives<M>(const ZoneView&, real_t, real_t, real_t, const real_t*,     \
                                       real_t, const real_t*, const real_t*, const real_t*,        \
                                       real_t*, real_t, real_t*);
FV_FOR_EACH_CONVECTIVE_MODEL(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
