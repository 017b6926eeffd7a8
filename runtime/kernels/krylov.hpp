#pragma once
/// \file krylov.hpp
/// Vector kernels of the Krylov solver (runtime/solver/gmres.hpp) and of Newton's update. A
/// vector is a cell field of nv components (the state model's variables) laid out like the
/// state: component k of cell c at [k * nTotalCells + c]. The kernels touch the owned cells [0,
/// nCells) only (halo entries are neither read nor written) and every pointer is a device pointer.
///
/// Inner products are weighted, <x, y> = sum_c sum_k x_k y_k w_k with w_k = 1 / s_k^2 and s_k a
/// reference magnitude of conservative variable k, so that density, momentum and energy weigh
/// alike in the Krylov norms whatever the units. They are deterministic: blocks of 128 cells sum
/// their cells' products in cell order, then one block per vector sums the block sums in a
/// fixed order (the same on every backend; up to 32 vectors per launch, the other vector read
/// once per cell; the host receives one value per vector).
#include "runtime/kernels/zone_view.hpp"
#include "runtime/physics/model.hpp"

#include <cstddef>

namespace fv::kernels {

/// Weights w_k of the inner product (see file comment), the first nv used.
struct VectorWeights {
  real_t w[phys::kMaxVars] = {1, 1, 1, 1, 1, 1, 1, 1};
};

/// Largest Krylov basis a combination can span (coefficients travel by value to the kernel).
inline constexpr int kMaxKrylov = 100;

/// Coefficients of vec_combine, by value.
struct KrylovCoeffs {
  real_t c[kMaxKrylov + 1] = {};
};

/// x = 0 for all n cells (owned and halo) of an nv-component field of stride n.
void vec_zero(int nv, idx_t n, real_t* x);

/// y = a x + b y on owned cells (b = 0: y = a x, y's old values not read).
void vec_axpby(const ZoneView& z, int nv, real_t a, const real_t* x, real_t b, real_t* y);

/// y = beta y + sum_{j < count} c_j V_j with V_j = basis + j * stride (beta = 0: y's old values
/// are not read). count <= kMaxKrylov + 1.
void vec_combine(const ZoneView& z, int nv, int count, const real_t* basis, std::size_t stride,
                 const KrylovCoeffs& c, real_t beta, real_t* y);

/// out[j] = <V_j, x> (weighted, this zone's owned cells only) for j < count, V_j = basis + j *
/// stride. One launch for all j; out on the host.
void vec_dots(const ZoneView& z, int nv, int count, const real_t* basis, std::size_t stride,
              const real_t* x, const VectorWeights& w, real_t* out);

/// Newton's Jacobian-free product: y = V/dt x + (R1 - R0) / eps (dt per cell, or dtGlobal >= 0).
void jfnk_combine(const ZoneView& z, int nv, const real_t* dt, real_t dtGlobal, real_t eps,
                  const real_t* x, const real_t* R1, const real_t* R0, real_t* y);

/// The largest factor alpha <= 1 such that U + alpha dU changes the density and the pressure of
/// no owned cell by more than the factor 1 + beta either way (an increase up to (1 + beta) q,
/// a decrease down to q / (1 + beta)), to first order in alpha: min over cells and q of
/// beta q / dq (increase) or beta / (1 + beta) q / |dq| (decrease), dq the change of U + dU.
/// 0 when U + dU is NaN anywhere. Reads the mean flow (the first five components) of any
/// state model.
real_t update_relaxation(const ZoneView& z, real_t gamma, real_t beta, const real_t* U,
                         const real_t* dU);

} // namespace fv::kernels
