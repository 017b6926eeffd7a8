// Reductions of the solver (monitoring and time stepping) through the one deterministic
// backend helper fv::reduce.
#include "runtime/kernels/reductions.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/euler/euler_state.hpp"

namespace fv::kernels {

template <int N>
PendingReduce residual_sum_squares_async(backend::ReduceSlot& slot, const ZoneView& z,
                                         const real_t* R) {
  const ZoneView v = z;
  return reduce_async<N>(slot, "residual_rms", z.nCells, ReduceOp::Sum,
                         [=] FV_HOST_DEVICE(idx_t c, real_t * acc) {
                           const real_t inv = 1.0 / v.cellVolume[c];
                           for (int k = 0; k < N; ++k) {
                             const real_t r = R[k * v.nTotalCells + c] * inv;
                             acc[k] += r * r;
                           }
                         });
}

template <int N>
void residual_sum_squares(const ZoneView& z, const real_t* R, real_t (&out)[N]) {
  residual_sum_squares_async<N>(backend::default_reduce_slot(), z, R).get(out);
}

#define FV_INSTANTIATE(N)                                                                          \
  template void residual_sum_squares<N>(const ZoneView&, const real_t*, real_t(&)[N]);             \
  template PendingReduce residual_sum_squares_async<N>(backend::ReduceSlot&, const ZoneView&,      \
                                                       const real_t*);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE

PendingReduce wall_forces_async(backend::ReduceSlot& slot, const ZoneView& z, idx_t n,
                                const idx_t* faces, real_t pRef, const real_t* origin,
                                const real_t* flux) {
  const ZoneView v = z;
  const real_t o0 = origin[0], o1 = origin[1], o2 = origin[2];
  return reduce_async<6>(
      slot, "wall_forces", n, ReduceOp::Sum, [=] FV_HOST_DEVICE(idx_t i, real_t * acc) {
        const idx_t f = faces[i];
        const real_t* S = v.faceArea + 3 * f;
        // momentum flux through a wall face = wall pressure * S (S points
        // into the body)
        constexpr int m = phys::kMomentum;
        const real_t F0 = flux[m * v.nFaces + f] - pRef * S[0];
        const real_t F1 = flux[(m + 1) * v.nFaces + f] - pRef * S[1];
        const real_t F2 = flux[(m + 2) * v.nFaces + f] - pRef * S[2];
        const real_t r0 = v.faceCentroid[3 * f] - o0, r1 = v.faceCentroid[3 * f + 1] - o1,
                     r2 = v.faceCentroid[3 * f + 2] - o2;
        acc[0] += F0;
        acc[1] += F1;
        acc[2] += F2;
        acc[3] += r1 * F2 - r2 * F1;
        acc[4] += r2 * F0 - r0 * F2;
        acc[5] += r0 * F1 - r1 * F0;
      });
}

void wall_forces(const ZoneView& z, idx_t n, const idx_t* faces, real_t pRef, const real_t* origin,
                 const real_t* flux, real_t (&out)[6]) {
  wall_forces_async(backend::default_reduce_slot(), z, n, faces, pRef, origin, flux).get(out);
}

void boundary_face_sum3(const ZoneView& z, idx_t n, const idx_t* faces, const real_t* values,
                        real_t (&out)[3]) {
  const idx_t nb = z.nBoundaryFaces;
  reduce<3>(
      "boundary_face_sum3", n, ReduceOp::Sum,
      [=] FV_HOST_DEVICE(idx_t i, real_t * acc) {
        const idx_t f = faces[i];
        for (int k = 0; k < 3; ++k)
          acc[k] += values[k * nb + f];
      },
      out);
}

PendingReduce min_value_async(backend::ReduceSlot& slot, idx_t n, const real_t* a) {
  return reduce_async<1>(
      slot, "min_value", n, ReduceOp::Min,
      [=] FV_HOST_DEVICE(idx_t i, real_t * acc) { acc[0] = a[i] < acc[0] ? a[i] : acc[0]; });
}

real_t min_value(idx_t n, const real_t* a) {
  real_t out[1];
  min_value_async(backend::default_reduce_slot(), n, a).get(out);
  return out[0];
}

template <int N>
void primitive_range(const ZoneView& z, const real_t* W, real_t (&lo)[N], real_t (&hi)[N]) {
  const ZoneView v = z;
  real_t out[2 * N];
  // the maximum of -q is minus the minimum of q: one Max reduction for both
  reduce<2 * N>(
      "primitive_range", z.nCells, ReduceOp::Max,
      [=] FV_HOST_DEVICE(idx_t c, real_t * acc) {
        for (int k = 0; k < N; ++k) {
          const real_t q = W[k * v.nTotalCells + c];
          acc[k] = -q > acc[k] ? -q : acc[k];
          acc[N + k] = q > acc[N + k] ? q : acc[N + k];
        }
      },
      out);
  for (int k = 0; k < N; ++k) {
    lo[k] = -out[k];
    hi[k] = out[N + k];
  }
}
#define FV_INSTANTIATE(N)                                                                          \
  template void primitive_range<N>(const ZoneView&, const real_t*, real_t(&)[N], real_t(&)[N]);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE

idx_t first_unphysical_cell(const ZoneView& z, real_t gamma, const real_t* U) {
  const ZoneView v = z;
  real_t out[1];
  reduce<1>(
      "health_check", z.nCells, ReduceOp::Min,
      [=] FV_HOST_DEVICE(idx_t c, real_t * acc) {
        real_t u[phys::kNumEq], w[phys::kNumEq];
        for (int k = 0; k < phys::kNumEq; ++k)
          u[k] = U[k * v.nTotalCells + c];
        phys::cons_to_prim(u, w, gamma);
        if (!phys::is_physical(w) && static_cast<real_t>(c) < acc[0])
          acc[0] = static_cast<real_t>(c);
      },
      out);
  return out[0] < 1e299 ? static_cast<idx_t>(out[0]) : kNone;
}

} // namespace fv::kernels
