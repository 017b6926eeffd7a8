// Viscous face fluxes of the Navier-Stokes and RANS models (physics/navier_stokes/
// face_viscous.hpp, physics/sa/), subtracted from the convective face fluxes already in `flux`,
// the viscous part of the local time step and the Spalart-Allmaras source terms.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/navier_stokes/face_viscous.hpp"
#include "runtime/physics/sa/spalart_allmaras.hpp"

namespace fv::kernels {
using phys::kNumEq;

namespace {
/// The N primitives and 3N gradient components of cell c.
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void gather_cell(const real_t* W, const real_t* grad, idx_t n,
                                               idx_t c, real_t* w, real_t* g) {
  for (int k = 0; k < N; ++k)
    w[k] = W[k * n + c];
  for (int k = 0; k < 3 * N; ++k)
    g[k] = grad[k * n + c];
}

/// True for the state models with the Spalart-Allmaras variable.
template <class M>
inline constexpr bool kRans = phys::kHasScalars<M>;

using phys::viscosity_of;

/// Eddy viscosity of a RANS primitive state (0 for the other models).
template <class M>
FV_HOST_DEVICE FV_FORCEINLINE real_t eddy_viscosity(const phys::Transport& t, const real_t* w) {
  if constexpr (kRans<M>)
    return phys::sa::eddy_viscosity(w[0], w[M::kNuTilde], viscosity_of(t, w));
  else
    return 0.0;
}

/// F_v . S of an interior face for the state model M (RANS: mu + mu_t, k + k_t and the
/// nu-tilde diffusion flux). A function, not inline in the kernel: CUDA's extended lambdas
/// may not first capture variables inside `if constexpr`.
template <class M>
FV_HOST_DEVICE inline void
interior_face_viscous(const real_t* WL, const real_t* WR, const real_t* gL, const real_t* gR,
                      const real_t* l, const real_t* S, const phys::Transport& tr, real_t* F) {
  if constexpr (kRans<M>) {
    constexpr int q = M::kNuTilde;
    const real_t muL = viscosity_of(tr, WL), muR = viscosity_of(tr, WR);
    const real_t muT = 0.5 * (phys::sa::eddy_viscosity(WL[0], WL[q], muL) +
                              phys::sa::eddy_viscosity(WR[0], WR[q], muR));
    phys::interior_viscous_flux(WL, WR, gL, gR, l, S, tr, F, muT);
    // nu-tilde diffusion: the mean of the cells' coefficients times the face gradient
    real_t g[3];
    phys::face_gradient(gL + 3 * q, gR + 3 * q, WL[q], WR[q], l, g);
    const real_t c = 0.5 * (phys::sa::diffusion_coefficient(WL[0], WL[q], muL) +
                            phys::sa::diffusion_coefficient(WR[0], WR[q], muR));
    F[q] = c * (g[0] * S[0] + g[1] * S[1] + g[2] * S[2]);
  } else {
    phys::interior_viscous_flux(WL, WR, gL, gR, l, S, tr, F);
  }
}

/// F_v . S of a boundary face of the cell with state Wc for the state model M (RANS: nu-tilde
/// = 0 at no-slip walls, the cell's eddy viscosity elsewhere).
template <class M>
FV_HOST_DEVICE inline void
boundary_face_viscous(const real_t* Wc, const real_t* gc, const real_t* d, const real_t* S,
                      const phys::BcParams& b, const phys::Transport& tr, real_t* F) {
  if constexpr (kRans<M>) {
    constexpr int q = M::kNuTilde;
    const real_t mu = viscosity_of(tr, Wc);
    const bool wall = b.type == phys::BcType::NoSlipWall;
    phys::boundary_viscous_flux(Wc, gc, d, S, b, tr, F,
                                wall ? 0.0 : phys::sa::eddy_viscosity(Wc[0], Wc[q], mu));
    real_t g[3] = {gc[3 * q], gc[3 * q + 1], gc[3 * q + 2]};
    real_t c = phys::sa::diffusion_coefficient(Wc[0], Wc[q], mu);
    if (wall) { // nu-tilde = 0 at the wall (the wall's viscosity: the mean flow's choice)
      phys::face_gradient(gc + 3 * q, gc + 3 * q, Wc[q], 0.0, d, g);
      const real_t Tw =
          b.wallTemperature > 0.0 ? b.wallTemperature : phys::temperature(Wc, tr.gasConstant);
      c = phys::sa::diffusion_coefficient(Wc[0], 0.0, phys::viscosity(tr, Tw));
    }
    const bool plane = b.type == phys::BcType::SlipWall || b.type == phys::BcType::Symmetry;
    F[q] = plane ? 0.0 : c * (g[0] * S[0] + g[1] * S[1] + g[2] * S[2]);
  } else {
    phys::boundary_viscous_flux(Wc, gc, d, S, b, tr, F);
  }
}
} // namespace

template <class M>
void viscous_interior_fluxes(const ZoneView& z, const phys::Transport& t, const real_t* W,
                             const real_t* grad, real_t* flux) {
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const phys::Transport tr = t;
  const idx_t nb = z.nBoundaryFaces;
  forall("viscous_interior_fluxes", z.nFaces - nb, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t f = nb + i;
    const idx_t n = v.nTotalCells;
    real_t WL[N], WR[N], gL[3 * N], gR[3 * N], F[N];
    gather_cell<N>(W, grad, n, v.faceOwner[f], WL, gL);
    gather_cell<N>(W, grad, n, v.faceNeighbour[f], WR, gR);
    const real_t* dL = v.faceOwnerDelta + 3 * f;
    const real_t* dR = v.faceNeighbourDelta + 3 * f;
    const real_t l[3] = {dL[0] - dR[0], dL[1] - dR[1], dL[2] - dR[2]}; // x_R - x_L
    const real_t* S = v.faceArea + 3 * f;
    interior_face_viscous<M>(WL, WR, gL, gR, l, S, tr, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] -= F[k];
  });
}

template <class M>
void viscous_boundary_fluxes(const ZoneView& z, const PatchView& patches, const phys::Transport& t,
                             const real_t* W, const real_t* grad, real_t* flux) {
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const PatchView pv = patches;
  const phys::Transport tr = t;
  forall("viscous_boundary_fluxes", z.nBoundaryFaces, [=] FV_HOST_DEVICE(idx_t f) {
    const phys::BcParams& b = pv.params[pv.patch_of(f)];
    real_t Wc[N], gc[3 * N], F[N];
    gather_cell<N>(W, grad, v.nTotalCells, v.faceOwner[f], Wc, gc);
    const real_t* d = v.faceOwnerDelta + 3 * f;
    const real_t* S = v.faceArea + 3 * f;
    boundary_face_viscous<M>(Wc, gc, d, S, b, tr, F);
    for (int k = 0; k < N; ++k)
      flux[k * v.nFaces + f] -= F[k];
  });
}

void wall_viscous_data(const ZoneView& z, const PatchView& patches, const phys::Transport& t,
                       const real_t* W, const real_t* grad, real_t* out) {
  // the mean flow's five components of any state model (the eddy viscosity vanishes at walls)
  constexpr int N = kNumEq;
  const ZoneView v = z;
  const PatchView pv = patches;
  const phys::Transport tr = t;
  forall("wall_viscous_data", z.nBoundaryFaces, [=] FV_HOST_DEVICE(idx_t f) {
    const idx_t nb = v.nBoundaryFaces;
    const phys::BcParams& b = pv.params[pv.patch_of(f)];
    real_t Wc[N], gc[3 * N], F[N];
    gather_cell<N>(W, grad, v.nTotalCells, v.faceOwner[f], Wc, gc);
    const real_t* S = v.faceArea + 3 * f;
    const real_t* d = v.faceOwnerDelta + 3 * f;
    phys::boundary_viscous_flux(Wc, gc, d, S, b, tr, F);
    const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    // force on the wall: -tau . S (S points out of the fluid); heat flux into the fluid
    real_t tau2 = 0.0, work = 0.0;
    for (int k = 0; k < 3; ++k) {
      out[k * nb + f] = -F[1 + k];
      tau2 += F[1 + k] * F[1 + k];
      work += b.wallVelocity[k] * F[1 + k];
    }
    out[3 * nb + f] = b.type == phys::BcType::NoSlipWall ? (F[4] - work) / area : 0.0;
    // y+ of the wall cell: rho u_tau dn / mu, u_tau = sqrt(|tau_w| / rho)
    const real_t dn = std::fabs(d[0] * S[0] + d[1] * S[1] + d[2] * S[2]) / area;
    const real_t mu = phys::viscosity(tr, phys::temperature(Wc, tr.gasConstant));
    out[4 * nb + f] = std::sqrt(Wc[0] * std::sqrt(tau2) / area) * dn / mu;
  });
}

template <class M>
void viscous_time_step(const ZoneView& z, const phys::Transport& t, real_t cfl, const real_t* W,
                       real_t* dt) {
  constexpr int N = M::kNumVars;
  const ZoneView v = z;
  const phys::Transport tr = t;
  forall("viscous_time_step", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t w[N];
    for (int k = 0; k < N; ++k)
      w[k] = W[k * n + c];
    const real_t a = phys::sound_speed(w, tr.gamma);
    const real_t mu = viscosity_of(tr, w) + eddy_viscosity<M>(tr, w);
    const real_t V = v.cellVolume[c];
    real_t lc = 0.0, lv = 0.0;
    for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j) {
      const real_t* S = v.faceArea + 3 * v.cellFaces[j];
      const real_t area2 = S[0] * S[0] + S[1] * S[1] + S[2] * S[2];
      lc += std::fabs(w[1] * S[0] + w[2] * S[1] + w[3] * S[2]) + a * std::sqrt(area2);
      lv += phys::viscous_spectral_radius(w[0], mu, tr, area2, V);
    }
    dt[c] = cfl * V / (lc + phys::kViscousTimeStepFactor * lv);
  });
}

namespace {
/// The Spalart-Allmaras source kernel of the RANS state model M.
template <class M>
void sa_source(const ZoneView& z, const phys::Transport& t, const real_t* W, const real_t* grad,
               real_t* R) {
  constexpr int N = M::kNumVars, q = M::kNuTilde;
  FV_ASSERT(z.cellWallDistance, "RANS without wall distance (SpatialOperator checks it)");
  const ZoneView v = z;
  const phys::Transport tr = t;
  forall("turbulence_source", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t w[N], g[3 * N];
    gather_cell<N>(W, grad, n, c, w, g);
    const real_t omega = phys::sa::vorticity(g + 3);
    const phys::sa::Source s =
        phys::sa::source(w[0], w[q], viscosity_of(tr, w), omega, v.cellWallDistance[c], g + 3 * q);
    R[q * n + c] -= s.total() * v.cellVolume[c];
  });
}
} // namespace

template <class M>
void turbulence_source(const ZoneView& z, const phys::Transport& t, const real_t* W,
                       const real_t* grad, real_t* R) {
  if constexpr (kRans<M>) sa_source<M>(z, t, W, grad, R);
}

#define FV_INSTANTIATE(M)                                                                          \
  template void viscous_interior_fluxes<M>(const ZoneView&, const phys::Transport&, const real_t*, \
                                           const real_t*, real_t*);                                \
  template void viscous_boundary_fluxes<M>(const ZoneView&, const PatchView&,                      \
                                           const phys::Transport&, const real_t*, const real_t*,   \
                                           real_t*);                                               \
  template void viscous_time_step<M>(const ZoneView&, const phys::Transport&, real_t,              \
                                     const real_t*, real_t*);                                      \
  template void turbulence_source<M>(const ZoneView&, const phys::Transport&, const real_t*,       \
                                     const real_t*, real_t*);
FV_FOR_EACH_STATE_MODEL(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
