#pragma once
/// \file viscous_jacobian.hpp
/// Thin-layer approximation of the viscous flux Jacobian for the implicit operators
/// (FV_HOST_DEVICE): only the normal derivatives, as two-point differences across the face,
///   F_v . S ~ (0, a (du + (du . n) n / 3), a u . (du + (du . n) n / 3) + b dT),
///   a = mu |S| / dn,  b = k |S| / dn,
/// with du, dT the jumps of velocity and temperature across the face (neighbour - cell) and dn
/// the distance of the two points along the unit normal n. The Newton preconditioner and
/// LU-SGS add d(-F_v)/dU_c = a J(W_c) to the cell's diagonal block and d(-F_v)/dU_j =
/// -a J(W_j) to the off-diagonal block (Blazek, section 6.2.3; the same operator FUN3D's and
/// SU2's preconditioners use), so that viscous cases keep the inviscid convergence rate.
#include "runtime/physics/boundary_conditions.hpp"
#include "runtime/physics/navier_stokes/transport.hpp"

namespace fv::phys {

/// Adds to M (kNumEq x kNumEq row-major, rows = equations, columns = conservative variables) the
/// matrix s * d(a (0, u + (u . n) n / 3, |u|^2 + (u . n)^2 / 3) + b (0, 0, 0, 0, T)) / dU at the
/// primitive state W (the thin-layer viscous flux's dependence on one side's state; the
/// viscous work is linearised about that side's velocity). gasConstant, gamma of the gas.
FV_HOST_DEVICE inline void add_thin_layer_jacobian(const real_t* W, const real_t* n, real_t a,
                                                   real_t b, real_t gamma, real_t gasConstant,
                                                   real_t s, real_t* M) {
  constexpr int E = kNumEq; // row stride
  const real_t rho = W[kDensity], inv = 1.0 / rho;
  const real_t u[3] = {W[kVelocity], W[kVelocity + 1], W[kVelocity + 2]};
  const real_t un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
  // velocity rows: a (du_i + n_i (du . n) / 3); du_i / dU = (-u_i, e_i, 0) / rho
  for (int i = 0; i < 3; ++i) {
    const real_t wi = u[i] + n[i] * un / 3.0; // d/d(rho) row factor
    real_t* row = M + E * (kMomentum + i);
    row[kDensity] += s * a * (-wi * inv);
    for (int j = 0; j < 3; ++j)
      row[kMomentum + j] += s * a * ((i == j ? 1.0 : 0.0) + n[i] * n[j] / 3.0) * inv;
  }
  // energy row: viscous work a (u . du + (u . n)(du . n) / 3) and conduction b dT, with
  // dT / dU = (gamma - 1) / (R rho) (|u|^2 / 2 - e, -u, 1) and e = R T / (gamma - 1)
  real_t* energy = M + E * kEnergy;
  const real_t q2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  const real_t T = W[kPressure] / (rho * gasConstant);
  const real_t cT = (gamma - 1.0) / (gasConstant * rho);
  energy[kDensity] += s * (a * (-(q2 + un * un / 3.0) * inv) + b * (cT * 0.5 * q2 - T * inv));
  for (int j = 0; j < 3; ++j)
    energy[kMomentum + j] += s * (a * (u[j] + un * n[j] / 3.0) * inv - b * cT * u[j]);
  energy[kEnergy] += s * b * cT;
}

/// Thin-layer viscous Jacobians of an interior face of area vector S (either orientation)
/// between a cell with state Wc and its neighbour with state Wj, dc and dj the offsets of the
/// face centroid from their centroids: the cell's part into Mc, the neighbour's into O
/// (kBlockSize each); muT the face's eddy viscosity (RANS; 0 laminar), added to mu and its
/// conductivity to k.
FV_HOST_DEVICE inline void add_interior_viscous_jacobians(const real_t* Wc, const real_t* Wj,
                                                          const real_t* S, const real_t* dc,
                                                          const real_t* dj, const Transport& t,
                                                          real_t muT, real_t* Mc, real_t* O) {
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
  const real_t dn =
      std::fabs((dc[0] - dj[0]) * nrm[0] + (dc[1] - dj[1]) * nrm[1] + (dc[2] - dj[2]) * nrm[2]);
  const real_t T = 0.5 * (temperature(Wc, t.gasConstant) + temperature(Wj, t.gasConstant));
  const real_t mu = viscosity(t, T);
  real_t a = mu * area / dn, b = conductivity(t, mu) * area / dn;
  if (muT > 0.0) {
    a = (mu + muT) * area / dn;
    b = (conductivity(t, mu) + turbulent_conductivity(t, muT)) * area / dn;
  }
  add_thin_layer_jacobian(Wc, nrm, a, b, t.gamma, t.gasConstant, 1.0, Mc);
  add_thin_layer_jacobian(Wj, nrm, a, b, t.gamma, t.gasConstant, -1.0, O);
}

/// Thin-layer viscous Jacobian of a boundary face of area vector S (outward) of a cell with
/// state Wc, d = face centroid - cell centroid, into the cell's block M (kBlockSize): a no-slip
/// wall's (the wall's velocity at the face; mu at the wall's temperature when isothermal, with
/// its heat conduction); none for the other faces (BcTraits::face).
FV_HOST_DEVICE inline void add_wall_viscous_jacobian(const real_t* Wc, const real_t* S,
                                                     const real_t* d, const BcParams& b,
                                                     const Transport& t, real_t* M) {
  if (bc_traits(b.type).face != BcFace::NoSlip) return;
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
  const real_t dn = std::fabs(d[0] * nrm[0] + d[1] * nrm[1] + d[2] * nrm[2]);
  const bool isothermal = b.wallTemperature > 0.0;
  const real_t mu = viscosity(t, isothermal ? b.wallTemperature : temperature(Wc, t.gasConstant));
  const real_t k = isothermal ? conductivity(t, mu) : 0.0;
  add_thin_layer_jacobian(Wc, nrm, mu * area / dn, k * area / dn, t.gamma, t.gasConstant, 1.0, M);
}

} // namespace fv::phys
