#pragma once
/// \file reductions.hpp
/// Reductions of the solver over a zone (deterministic: fv::reduce); results on the host, or
/// (the _async forms) queued in a reduce slot and read with PendingReduce::get().
#include "runtime/backend/reduce.hpp"
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels {

/// out[k] = sum over owned cells of (R[k][c] / V_c)^2, for the N components of R.
template <int N>
void residual_sum_squares(const ZoneView& z, const real_t* R, real_t (&out)[N]);
/// residual_sum_squares() queued in `slot` (fv::reduce_async): get() gives the N sums.
template <int N>
PendingReduce residual_sum_squares_async(backend::ReduceSlot& slot, const ZoneView& z,
                                         const real_t* R);

/// Pressure force (out[0..2]) and its moment about origin (out[3..5]) on the n boundary faces
/// faces[0..n) (device list), from the momentum part of the face fluxes minus pRef * S.
void wall_forces(const ZoneView& z, idx_t n, const idx_t* faces, real_t pRef, const real_t* origin,
                 const real_t* flux, real_t (&out)[6]);
/// wall_forces() queued in `slot`: get() gives the 6 values.
PendingReduce wall_forces_async(backend::ReduceSlot& slot, const ZoneView& z, idx_t n,
                                const idx_t* faces, real_t pRef, const real_t* origin,
                                const real_t* flux);

/// Sum over the n boundary faces faces[0..n) of the first three components of a boundary-face
/// field `values` (SoA, stride nBoundaryFaces): e.g. the viscous force of wall_viscous_data().
void boundary_face_sum3(const ZoneView& z, idx_t n, const idx_t* faces, const real_t* values,
                        real_t (&out)[3]);

/// Minimum of a[0..n).
real_t min_value(idx_t n, const real_t* a);
/// min_value() queued in `slot`: get() gives the minimum (1e300 for n = 0).
PendingReduce min_value_async(backend::ReduceSlot& slot, idx_t n, const real_t* a);

/// Smallest (lo) and largest (hi) value of each of the N primitives W over the owned cells.
template <int N>
void primitive_range(const ZoneView& z, const real_t* W, real_t (&lo)[N], real_t (&hi)[N]);

/// Lowest owned cell whose mean flow is NaN or has rho <= 0 or p <= 0 (the first five
/// components of any state model); kNone when all are fine.
idx_t first_unphysical_cell(const ZoneView& z, real_t gamma, const real_t* U);

} // namespace fv::kernels
