// Viscous face fluxes of the Navier-Stokes model (physics/navier_stokes/face_viscous.hpp),
// subtracted from the convective face fluxes already in `flux`, and the viscous part of the
// local time step.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/physics/navier_stokes/face_viscous.hpp"

namespace fv::kernels {
using phys::kNumEq;

namespace {
constexpr int kGrad = 3 * kNumEq; ///< gradient components per cell

FV_HOST_DEVICE FV_FORCEINLINE void gather_cell(const real_t* W, const real_t* grad, idx_t n,
                                               idx_t c, real_t* w, real_t* g) {
  for (int k = 0; k < kNumEq; ++k)
    w[k] = W[k * n + c];
  for (int k = 0; k < kGrad; ++k)
    g[k] = grad[k * n + c];
}
} // namespace

void viscous_interior_fluxes(const ZoneView& z, const phys::Transport& t, const real_t* W,
                             const real_t* grad, real_t* flux) {
  const ZoneView v = z;
  const phys::Transport tr = t;
  const idx_t nb = z.nBoundaryFaces;
  forall("viscous_interior_fluxes", z.nFaces - nb, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t f = nb + i;
    const idx_t n = v.nTotalCells;
    real_t WL[kNumEq], WR[kNumEq], gL[kGrad], gR[kGrad], F[kNumEq];
    gather_cell(W, grad, n, v.faceOwner[f], WL, gL);
    gather_cell(W, grad, n, v.faceNeighbour[f], WR, gR);
    const real_t* dL = v.faceOwnerDelta + 3 * f;
    const real_t* dR = v.faceNeighbourDelta + 3 * f;
    const real_t l[3] = {dL[0] - dR[0], dL[1] - dR[1], dL[2] - dR[2]}; // x_R - x_L
    phys::interior_viscous_flux(WL, WR, gL, gR, l, v.faceArea + 3 * f, tr, F);
    for (int k = 0; k < kNumEq; ++k)
      flux[k * v.nFaces + f] -= F[k];
  });
}

void viscous_boundary_fluxes(const ZoneView& z, idx_t begin, idx_t end, const phys::BcParams& bc,
                             const phys::Transport& t, const real_t* W, const real_t* grad,
                             real_t* flux) {
  const ZoneView v = z;
  const phys::BcParams b = bc;
  const phys::Transport tr = t;
  forall("viscous_boundary_fluxes", end - begin, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t f = begin + i;
    real_t Wc[kNumEq], gc[kGrad], F[kNumEq];
    gather_cell(W, grad, v.nTotalCells, v.faceOwner[f], Wc, gc);
    phys::boundary_viscous_flux(Wc, gc, v.faceOwnerDelta + 3 * f, v.faceArea + 3 * f, b, tr, F);
    for (int k = 0; k < kNumEq; ++k)
      flux[k * v.nFaces + f] -= F[k];
  });
}

void wall_viscous_data(const ZoneView& z, idx_t begin, idx_t end, const phys::BcParams& bc,
                       const phys::Transport& t, const real_t* W, const real_t* grad, real_t* out) {
  const ZoneView v = z;
  const phys::BcParams b = bc;
  const phys::Transport tr = t;
  forall("wall_viscous_data", end - begin, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t f = begin + i, nb = v.nBoundaryFaces;
    real_t Wc[kNumEq], gc[kGrad], F[kNumEq];
    gather_cell(W, grad, v.nTotalCells, v.faceOwner[f], Wc, gc);
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

void viscous_time_step(const ZoneView& z, const phys::Transport& t, real_t cfl, const real_t* W,
                       real_t* dt) {
  const ZoneView v = z;
  const phys::Transport tr = t;
  forall("viscous_time_step", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t w[kNumEq];
    for (int k = 0; k < kNumEq; ++k)
      w[k] = W[k * n + c];
    const real_t a = phys::sound_speed(w, tr.gamma);
    const real_t mu = phys::viscosity(tr, phys::temperature(w, tr.gasConstant));
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

} // namespace fv::kernels
