#pragma once
/// \file face_flux.hpp
/// Point-wise pieces of the face-flux kernels (FV_HOST_DEVICE), shared by the default kernels
/// (flux.cpp) and their benchmark variants (flux_sum_variants.cpp) so that every variant
/// computes bit-identical face fluxes.
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/roe_flux.hpp"
#include "runtime/physics/rusanov_flux.hpp"

namespace fv::kernels::detail {

/// Reconstructs the primitive state of cell c at distance d (face centroid - cell centroid).
/// Falls back to the cell value when the reconstruction is not physical.
FV_HOST_DEVICE FV_FORCEINLINE void reconstruct(const real_t* W, const real_t* grad,
                                               const real_t* phi, idx_t n, idx_t c, const real_t* d,
                                               bool second, real_t* out) {
  for (int k = 0; k < 5; ++k)
    out[k] = W[k * n + c];
  if (!second) return;
  real_t r[5];
  for (int k = 0; k < 5; ++k)
    r[k] =
        out[k] + phi[k * n + c] * (grad[(3 * k) * n + c] * d[0] + grad[(3 * k + 1) * n + c] * d[1] +
                                   grad[(3 * k + 2) * n + c] * d[2]);
  if (r[0] > 0.0 && r[4] > 0.0)
    for (int k = 0; k < 5; ++k)
      out[k] = r[k];
}

FV_HOST_DEVICE FV_FORCEINLINE void riemann(const FluxSettings& s, const real_t* WL,
                                           const real_t* WR, const real_t* S, real_t* F) {
  if (s.flux == Flux::Roe)
    phys::roe_flux(WL, WR, S, s.gamma, s.entropyFix, F);
  else
    phys::rusanov_flux(WL, WR, S, s.gamma, F);
}

} // namespace fv::kernels::detail
