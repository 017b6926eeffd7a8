#pragma once
/// \file sa_model.hpp
/// The Reynolds-averaged Navier-Stokes equations with the Spalart-Allmaras model (SA-neg,
/// NASA Turbulence Modeling Resource) as the terms of a model (physics/model.hpp): the mean
/// flow's five variables plus rho nu-tilde (conservative) / nu-tilde (primitive), solved coupled
/// with the mean flow.
///   SaState           the six variables: names, conversions, scales
///   SaConvection      the mean flow's Riemann flux and nu-tilde upwinded with its mass flux
///   SaBoundary        the mean flow's ghost states and nu-tilde's (the TMR's conditions)
///   SaViscousTerm     mu + mu_t and k + k_t in the mean flow's viscous flux, nu-tilde diffusion
///   SaSourceTerm      production, destruction and the cb2 term of nu-tilde
/// with their Jacobians for the implicit operators. The point-wise model functions (eddy
/// viscosity, diffusion coefficient, source) are those of physics/sa/spalart_allmaras.hpp.
#include "runtime/physics/boundary_conditions.hpp"
#include "runtime/physics/euler/convection.hpp"
#include "runtime/physics/euler/mean_flow.hpp"
#include "runtime/physics/navier_stokes/viscous_term.hpp"
#include "runtime/physics/sa/spalart_allmaras.hpp"

namespace fv::phys {

/// The state of SA RANS: the mean flow and rho nu-tilde / nu-tilde.
struct SaState : MeanFlowState {
  static constexpr int kNumVars = kNumEq + 1;
  static constexpr int kNuTilde = kNumEq; ///< index of rho nu-tilde / nu-tilde
  static constexpr const char* kConservative[kNumVars] = {"rho",  "rhoU", "rhoV",
                                                          "rhoW", "rhoE", "rhoNuTilde"};
  static constexpr const char* kPrimitive[kNumVars] = {"rho", "u", "v", "w", "p", "nuTilde"};

  FV_HOST_DEVICE FV_FORCEINLINE static void to_primitive(const real_t* U, real_t* W, real_t gamma) {
    cons_to_prim(U, W, gamma);
    W[kNuTilde] = U[kNuTilde] / U[kDensity];
  }
  FV_HOST_DEVICE FV_FORCEINLINE static void to_conservative(const real_t* W, real_t* U,
                                                            real_t gamma) {
    prim_to_cons(W, U, gamma);
    U[kNuTilde] = W[kDensity] * W[kNuTilde];
  }
  /// The mean flow's scales and rho nu-tilde of the free stream Winf (kNumVars primitives).
  static void residual_scales(const real_t* Winf, real_t gamma, real_t* s) {
    MeanFlowState::residual_scales(Winf, gamma, s);
    s[kNuTilde] = Winf[kDensity] * Winf[kNuTilde];
  }
  /// The mean flow's scales and nu-tilde of the free stream.
  static void primitive_scales(const real_t* Winf, real_t gamma, real_t* s) {
    MeanFlowState::primitive_scales(Winf, gamma, s);
    s[kNuTilde] = Winf[kNuTilde];
  }
  /// The mean flow's steps and rho (|nu-tilde| + nu-tilde of the free stream), so that the step
  /// of rho nu-tilde stays finite where nu-tilde vanishes.
  FV_HOST_DEVICE FV_FORCEINLINE static void perturbation_scales(const real_t* U, const real_t* W,
                                                                real_t gamma, const BcParams& b,
                                                                real_t* s) {
    MeanFlowState::perturbation_scales(U, W, gamma, b, s);
    const real_t nt = U[kNuTilde] / U[kDensity];
    s[kNuTilde] = U[kDensity] * ((nt >= 0.0 ? nt : -nt) + b.nuTilde) + 1e-300;
  }
};

/// The convective term of SA RANS: the mean flow's, and rho nu-tilde convected with the mean
/// flow's mass flux (first-order upwind, the TMR's choice for the turbulence equation).
struct SaConvection {
  static constexpr int q = SaState::kNuTilde;
  /// The mean flow's flux, then F[q] = mass flux F[0] times the upwind nu-tilde (WL on the
  /// owner side when F[0] >= 0).
  FV_HOST_DEVICE FV_FORCEINLINE static void flux(const ConvectiveSettings& s, const real_t* WL,
                                                 const real_t* WR, const real_t* S, real_t* F) {
    MeanFlowConvection::flux(s, WL, WR, S, F);
    F[q] = F[kDensity] * (F[kDensity] >= 0.0 ? WL[q] : WR[q]);
  }
  /// The mean flow's Jacobians (kBlockSize each; the nu-tilde rows: add_scalar_jacobians).
  FV_HOST_DEVICE FV_FORCEINLINE static void jacobians(const ConvectiveSettings& s, const real_t* WL,
                                                      const real_t* WR, const real_t* S,
                                                      real_t* dFdL, real_t* dFdR) {
    MeanFlowConvection::jacobians(s, WL, WR, S, dFdL, dFdR);
  }
  /// The nu-tilde rows of the cell's block Mc and the neighbour's block O (N x N) of an
  /// interior face with area vector S out of the cell: the convection upwinded with the face's
  /// mass flux (the upwind cell's rho nu-tilde), with respect to rho nu-tilde only.
  template <int N>
  FV_HOST_DEVICE FV_FORCEINLINE static void
  add_scalar_jacobians(const real_t* Wc, const real_t* Wj, const real_t* S, real_t* Mc, real_t* O) {
    constexpr int kk = N * q + q;
    const real_t mdot =
        0.5 * (Wc[kDensity] *
                   (Wc[kVelocity] * S[0] + Wc[kVelocity + 1] * S[1] + Wc[kVelocity + 2] * S[2]) +
               Wj[kDensity] *
                   (Wj[kVelocity] * S[0] + Wj[kVelocity + 1] * S[1] + Wj[kVelocity + 2] * S[2]));
    Mc[kk] += (mdot > 0.0 ? mdot : 0.0) / Wc[kDensity];
    O[kk] += (mdot < 0.0 ? mdot : 0.0) / Wj[kDensity];
  }
  FV_HOST_DEVICE FV_FORCEINLINE static real_t face_radius(const real_t* W, real_t a,
                                                          const real_t* S, real_t area) {
    return MeanFlowConvection::face_radius(W, a, S, area);
  }
};

/// The boundary term of SA RANS: the mean flow's ghost state, then nu-tilde's as the TMR
/// specifies (BcTraits::scalars): 0 at no-slip walls (the ghost mirrors the cell, so the face
/// value is 0), the free-stream value where the flow enters at far field and inflow boundaries
/// (the upwind flux takes the interior value where it leaves), the interior value elsewhere.
struct SaBoundary {
  static constexpr int q = SaState::kNuTilde;
  FV_HOST_DEVICE FV_FORCEINLINE static void ghost(const real_t* W, const real_t* n,
                                                  const BcParams& b, real_t* G) {
    ghost_state(W, n, b, G);
    switch (bc_traits(b.type).scalars) {
    case BcScalars::Zero:
      G[q] = -W[q];
      break;
    case BcScalars::Inflow:
      G[q] = b.nuTilde;
      break;
    case BcScalars::Interior:
      G[q] = W[q];
      break;
    }
  }
};

/// The viscous term of SA RANS: the laminar term with the eddy viscosity mu_t (and k_t = mu_t
/// cp / Pr_t) added, and the diffusion of nu-tilde, (mu + rho nu-tilde fn) / sigma grad
/// nu-tilde (sa::diffusion_coefficient).
struct SaViscousTerm {
  static constexpr bool kActive = true;
  static constexpr int q = SaState::kNuTilde;

  /// F_v . S of an interior face (as LaminarViscousTerm): the mean of the cells' eddy
  /// viscosities enters mu and k; F[q], the nu-tilde diffusion flux, the mean of the cells'
  /// coefficients times the face gradient.
  FV_HOST_DEVICE inline static void interior_flux(const real_t* WL, const real_t* WR,
                                                  const real_t* gL, const real_t* gR,
                                                  const real_t* l, const real_t* S,
                                                  const Transport& tr, real_t* F) {
    const real_t muL = viscosity_of(tr, WL), muR = viscosity_of(tr, WR);
    const real_t muT = 0.5 * (sa::eddy_viscosity(WL[kDensity], WL[q], muL) +
                              sa::eddy_viscosity(WR[kDensity], WR[q], muR));
    interior_viscous_flux(WL, WR, gL, gR, l, S, tr, F, muT);
    real_t g[3];
    face_gradient(gL + 3 * q, gR + 3 * q, WL[q], WR[q], l, g);
    const real_t c = 0.5 * (sa::diffusion_coefficient(WL[kDensity], WL[q], muL) +
                            sa::diffusion_coefficient(WR[kDensity], WR[q], muR));
    F[q] = c * (g[0] * S[0] + g[1] * S[1] + g[2] * S[2]);
  }

  /// F_v . S of a boundary face (as LaminarViscousTerm): the cell's eddy viscosity but at
  /// no-slip walls (where it vanishes); nu-tilde's diffusion flux to 0 at the face where the
  /// row's scalars are Zero (the wall's viscosity: the mean flow's choice), the cell's gradient
  /// at open faces, none through planes.
  FV_HOST_DEVICE inline static void boundary_flux(const real_t* Wc, const real_t* gc,
                                                  const real_t* d, const real_t* S,
                                                  const BcParams& b, const Transport& tr,
                                                  real_t* F) {
    const BcTraits bc = bc_traits(b.type);
    const real_t mu = viscosity_of(tr, Wc);
    boundary_viscous_flux(Wc, gc, d, S, b, tr, F,
                          bc.face == BcFace::NoSlip ? 0.0
                                                    : sa::eddy_viscosity(Wc[kDensity], Wc[q], mu));
    real_t g[3] = {gc[3 * q], gc[3 * q + 1], gc[3 * q + 2]};
    real_t c = sa::diffusion_coefficient(Wc[kDensity], Wc[q], mu);
    if (bc.scalars == BcScalars::Zero) {
      face_gradient(gc + 3 * q, gc + 3 * q, Wc[q], 0.0, d, g);
      const real_t Tw =
          b.wallTemperature > 0.0 ? b.wallTemperature : temperature(Wc, tr.gasConstant);
      c = sa::diffusion_coefficient(Wc[kDensity], 0.0, phys::viscosity(tr, Tw));
    }
    F[q] = bc.face == BcFace::Plane ? 0.0 : c * (g[0] * S[0] + g[1] * S[1] + g[2] * S[2]);
  }

  /// The viscosity of the viscous time step: mu + mu_t (nu-tilde's own diffusivity, up to 2.5
  /// times larger where mu_t / mu is small, is left out: Newton's pseudo time converges faster
  /// with the mean flow's radius; explicit RANS runs keep a CFL margin).
  FV_HOST_DEVICE FV_FORCEINLINE static real_t viscosity(const Transport& t, const real_t* w) {
    return viscosity_of(t, w) + eddy_viscosity(t, w);
  }
  /// The eddy viscosity mu_t of a cell with primitive state w.
  FV_HOST_DEVICE FV_FORCEINLINE static real_t eddy_viscosity(const Transport& t, const real_t* w) {
    return sa::eddy_viscosity(w[kDensity], w[q], viscosity_of(t, w));
  }

  /// The mean flow's thin-layer Jacobians of an interior face (as LaminarViscousTerm) with the
  /// face's eddy viscosity, the mean of the cell's muTc and the neighbour's.
  FV_HOST_DEVICE FV_FORCEINLINE static void
  add_interior_jacobians(const real_t* Wc, const real_t* Wj, const real_t* S, const real_t* dc,
                         const real_t* dj, const Transport& t, real_t muTc, real_t* Mc, real_t* O) {
    const real_t muj = viscosity_of(t, Wj);
    const real_t muTf = 0.5 * (muTc + sa::eddy_viscosity(Wj[kDensity], Wj[q], muj));
    add_interior_viscous_jacobians(Wc, Wj, S, dc, dj, t, muTf, Mc, O);
  }
  /// The mean flow's thin-layer Jacobian of a boundary face (a no-slip wall's).
  FV_HOST_DEVICE FV_FORCEINLINE static void add_boundary_jacobian(const real_t* Wc, const real_t* S,
                                                                  const real_t* d,
                                                                  const BcParams& b,
                                                                  const Transport& t, real_t* M) {
    add_wall_viscous_jacobian(Wc, S, d, b, t, M);
  }

  /// The nu-tilde rows of the blocks Mc and O (N x N) of an interior face with area vector S
  /// out of the cell: the thin-layer nu-tilde diffusion with respect to rho nu-tilde (the mean
  /// of the cells' coefficients over the distance of the cell centres along the normal).
  template <int N>
  FV_HOST_DEVICE FV_FORCEINLINE static void
  add_scalar_jacobians(const real_t* Wc, const real_t* Wj, const real_t* S, const real_t* dc,
                       const real_t* dj, const Transport& t, real_t* Mc, real_t* O) {
    constexpr int kk = N * q + q;
    const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    const real_t dn =
        std::fabs((dc[0] - dj[0]) * S[0] + (dc[1] - dj[1]) * S[1] + (dc[2] - dj[2]) * S[2]) / area;
    const real_t muc = viscosity_of(t, Wc);
    const real_t muj = viscosity_of(t, Wj);
    const real_t a = 0.5 *
                     (sa::diffusion_coefficient(Wc[kDensity], Wc[q], muc) +
                      sa::diffusion_coefficient(Wj[kDensity], Wj[q], muj)) *
                     area / dn;
    Mc[kk] += a / Wc[kDensity];
    O[kk] -= a / Wj[kDensity];
  }
  /// The nu-tilde row of the cell's block Mc (N x N) of a boundary face (S outward, d = face
  /// centroid - cell centroid): the diffusion to nu-tilde = 0 at the face where the row's
  /// scalars are Zero; none elsewhere.
  template <int N>
  FV_HOST_DEVICE FV_FORCEINLINE static void
  add_scalar_boundary_jacobian(const real_t* Wc, const real_t* S, const real_t* d,
                               const BcParams& b, const Transport& t, real_t* Mc) {
    if (bc_traits(b.type).scalars != BcScalars::Zero) return;
    const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    const real_t dn = std::fabs(d[0] * S[0] + d[1] * S[1] + d[2] * S[2]) / area;
    const real_t mu = viscosity_of(t, Wc);
    Mc[N * q + q] += sa::diffusion_coefficient(Wc[kDensity], 0.0, mu) * area / dn / Wc[kDensity];
  }
};

/// The source term of SA RANS: d(rho nu-tilde)/dt + ... = Q, Q = rho (P - D) + rho cb2 / sigma
/// |grad nu-tilde|^2 (sa::source), acting on rho nu-tilde only.
struct SaSourceTerm {
  static constexpr bool kActive = true;
  static constexpr int q = SaState::kNuTilde;
  static constexpr int kFirst = q, kCount = 1; ///< the equations it acts on

  /// The source integrated over a cell of volume V (kCount values, residual units) from the
  /// cell's primitives w, gradients g (3 N values, g[3 k + d] = d w_k / d x_d) and wall
  /// distance d.
  FV_HOST_DEVICE FV_FORCEINLINE static void integrated(const real_t* w, const real_t* g, real_t d,
                                                       real_t V, const Transport& t, real_t* Q) {
    const real_t omega = sa::vorticity(g + 3 * kVelocity);
    const sa::Source s = sa::source(w[kDensity], w[q], viscosity_of(t, w), omega, d, g + 3 * q);
    Q[0] = s.total() * V;
  }
  /// Adds to the cell's block Mc (N x N) the part of -dQ/d(rho nu-tilde) V that makes it larger
  /// (the destruction-dominated, stabilising part; production's negative contribution is left
  /// out so that the block stays diagonally dominant).
  template <int N>
  FV_HOST_DEVICE FV_FORCEINLINE static void add_jacobian(const real_t* w, const real_t* g, real_t d,
                                                         real_t V, const Transport& t, real_t* Mc) {
    const real_t mu = viscosity_of(t, w);
    const sa::Source s =
        sa::source(w[kDensity], w[q], mu, sa::vorticity(g + 3 * kVelocity), d, g + 3 * q);
    const real_t dq = -s.dQdNu / w[kDensity]; // d(-Q)/d(rho nu-tilde) at fixed rho
    if (dq > 0.0) Mc[N * q + q] += dq * V;
  }
};

} // namespace fv::phys
