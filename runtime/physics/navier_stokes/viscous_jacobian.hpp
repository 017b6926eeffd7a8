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
#include "runtime/physics/navier_stokes/transport.hpp"

namespace fv::phys {

/// Adds to M (5x5 row-major, rows = equations, columns = conservative variables) the matrix
/// s * d(a (0, u + (u . n) n / 3, |u|^2 + (u . n)^2 / 3) + b (0, 0, 0, 0, T)) / dU at the
/// primitive state W (the thin-layer viscous flux's dependence on one side's state; the
/// viscous work is linearised about that side's velocity). gasConstant, gamma of the gas.
FV_HOST_DEVICE inline void add_thin_layer_jacobian(const real_t* W, const real_t* n, real_t a,
                                                   real_t b, real_t gamma, real_t gasConstant,
                                                   real_t s, real_t* M) {
  const real_t rho = W[0], inv = 1.0 / rho;
  const real_t u[3] = {W[1], W[2], W[3]};
  const real_t un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
  // velocity rows: a (du_i + n_i (du . n) / 3); du_i / dU = (-u_i, e_i, 0) / rho
  for (int i = 0; i < 3; ++i) {
    const real_t wi = u[i] + n[i] * un / 3.0; // d/d(rho) row factor
    M[5 * (1 + i)] += s * a * (-wi * inv);
    for (int j = 0; j < 3; ++j)
      M[5 * (1 + i) + 1 + j] += s * a * ((i == j ? 1.0 : 0.0) + n[i] * n[j] / 3.0) * inv;
  }
  // energy row: viscous work a (u . du + (u . n)(du . n) / 3) and conduction b dT, with
  // dT / dU = (gamma - 1) / (R rho) (|u|^2 / 2 - e, -u, 1) and e = R T / (gamma - 1)
  const real_t q2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  const real_t T = W[4] / (rho * gasConstant);
  const real_t cT = (gamma - 1.0) / (gasConstant * rho);
  M[20] += s * (a * (-(q2 + un * un / 3.0) * inv) + b * (cT * 0.5 * q2 - T * inv));
  for (int j = 0; j < 3; ++j)
    M[21 + j] += s * (a * (u[j] + un * n[j] / 3.0) * inv - b * cT * u[j]);
  M[24] += s * b * cT;
}

} // namespace fv::phys
