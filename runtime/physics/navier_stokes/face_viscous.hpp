#pragma once
/// \file face_viscous.hpp
/// The viscous flux of one face of the cell-centred scheme (FV_HOST_DEVICE), from the
/// primitive states W = (rho, u, v, w, p) and the cell gradients of the primitives either side
/// (3 kNumEq reals per cell: g[3 k + d] = d W_k / d x_d, the node-averaged Green-Gauss gradients
/// the reconstruction uses, unlimited). Returns F_v . S (viscous_flux.hpp), to be subtracted from
/// the convective flux of the face.
#include "runtime/physics/boundary_conditions.hpp"
#include "runtime/physics/navier_stokes/viscous_flux.hpp"

namespace fv::phys {

/// Interior face between cells L and R: face gradients of u, v, w and T by face_gradient
/// along l = x_R - x_L, face values the averages of the two cells, mu and k at the face
/// temperature; muT: the face's eddy viscosity (RANS; 0 laminar), added to mu, and its
/// conductivity to k.
FV_HOST_DEVICE inline void interior_viscous_flux(const real_t* WL, const real_t* WR,
                                                 const real_t* gL, const real_t* gR,
                                                 const real_t* l, const real_t* S,
                                                 const Transport& t, real_t* F, real_t muT = 0.0) {
  const real_t R = t.gasConstant;
  real_t tL[3], tR[3], G[9], gT[3], u[3];
  temperature_gradient(WL, gL + 3 * kDensity, gL + 3 * kPressure, R, tL);
  temperature_gradient(WR, gR + 3 * kDensity, gR + 3 * kPressure, R, tR);
  const real_t TL = temperature(WL, R), TR = temperature(WR, R);
  for (int i = 0; i < 3; ++i) {
    const int k = kVelocity + i;
    face_gradient(gL + 3 * k, gR + 3 * k, WL[k], WR[k], l, G + 3 * i);
    u[i] = 0.5 * (WL[k] + WR[k]);
  }
  face_gradient(tL, tR, TL, TR, l, gT);
  const real_t mu = viscosity(t, 0.5 * (TL + TR));
  if (muT > 0.0)
    viscous_flux(u, G, gT, mu + muT, conductivity(t, mu) + turbulent_conductivity(t, muT), S, F);
  else
    viscous_flux(u, G, gT, mu, conductivity(t, mu), S, F);
}

/// Boundary face of cell c (state Wc, gradients gc) with d = face centroid - cell centroid, by
/// the viscous face of its boundary type (BcTraits::face):
/// - no-slip wall: the fluid has the wall's velocity at the face; the face gradients of u, v,
///   w (and of T when isothermal) come from face_gradient between the cell and the wall value
///   at the face centroid; adiabatic: no heat flux; mu at the wall (isothermal) or cell
///   temperature;
/// - slip wall and symmetry: no shear and no heat flux through the plane, only the normal
///   viscous stress of the cell's gradients;
/// - far field, inflow, outflow: the cell's gradients, the face values averaged between the
///   cell and the ghost state.
/// muT: the cell's eddy viscosity (RANS; 0 laminar), used but at no-slip walls (where it
/// vanishes).
FV_HOST_DEVICE inline void boundary_viscous_flux(const real_t* Wc, const real_t* gc,
                                                 const real_t* d, const real_t* S,
                                                 const BcParams& b, const Transport& t, real_t* F,
                                                 real_t muT = 0.0) {
  const real_t R = t.gasConstant;
  real_t tc[3], G[9], gT[3];
  temperature_gradient(Wc, gc + 3 * kDensity, gc + 3 * kPressure, R, tc);
  const real_t Tc = temperature(Wc, R);
  const BcFace face = bc_traits(b.type).face;
  if (face == BcFace::NoSlip) {
    for (int i = 0; i < 3; ++i) {
      const int k = kVelocity + i;
      face_gradient(gc + 3 * k, gc + 3 * k, Wc[k], b.wallVelocity[i], d, G + 3 * i);
    }
    const bool isothermal = b.wallTemperature > 0.0;
    real_t mu, k = 0.0;
    if (isothermal) {
      face_gradient(tc, tc, Tc, b.wallTemperature, d, gT);
      mu = viscosity(t, b.wallTemperature);
      k = conductivity(t, mu);
    } else {
      gT[0] = gT[1] = gT[2] = 0.0;
      mu = viscosity(t, Tc);
    }
    viscous_flux(b.wallVelocity, G, gT, mu, k, S, F);
    return;
  }
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t n[3] = {S[0] / area, S[1] / area, S[2] / area};
  real_t Wg[kNumEq], u[3];
  for (int k = 0; k < kNumEq; ++k)
    Wg[k] = Wc[k];
  ghost_state(Wc, n, b, Wg);
  for (int i = 0; i < 3; ++i) {
    u[i] = 0.5 * (Wc[kVelocity + i] + Wg[kVelocity + i]);
    for (int j = 0; j < 3; ++j)
      G[3 * i + j] = gc[3 * (kVelocity + i) + j];
  }
  const real_t mu = viscosity(t, 0.5 * (Tc + temperature(Wg, R)));
  if (muT > 0.0)
    viscous_flux(u, G, tc, mu + muT, conductivity(t, mu) + turbulent_conductivity(t, muT), S, F);
  else
    viscous_flux(u, G, tc, mu, conductivity(t, mu), S, F);
  if (face == BcFace::Plane) {
    const real_t fn = F[kMomentum] * n[0] + F[kMomentum + 1] * n[1] + F[kMomentum + 2] * n[2];
    for (int i = 0; i < 3; ++i)
      F[kMomentum + i] = fn * n[i];
    F[kEnergy] = 0.0;
  }
}

} // namespace fv::phys
