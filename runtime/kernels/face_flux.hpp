#pragma once
/// \file face_flux.hpp
/// Point-wise pieces of the face-flux kernels (FV_HOST_DEVICE), shared by the default kernels
/// (flux.cpp) and their benchmark variants (flux_sum_variants.cpp) so that every variant
/// computes bit-identical face fluxes.
#include "runtime/kernels/face_state_k.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/euler/roe_flux.hpp"
#include "runtime/physics/euler/rusanov_flux.hpp"
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
/// through S: the mean flow's Roe or Rusanov flux, then the model's transported scalars
/// (M::scalar_fluxes, upwinded with the mass flux F[0]).
template <class M>
FV_HOST_DEVICE FV_FORCEINLINE void riemann(const FluxSettings& s, const real_t* WL,
                                           const real_t* WR, const real_t* S, real_t* F) {
  if (s.flux == Flux::Roe)
    phys::roe_flux(WL, WR, S, s.gamma, s.entropyFix, F, s.linearFix);
  else
    phys::rusanov_flux(WL, WR, S, s.gamma, F);
  if constexpr (phys::kHasScalars<M>) M::scalar_fluxes(WL, WR, F);
}

/// Ghost state of the model M (M::kNumVars primitives) for the interior state W at a face
/// with outward unit normal n: the mean flow's (physics/euler/bc_states.hpp), then the
/// model's transported scalars (M::scalar_ghost).
template <class M>
FV_HOST_DEVICE FV_FORCEINLINE void ghost(const real_t* W, const real_t* n, const phys::BcParams& b,
                                         real_t* G) {
  phys::ghost_state(W, n, b, G);
  if constexpr (phys::kHasScalars<M>) M::scalar_ghost(W, n, b, G);
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

/// Adds to M (N x N, row-major, N = Mod::kNumVars) the Jacobian d g / dU of the first-order
/// boundary flux of a face of the cell with primitive state W0, g(U) = F_b(U) - c P(U) . S with
/// F_b = riemann(W, ghost(W)) through area vector S (outward) and P the physical flux of the
/// mean flow: c = 0 for the flux itself, c = 1/2 for LU-SGS (whose scalar interior diagonal
/// already holds half the flux Jacobian). Forward differences in the conservative variables,
/// with steps of 1e-5 of rho, |m| + rho c, rho E (and of the model's scalar scales): large
/// enough that rounding (which may differ between the CPU and the GPU, e.g. fused multiply-adds)
/// stays ~1e-11 of the derivative; the truncation error (~1e-5 relative) does not matter for
/// an implicit operator.
template <class Mod>
FV_HOST_DEVICE inline void add_boundary_flux_jacobian(const real_t* W0, const real_t* S,
                                                      const phys::BcParams& bc,
                                                      const FluxSettings& fs, real_t c, real_t* M) {
  constexpr int N = Mod::kNumVars;
  const real_t gamma = fs.gamma;
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
  real_t U0[N];
  Mod::to_conservative(W0, U0, gamma);
  // perturbation scales: rho, |m| + rho c, rho E
  const real_t rc = U0[0] * phys::sound_speed(W0, gamma);
  real_t scale[N] = {U0[0], std::fabs(U0[1]) + rc, std::fabs(U0[2]) + rc, std::fabs(U0[3]) + rc,
                     U0[4]};
  if constexpr (phys::kHasScalars<Mod>) Mod::scalar_scales(U0, bc, scale);
  auto g = [&](const real_t* Wc, real_t* out) {
    real_t G[N], F[N], P[phys::kNumEq];
    ghost<Mod>(Wc, nrm, bc, G);
    riemann<Mod>(fs, Wc, G, S, F);
    phys::physical_flux(Wc, S, gamma, P);
    for (int k = 0; k < N; ++k)
      out[k] = k < phys::kNumEq ? F[k] - c * P[k] : F[k];
  };
  real_t g0[N];
  g(W0, g0);
  for (int col = 0; col < N; ++col) {
    real_t U1[N], W1[N], g1[N];
    for (int k = 0; k < N; ++k)
      U1[k] = U0[k];
    U1[col] += 1e-5 * scale[col];
    const real_t h = U1[col] - U0[col]; // the step actually taken
    Mod::to_primitive(U1, W1, gamma);
    g(W1, g1);
    for (int r = 0; r < N; ++r)
      M[N * r + col] += (g1[r] - g0[r]) / h;
  }
}

} // namespace fv::kernels::detail
