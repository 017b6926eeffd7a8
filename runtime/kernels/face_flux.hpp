#pragma once
/// \file face_flux.hpp
/// Point-wise pieces of the face-flux kernels (FV_HOST_DEVICE), shared by the default kernels
/// (flux.cpp) and fvbench's residual-assembly variants (bench/fvbench/assembly_variants.cpp) so
/// that every variant computes bit-identical face fluxes.
#include "runtime/kernels/face_state_k.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/model.hpp"

namespace fv::kernels::detail {

/// Reconstructs the N primitives of cell c at distance d (face centroid - cell centroid).
/// Falls back to the cell value when the reconstruction is not physical (density or pressure
/// not positive). d of precision G (FP64, or FP32 with precision = mixed); the arithmetic in
/// FP64.
template <int N, class G>
FV_HOST_DEVICE FV_FORCEINLINE void reconstruct(const real_t* W, const real_t* grad,
                                               const real_t* phi, idx_t n, idx_t c, const G* d,
                                               bool second, real_t* out) {
  for (int k = 0; k < N; ++k)
    out[k] = W[k * n + c];
  if (!second) return;
  real_t r[N];
  const real_t d0 = d[0], d1 = d[1], d2 = d[2]; // exact in FP64 from either precision
  for (int k = 0; k < N; ++k)
    r[k] = extrapolated(out[k], phi[k * n + c], grad[(3 * k) * n + c], grad[(3 * k + 1) * n + c],
                        grad[(3 * k + 2) * n + c], d0, d1, d2);
  if (physical<N>(r))
    for (int k = 0; k < N; ++k)
      out[k] = r[k];
}

/// Riemann flux of the model M between the primitive states WL and WR (M::kNumVars each)
/// through S: its convective term's (the mean flow's Roe or Rusanov flux, then the model's
/// transported scalars).
template <class M>
FV_HOST_DEVICE FV_FORCEINLINE void riemann(const FluxSettings& s, const real_t* WL,
                                           const real_t* WR, const real_t* S, real_t* F) {
  M::Convective::flux(s, WL, WR, S, F);
}

/// Ghost state of the model M (M::kNumVars primitives) for the interior state W at a face
/// with outward unit normal n: its boundary term's (the mean flow's ghost state of the
/// boundary-condition table, then the model's transported scalars).
template <class M>
FV_HOST_DEVICE FV_FORCEINLINE void ghost(const real_t* W, const real_t* n, const phys::BcParams& b,
                                         real_t* G) {
  M::Boundary::ghost(W, n, b, G);
}

/// Flux of the model M through boundary face area vector S (outward) between the interior
/// primitive state WL and the ghost state of the face's boundary condition b: the one
/// arithmetic of every boundary face loop.
template <class M>
FV_HOST_DEVICE FV_FORCEINLINE void boundary_flux(const FluxSettings& s, const phys::BcParams& b,
                                                 const real_t* S, const real_t* WL, real_t* F) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
  real_t WG[M::kNumVars];
  ghost<M>(WL, nrm, b, WG);
  riemann<M>(s, WL, WG, S, F);
}

} // namespace fv::kernels::detail
