// Vector kernels of the Krylov solver and Newton's update (krylov.hpp).
#include "runtime/kernels/krylov.hpp"
#include "runtime/kernels/kernels.hpp"

#include "common/error.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/backend/forall_blocks.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/physics/euler/euler_state.hpp"

namespace fv::kernels {
using phys::kNumEq;

void vec_zero(int nv, idx_t n, real_t* x) {
  forall("vec_zero", nv * n, [=] FV_HOST_DEVICE(idx_t i) { x[i] = 0.0; });
}

void vec_axpby(const ZoneView& z, int nv, real_t a, const real_t* x, real_t b, real_t* y) {
  const idx_t nc = z.nCells, nt = z.nTotalCells;
  forall("vec_axpby", nv * nc, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t k = i / nc, j = k * nt + (i - k * nc);
    y[j] = b == 0.0 ? a * x[j] : a * x[j] + b * y[j];
  });
}

void vec_combine(const ZoneView& z, int nv, int count, const real_t* basis, std::size_t stride,
                 const KrylovCoeffs& c, real_t beta, real_t* y) {
  FV_VERIFY(count >= 0 && count <= kMaxKrylov + 1, "vec_combine: " << count << " vectors");
  const idx_t nc = z.nCells, nt = z.nTotalCells;
  forall("vec_combine", nv * nc, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t k = i / nc, j = k * nt + (i - k * nc);
    real_t s = beta == 0.0 ? 0.0 : beta * y[j];
    for (int v = 0; v < count; ++v)
      s += c.c[v] * basis[v * stride + j];
    y[j] = s;
  });
}

namespace {
template <int N>
void vec_dots_n(const ZoneView& z, int count, const real_t* basis, std::size_t stride,
                const real_t* x, const VectorWeights& w, real_t* out) {
  for (int j = 0; j < count; ++j)
    out[j] = 0.0;
  const idx_t nc = z.nCells, nt = z.nTotalCells;
  if (count <= 0 || nc <= 0) return;
  // stage 1: blocks of kThreads cells, a thread per cell forms its products with up to kVectors
  // vectors (coalesced loads, x read once), then thread v sums column v in cell order;
  // stage 2: a block per vector sums the block sums (thread t those of blocks t, t + kThreads,
  // ... in order, then thread 0 the threads' sums in order). The host receives `count` values.
  constexpr int kThreads = 128, kVectors = 32;
  const idx_t nBlocks = (nc + kThreads - 1) / kThreads;
  const VectorWeights wt = w;
  for (int v0 = 0; v0 < count; v0 += kVectors) {
    const int nv = count - v0 < kVectors ? count - v0 : kVectors;
    const real_t* V0 = basis + static_cast<std::size_t>(v0) * stride;
    real_t* total = backend::reduce_scratch(static_cast<std::size_t>(nBlocks + 1) * nv);
    real_t* part = total + nv; // the totals first: the host copies only them
    forall_blocks<kThreads, real_t, kThreads * kVectors>(
        "vec_dots", nBlocks,
        [=] FV_HOST_DEVICE(idx_t b, int t, real_t* sh) {
          const idx_t c = b * kThreads + t;
          real_t xc[N] = {};
          if (c < nc)
            for (int k = 0; k < N; ++k)
              xc[k] = wt.w[k] * x[k * nt + c];
          for (int v = 0; v < nv; ++v) {
            real_t d = 0.0;
            if (c < nc)
              for (int k = 0; k < N; ++k)
                d += V0[v * stride + k * nt + c] * xc[k];
            sh[v * kThreads + t] = d;
          }
        },
        [=] FV_HOST_DEVICE(idx_t b, int t, const real_t* sh) {
          if (t >= nv) return;
          real_t d = 0.0;
          for (int i = 0; i < kThreads; ++i)
            d += sh[t * kThreads + i];
          part[static_cast<std::size_t>(t) * nBlocks + b] = d;
        });
    forall_blocks<kThreads, real_t, kThreads>(
        "vec_dots_total", nv,
        [=] FV_HOST_DEVICE(idx_t v, int t, real_t* sh) {
          real_t d = 0.0;
          for (idx_t b = t; b < nBlocks; b += kThreads)
            d += part[static_cast<std::size_t>(v) * nBlocks + b];
          sh[t] = d;
        },
        [=] FV_HOST_DEVICE(idx_t v, int t, const real_t* sh) {
          if (t != 0) return;
          real_t d = 0.0;
          for (int i = 0; i < kThreads; ++i)
            d += sh[i];
          total[v] = d;
        });
    const real_t* h = backend::reduce_scratch_to_host(static_cast<std::size_t>(nv));
    for (int k = 0; k < nv; ++k)
      out[v0 + k] = h[k];
  }
}

template <int N>
void jfnk_combine_n(const ZoneView& z, const real_t* dt, real_t dtGlobal, real_t eps,
                    const real_t* x, const real_t* R1, const real_t* R0, real_t* y) {
  const ZoneView v = z;
  const real_t inv = 1.0 / eps;
  forall("jfnk_combine", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const real_t d = v.cellVolume[c] / (dtGlobal >= 0.0 ? dtGlobal : dt[c]);
    for (int k = 0; k < N; ++k) {
      const idx_t j = k * v.nTotalCells + c;
      y[j] = d * x[j] + (R1[j] - R0[j]) * inv;
    }
  });
}
} // namespace

void vec_dots(const ZoneView& z, int nv, int count, const real_t* basis, std::size_t stride,
              const real_t* x, const VectorWeights& w, real_t* out) {
  with_field_width(
      nv, [&](auto n) { vec_dots_n<decltype(n)::value>(z, count, basis, stride, x, w, out); });
}

void jfnk_combine(const ZoneView& z, int nv, const real_t* dt, real_t dtGlobal, real_t eps,
                  const real_t* x, const real_t* R1, const real_t* R0, real_t* y) {
  with_field_width(
      nv, [&](auto n) { jfnk_combine_n<decltype(n)::value>(z, dt, dtGlobal, eps, x, R1, R0, y); });
}

real_t update_relaxation(const ZoneView& z, real_t gamma, real_t beta, const real_t* U,
                         const real_t* dU) {
  const ZoneView v = z;
  const real_t down = beta / (1.0 + beta);
  real_t out[1];
  reduce<1>(
      "update_relaxation", z.nCells, ReduceOp::Min,
      [=] FV_HOST_DEVICE(idx_t c, real_t * acc) {
        real_t u[kNumEq], u1[kNumEq], w[kNumEq], w1[kNumEq];
        for (int k = 0; k < kNumEq; ++k) {
          u[k] = U[k * v.nTotalCells + c];
          u1[k] = u[k] + dU[k * v.nTotalCells + c];
        }
        phys::cons_to_prim(u, w, gamma);
        phys::cons_to_prim(u1, w1, gamma);
        real_t a = 1.0;
        const int limited[2] = {phys::kDensity, phys::kPressure};
        for (const int k : limited) {
          const real_t dq = w1[k] - w[k];
          const real_t lim = (dq > 0.0 ? beta : down) * w[k];
          const real_t r = dq != 0.0 ? lim / (dq > 0.0 ? dq : -dq) : 1.0;
          a = r < a ? r : a;
          if (!(dq == dq)) a = 0.0; // NaN
        }
        acc[0] = a < acc[0] ? a : acc[0];
      },
      out);
  return out[0] < 1.0 ? out[0] : 1.0;
}

} // namespace fv::kernels
