#pragma once
/// \file cell_update_k.hpp
/// Point-wise pieces (FV_HOST_DEVICE, one cell each) of the residual's flux sum and of the
/// Runge-Kutta update, shared by flux_sum, rk_stage and their fused form flux_sum_rk_stage (and
/// their forms that store the new state's primitives), so that every path does the same
/// arithmetic in the same order (bitwise equal results).
#include "runtime/kernels/cell_shape.hpp"
#include "runtime/kernels/zone_view.hpp"

#include <type_traits>

namespace fv::kernels::detail {

/// r[k] = sum over the cell's faces of sign * flux[k][face] (net outflow), in cellFaces order
/// (S: the zone's CellShape; the same sum for every shape).
template <int N, class S = AnyShape>
FV_HOST_DEVICE FV_FORCEINLINE void cell_flux_sum(const ZoneView& v, const real_t* flux, idx_t c,
                                                 real_t (&r)[N]) {
  for (int k = 0; k < N; ++k)
    r[k] = 0.0;
  for (idx_t j = S::faces_begin(v, c); j < S::faces_end(v, c); ++j) {
    const idx_t f = v.cellFaces[j];
    const real_t sign = static_cast<real_t>(v.cellFaceSign[j]);
    for (int k = 0; k < N; ++k)
      r[k] += sign * flux[k * v.nFaces + f];
  }
}

/// The step factor beta dt / V of cell c (dt per cell, or dtGlobal when >= 0).
FV_HOST_DEVICE FV_FORCEINLINE real_t rk_step_factor(const ZoneView& v, real_t beta,
                                                    const real_t* dt, real_t dtGlobal, idx_t c) {
  return beta * (dtGlobal >= 0.0 ? dtGlobal : dt[c]) / v.cellVolume[c];
}

/// One component of a Runge-Kutta stage: a U0 + b (U - h R).
FV_HOST_DEVICE FV_FORCEINLINE real_t rk_value(real_t a, real_t b, real_t h, real_t u0, real_t u,
                                              real_t r) {
  return a * u0 + b * (u - h * r);
}

/// Stores the stage's new state u of cell c (component k at Unew[k nTotalCells + c]) and, for a
/// state model M (not void), its primitives in W as kernels::primitives() computes them.
template <class M, int N>
FV_HOST_DEVICE FV_FORCEINLINE void store_stage(const ZoneView& v, idx_t c, const real_t (&u)[N],
                                               real_t* Unew, real_t gamma, real_t* W) {
  for (int k = 0; k < N; ++k)
    Unew[k * v.nTotalCells + c] = u[k];
  if constexpr (!std::is_void_v<M>) {
    static_assert(M::kNumVars == N, "store_stage: the model's variables");
    real_t w[N];
    M::to_primitive(u, w, gamma);
    for (int k = 0; k < N; ++k)
      W[k * v.nTotalCells + c] = w[k];
  }
}

} // namespace fv::kernels::detail
