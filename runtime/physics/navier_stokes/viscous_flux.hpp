#pragma once
/// \file viscous_flux.hpp
/// Point-wise viscous numerics of the Navier-Stokes model (FV_HOST_DEVICE): the face gradient
/// of a cell-centred scheme, the viscous flux through a face and the viscous spectral radius
/// of the time step. The residual of a cell is sum_faces (F_c - F_v) . S, so these return F_v . S
/// (viscous stresses and heat conduction act against the convective sign convention).
///
/// Face gradients (Blazek, Computational Fluid Dynamics, 3rd ed., section 5.4; Haselbacher &
/// Blazek AIAA J. 38 (2000); SU2's and FUN3D's "edge-normal"/"directional-derivative" correction):
///   grad q_f = gbar + ((q_R - q_L) / |l| - gbar . t) t,  gbar = (grad q_L + grad q_R) / 2,
/// with l = x_R - x_L the cell-centre line and t = l / |l|. The correction replaces the
/// component along t of the averaged gradient by the two-point difference, which couples the
/// neighbours directly (no odd-even decoupling) and keeps the gradient accurate on stretched
/// boundary-layer cells whatever the cell gradients' quality. Exact for linear fields. At a
/// wall, R is the face centroid with the wall value and grad q_R = grad q_L.
#include "runtime/physics/navier_stokes/transport.hpp"

namespace fv::phys {

/// Face gradient of one scalar (3 reals) from the two cell gradients gL, gR (3 reals each), the
/// two values qL, qR and the cell-centre line l = x_R - x_L (3 reals, non-zero).
FV_HOST_DEVICE FV_FORCEINLINE void face_gradient(const real_t* gL, const real_t* gR, real_t qL,
                                                 real_t qR, const real_t* l, real_t* g) {
  const real_t len2 = l[0] * l[0] + l[1] * l[1] + l[2] * l[2];
  real_t gbarL = 0.0;
  for (int d = 0; d < 3; ++d) {
    g[d] = 0.5 * (gL[d] + gR[d]);
    gbarL += g[d] * l[d];
  }
  // ((qR - qL)/|l| - gbar.t) t = ((qR - qL) - gbar.l) l / |l|^2
  const real_t c = (qR - qL - gbarL) / len2;
  for (int d = 0; d < 3; ++d)
    g[d] += c * l[d];
}

/// Viscous flux through the area vector S (|S| = face area), F_v . S, for a Newtonian fluid
/// with Stokes' hypothesis: tau = mu (G + G^T) - 2/3 mu (div u) I with G_ij = du_i/dx_j,
/// q = -k grad T. u: face velocity (3); gradU: face velocity gradient, row i = grad u_i (9,
/// row-major); gradT: face temperature gradient (3); mu, k: viscosity and conductivity at the
/// face. F = (0, tau . S, u . tau . S + k grad T . S).
FV_HOST_DEVICE FV_FORCEINLINE void viscous_flux(const real_t* u, const real_t* gradU,
                                                const real_t* gradT, real_t mu, real_t k,
                                                const real_t* S, real_t* F) {
  const real_t div = gradU[0] + gradU[4] + gradU[8];
  real_t tauS[3];
  for (int i = 0; i < 3; ++i) {
    real_t t = 0.0;
    for (int j = 0; j < 3; ++j)
      t += (gradU[3 * i + j] + gradU[3 * j + i]) * S[j];
    tauS[i] = mu * (t - (2.0 / 3.0) * div * S[i]);
  }
  F[kDensity] = 0.0;
  F[kMomentum] = tauS[0];
  F[kMomentum + 1] = tauS[1];
  F[kMomentum + 2] = tauS[2];
  F[kEnergy] = u[0] * tauS[0] + u[1] * tauS[1] + u[2] * tauS[2] +
               k * (gradT[0] * S[0] + gradT[1] * S[1] + gradT[2] * S[2]);
}

/// Viscous spectral radius of one face for the local time step (Blazek eq. 6.22):
/// max(4 / (3 rho), gamma / rho) mu / Pr |S|^2 / V, with V the cell volume. The cell's time step
/// is then CFL V / (sum_faces Lambda_c + C sum_faces Lambda_v), C = 4 for cell-centred schemes.
FV_HOST_DEVICE FV_FORCEINLINE real_t viscous_spectral_radius(real_t rho, real_t mu,
                                                             const Transport& t, real_t area2,
                                                             real_t volume) {
  const real_t a = 4.0 / (3.0 * rho), b = t.gamma / rho;
  return (a > b ? a : b) * mu / t.prandtl * area2 / volume;
}

/// Viscous spectral radius of a face between two points a distance dn apart along its normal
/// (|S| = area): max(4 / (3 rho), gamma / rho) mu / Pr |S| / dn, m^3/s (the implicit operators'
/// scalar viscous coefficient).
FV_HOST_DEVICE FV_FORCEINLINE real_t viscous_face_radius(real_t rho, real_t mu, const Transport& t,
                                                         real_t area, real_t dn) {
  const real_t a = 4.0 / (3.0 * rho), b = t.gamma / rho;
  return (a > b ? a : b) * mu / t.prandtl * area / dn;
}

/// The factor C of the viscous spectral radius in the cell-centred time step.
inline constexpr real_t kViscousTimeStepFactor = 4.0;

} // namespace fv::phys
