// Point-wise cell kernels: primitive variables, local time steps, Runge-Kutta stages.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/euler_state.hpp"

namespace fv::kernels {

void primitives(idx_t n, idx_t stride, real_t gamma, const real_t* U, real_t* W) {
  forall("primitives", n, [=] FV_HOST_DEVICE(idx_t c) {
    real_t u[5], w[5];
    for (int k = 0; k < 5; ++k)
      u[k] = U[k * stride + c];
    phys::cons_to_prim(u, w, gamma);
    for (int k = 0; k < 5; ++k)
      W[k * stride + c] = w[k];
  });
}

void local_time_step(const ZoneView& z, real_t gamma, real_t cfl, const real_t* W, real_t* dt) {
  const ZoneView v = z;
  forall("local_time_step", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t w[5];
    for (int k = 0; k < 5; ++k)
      w[k] = W[k * n + c];
    const real_t a = phys::sound_speed(w, gamma);
    real_t lambda = 0.0;
    for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
      const real_t* S = v.faceArea + 3 * v.cellFaces[j];
      const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
      lambda += std::fabs(w[1] * S[0] + w[2] * S[1] + w[3] * S[2]) + a * area;
    }
    dt[c] = cfl * v.cellVolume[c] / lambda;
  });
}

void rk_stage(const ZoneView& z, real_t a, real_t b, real_t beta, const real_t* dt, real_t dtGlobal,
              const real_t* U0, const real_t* U, const real_t* R, real_t* Unew) {
  const ZoneView v = z;
  forall("rk_stage", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    const real_t h = beta * (dtGlobal >= 0.0 ? dtGlobal : dt[c]) / v.cellVolume[c];
    for (int k = 0; k < 5; ++k) {
      const idx_t i = k * n + c;
      Unew[i] = a * U0[i] + b * (U[i] - h * R[i]);
    }
  });
}

void accumulate(const ZoneView& z, real_t keep, real_t w, const real_t* R, real_t* acc) {
  const ZoneView v = z;
  forall("accumulate", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < 5; ++k) {
      const idx_t i = k * v.nTotalCells + c;
      acc[i] = (keep == 0.0 ? 0.0 : keep * acc[i]) + w * R[i];
    }
  });
}

void subtract_source(const ZoneView& z, const real_t* Q, real_t* R) {
  const ZoneView v = z;
  forall("subtract_source", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < 5; ++k)
      R[k * v.nTotalCells + c] -= Q[k * v.nTotalCells + c];
  });
}

} // namespace fv::kernels
