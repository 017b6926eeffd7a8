#pragma once
/// \file viscous_term.hpp
/// The viscous term of the laminar Navier-Stokes equations (FV_HOST_DEVICE), as the kernels call
/// it: the viscous flux F_v . S of an interior and of a boundary face (face_viscous.hpp), the
/// viscosity of the viscous time step, and the thin-layer Jacobians of the implicit operators
/// (viscous_jacobian.hpp). The RANS model's viscous term (physics/sa/sa_model.hpp) is the same
/// with the eddy viscosity and the transported scalars' diffusion.
#include "runtime/physics/navier_stokes/face_viscous.hpp"
#include "runtime/physics/navier_stokes/viscous_jacobian.hpp"

namespace fv::phys {

/// Viscous stresses and heat conduction of a Newtonian fluid with Stokes' hypothesis, mu by the
/// case's law and k from a constant Prandtl number (Transport).
struct LaminarViscousTerm {
  static constexpr bool kActive = true;

  /// F_v . S of the interior face between cells L and R (states WL, WR, gradients gL, gR of
  /// 3 kNumEq values; l = x_R - x_L; S the area vector L -> R).
  FV_HOST_DEVICE FV_FORCEINLINE static void interior_flux(const real_t* WL, const real_t* WR,
                                                          const real_t* gL, const real_t* gR,
                                                          const real_t* l, const real_t* S,
                                                          const Transport& t, real_t* F) {
    interior_viscous_flux(WL, WR, gL, gR, l, S, t, F);
  }
  /// F_v . S of a boundary face of the cell with state Wc and gradients gc (d = face centroid -
  /// cell centroid, S outward, b the patch's condition).
  FV_HOST_DEVICE FV_FORCEINLINE static void boundary_flux(const real_t* Wc, const real_t* gc,
                                                          const real_t* d, const real_t* S,
                                                          const BcParams& b, const Transport& t,
                                                          real_t* F) {
    boundary_viscous_flux(Wc, gc, d, S, b, t, F);
  }
  /// The viscosity of the viscous time step of a cell with primitive state w.
  FV_HOST_DEVICE FV_FORCEINLINE static real_t viscosity(const Transport& t, const real_t* w) {
    return viscosity_of(t, w);
  }
  /// The eddy viscosity of a cell that its faces' Jacobians share: none.
  FV_HOST_DEVICE FV_FORCEINLINE static real_t eddy_viscosity(const Transport&, const real_t*) {
    return 0.0;
  }
  /// Thin-layer Jacobians of an interior face (area vector S; dc, dj: face centroid - cell and
  /// neighbour centroid) into the mean flow's blocks Mc (the cell's) and O (the neighbour's);
  /// muT: the cell's eddy_viscosity().
  FV_HOST_DEVICE FV_FORCEINLINE static void
  add_interior_jacobians(const real_t* Wc, const real_t* Wj, const real_t* S, const real_t* dc,
                         const real_t* dj, const Transport& t, real_t, real_t* Mc, real_t* O) {
    add_interior_viscous_jacobians(Wc, Wj, S, dc, dj, t, 0.0, Mc, O);
  }
  /// Thin-layer Jacobian of a boundary face (a no-slip wall's; none for other faces) into the
  /// mean flow's block M of its cell.
  FV_HOST_DEVICE FV_FORCEINLINE static void add_boundary_jacobian(const real_t* Wc, const real_t* S,
                                                                  const real_t* d,
                                                                  const BcParams& b,
                                                                  const Transport& t, real_t* M) {
    add_wall_viscous_jacobian(Wc, S, d, b, t, M);
  }
};

/// Number of values of wall_values().
inline constexpr int kWallValues = 5;

/// What the forces and the surface output read of a boundary face (S outward, d = face centroid
/// - cell centroid) of a cell with the mean flow's state Wc and gradients gc, from its laminar
/// viscous flux (the eddy viscosity vanishes at walls): the viscous force the fluid exerts on
/// the face, -tau . S (3 values, N), the heat flux from the wall into the fluid -k dT/dn
/// (W/m^2; 0 but on no-slip walls) and y+ of the cell (rho u_tau dn / mu, u_tau = sqrt(|tau_w|
/// / rho)).
FV_HOST_DEVICE inline void wall_values(const real_t* Wc, const real_t* gc, const real_t* d,
                                       const real_t* S, const BcParams& b, const Transport& t,
                                       real_t* out) {
  real_t F[kNumEq];
  boundary_viscous_flux(Wc, gc, d, S, b, t, F);
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  // force on the wall: -tau . S (S points out of the fluid); heat flux into the fluid
  real_t tau2 = 0.0, work = 0.0;
  for (int k = 0; k < 3; ++k) {
    out[k] = -F[kMomentum + k];
    tau2 += F[kMomentum + k] * F[kMomentum + k];
    work += b.wallVelocity[k] * F[kMomentum + k];
  }
  out[3] = bc_traits(b.type).face == BcFace::NoSlip ? (F[kEnergy] - work) / area : 0.0;
  const real_t dn = std::fabs(d[0] * S[0] + d[1] * S[1] + d[2] * S[2]) / area;
  const real_t mu = viscosity(t, temperature(Wc, t.gasConstant));
  out[4] = std::sqrt(Wc[kDensity] * std::sqrt(tau2) / area) * dn / mu;
}

} // namespace fv::phys
