#pragma once
/// \file spalart_allmaras.hpp
/// Point-wise Spalart-Allmaras one-equation turbulence model (FV_HOST_DEVICE), the "SA-neg"
/// variant of the NASA Turbulence Modeling Resource (TMR, https://turbmodels.larc.nasa.gov/
/// spalart.html): standard SA with the ft2 term, S-tilde limited with cv2 = 0.7 and cv3 = 0.9,
/// r capped at 10, and the SA-neg production, destruction and diffusion for nuTilde < 0.
///
/// Conservative (compressible, TMR) form of the nuTilde equation:
///   d(rho nuTilde)/dt + div(rho u nuTilde)
///     = div((mu + rho nuTilde fn) / sigma grad nuTilde) + Q,
///   Q = rho (P - D) + rho cb2 / sigma |grad nuTilde|^2,
/// (the TMR's compressible form also has -(nu + nuTilde) / sigma grad rho . grad nuTilde, left
/// out here: O(M^2) in its validation cases),
/// with, for nuTilde >= 0 (chi = nuTilde / nu, nu = mu / rho):
///   fv1 = chi^3 / (chi^3 + cv1^3),  fv2 = 1 - chi / (1 + chi fv1),
///   Sbar = nuTilde fv2 / (kappa^2 d^2),
///   S-tilde = Omega + Sbar                                             if Sbar >= -cv2 Omega,
///           = Omega + Omega (cv2^2 Omega + cv3 Sbar) / ((cv3 - 2 cv2) Omega - Sbar) otherwise,
///   r = min(nuTilde / (S-tilde kappa^2 d^2), 10),  g = r + cw2 (r^6 - r),
///   fw = g ((1 + cw3^6) / (g^6 + cw3^6))^(1/6),  ft2 = ct3 exp(-ct4 chi^2),
///   P = cb1 (1 - ft2) S-tilde nuTilde,  D = (cw1 fw - cb1 / kappa^2 ft2) (nuTilde / d)^2,
/// and for nuTilde < 0 (SA-neg): P = cb1 (1 - ct3) Omega nuTilde, D = -cw1 (nuTilde / d)^2,
/// fn = (cn1 + chi^3) / (cn1 - chi^3) (fn = 1 for nuTilde >= 0). The eddy viscosity is
/// mu_t = rho nuTilde fv1 for nuTilde >= 0 and 0 otherwise.
///
/// Units: SI as documented per function (nuTilde in m^2/s, Omega in 1/s, d in m, mu in Pa s),
/// or any consistent non-dimensional set. The transcendental functions are those of
/// portable_math.hpp, so that the CPU and the GPU agree bitwise.
#include "common/types.hpp"
#include "runtime/physics/portable_math.hpp"

#include <cmath>

namespace fv::phys::sa {

/// Model constants (TMR "standard SA", SA-neg and the S-tilde limiter); all dimensionless.
struct Constants {
  static constexpr real_t cb1 = 0.1355, sigma = 2.0 / 3.0, cb2 = 0.622, kappa = 0.41, cw2 = 0.3,
                          cw3 = 2.0, cv1 = 7.1, ct3 = 1.2, ct4 = 0.5, cn1 = 16.0, cv2 = 0.7,
                          cv3 = 0.9;
  static constexpr real_t cw1 = cb1 / (kappa * kappa) + (1.0 + cb2) / sigma;
};

/// Upper bound of r = nuTilde / (S-tilde kappa^2 d^2) (dimensionless).
inline constexpr real_t kRMax = 10.0;

/// fv1(chi) = chi^3/(chi^3+cv1^3) (dimensionless; chi = nuTilde / nu).
FV_HOST_DEVICE FV_FORCEINLINE real_t fv1(real_t chi) {
  const real_t chi3 = chi * chi * chi;
  constexpr real_t cv13 = Constants::cv1 * Constants::cv1 * Constants::cv1;
  return chi3 / (chi3 + cv13);
}

/// Eddy viscosity mu_t = rho nuTilde fv1(nuTilde/nu), nu = mu/rho; 0 when nuTilde <= 0
/// (SA-neg). rho: kg/m^3, nuTilde: m^2/s, mu: Pa s; returns Pa s.
FV_HOST_DEVICE FV_FORCEINLINE real_t eddy_viscosity(real_t rho, real_t nuTilde, real_t mu) {
  if (nuTilde <= 0.0) return 0.0;
  return rho * nuTilde * fv1(rho * nuTilde / mu);
}

/// Diffusion coefficient of the nuTilde equation in conservative form (TMR compressible form):
/// (mu + rho nuTilde fn)/sigma, fn = 1 for nuTilde >= 0, (cn1 + chi^3)/(cn1 - chi^3) for
/// nuTilde < 0. rho: kg/m^3, nuTilde: m^2/s, mu: Pa s; returns Pa s. Positive for every
/// nuTilde: it is mu (1 + chi fn) / sigma, and 1 + chi fn >= 0.0093 for chi < 0 (its minimum,
/// near chi = -1.374; cn1 - chi^3 > 0, and fn < 0 once chi < -cn1^(1/3) = -2.52).
FV_HOST_DEVICE FV_FORCEINLINE real_t diffusion_coefficient(real_t rho, real_t nuTilde, real_t mu) {
  real_t fn = 1.0;
  if (nuTilde < 0.0) {
    const real_t chi = rho * nuTilde / mu;
    const real_t chi3 = chi * chi * chi;
    fn = (Constants::cn1 + chi3) / (Constants::cn1 - chi3);
  }
  return (mu + rho * nuTilde * fn) / Constants::sigma;
}

/// Magnitude of the vorticity |curl u| (1/s) from the velocity gradient (1/s), row-major
/// gradU[3*i+j] = du_i/dx_j.
FV_HOST_DEVICE FV_FORCEINLINE real_t vorticity(const real_t* gradU) {
  const real_t wx = gradU[7] - gradU[5]; // dw/dy - dv/dz
  const real_t wy = gradU[2] - gradU[6]; // du/dz - dw/dx
  const real_t wz = gradU[3] - gradU[1]; // dv/dx - du/dy
  return std::sqrt(wx * wx + wy * wy + wz * wz);
}

/// Source of the conservative equation d(rho nuTilde)/dt + ... = Q, per unit volume
/// (kg/(m s^2)): Q = rho (P - D) + rho cb2/sigma |grad nuTilde|^2, with P, D the production and
/// destruction of standard SA (ft2 included) for nuTilde >= 0 and of SA-neg for nuTilde < 0.
struct Source {
  /// rho P, rho D and rho cb2/sigma |grad nuTilde|^2, per unit volume, kg/(m s^2)
  real_t production = 0, destruction = 0, cross = 0;
  real_t dQdNu = 0; ///< d(rho P - rho D)/d nuTilde, kg/(m^3 s)
  FV_HOST_DEVICE real_t total() const { return production - destruction + cross; }
};

/// Source terms of one point (see Source). rho: kg/m^3; nuTilde: m^2/s; mu: Pa s; omega: the
/// vorticity magnitude, 1/s (>= 0); d: wall distance, m (> 0); gradNu: grad nuTilde (3), m/s.
/// dQdNu is the exact derivative of rho (P - D) with respect to nuTilde at fixed rho, mu,
/// omega, d: through chi, fv1, fv2, Sbar, S-tilde (either branch of its limiter), r (dr = 0
/// where capped), g, fw and ft2. The limiter is C1 at its switch Sbar = -cv2 Omega (both
/// branches give S-tilde = (1 - cv2) Omega and dS-tilde/dSbar = 1); the cap r = 10 is a kink,
/// where this is the derivative of the capped side. At nuTilde = 0 standard SA and SA-neg have
/// the same value 0 and derivative cb1 (1 - ct3) Omega rho.
FV_HOST_DEVICE inline Source source(real_t rho, real_t nuTilde, real_t mu, real_t omega, real_t d,
                                    const real_t* gradNu) {
  using C = Constants;
  constexpr real_t kappa2 = C::kappa * C::kappa;
  Source s;
  s.cross = rho * C::cb2 / C::sigma *
            (gradNu[0] * gradNu[0] + gradNu[1] * gradNu[1] + gradNu[2] * gradNu[2]);
  const real_t invD2 = 1.0 / (d * d);

  if (nuTilde < 0.0) { // SA-neg
    const real_t pc = C::cb1 * (1.0 - C::ct3) * omega;
    s.production = rho * pc * nuTilde;
    s.destruction = -rho * C::cw1 * nuTilde * nuTilde * invD2;
    s.dQdNu = rho * (pc + 2.0 * C::cw1 * nuTilde * invD2);
    return s;
  }

  const real_t nu = mu / rho;
  const real_t chi = nuTilde / nu;
  const real_t chi2 = chi * chi, chi3 = chi2 * chi;
  constexpr real_t cv13 = C::cv1 * C::cv1 * C::cv1;
  // fv1, fv2 and their derivatives with respect to chi
  const real_t den1 = chi3 + cv13;
  const real_t f1 = chi3 / den1;
  const real_t df1 = 3.0 * chi2 * cv13 / (den1 * den1);
  const real_t q = 1.0 + chi * f1;
  const real_t f2 = 1.0 - chi / q;
  const real_t df2 = -(1.0 - chi2 * df1) / (q * q);
  // Sbar = nuTilde fv2 / (kappa^2 d^2); d Sbar / d nuTilde = (fv2 + chi dfv2/dchi) / (kappa^2 d^2)
  const real_t kd2 = kappa2 * d * d;
  const real_t sbar = nuTilde * f2 / kd2;
  const real_t dSbar = (f2 + chi * df2) / kd2;
  // S-tilde with the TMR limiter (cv2, cv3)
  real_t st = 0.0, dSt = 0.0;
  if (sbar >= -C::cv2 * omega) {
    st = omega + sbar;
    dSt = dSbar;
  } else {
    const real_t m = (C::cv3 - 2.0 * C::cv2) * omega - sbar; // > 0.2 omega in this branch
    st = omega + omega * (C::cv2 * C::cv2 * omega + C::cv3 * sbar) / m;
    // d/dSbar [omega N / m] = omega (cv3 m + N) / m^2 = omega^2 (cv3 - cv2)^2 / m^2
    const real_t c = (C::cv3 - C::cv2) * omega / m;
    dSt = c * c * dSbar;
  }
  // r, capped at 10 (and 10 where S-tilde vanishes: omega = 0)
  real_t r = kRMax, dr = 0.0;
  if (st > 0.0) {
    const real_t rr = nuTilde / (st * kd2);
    if (rr < kRMax) {
      r = rr;
      // dr/dnu = 1/(st kd2) - nu dst/dnu / (st^2 kd2)
      dr = (1.0 - nuTilde * dSt / st) / (st * kd2);
    }
  }
  const real_t r5 = r * r * r * r * r;
  const real_t g = r + C::cw2 * (r5 * r - r);
  const real_t dg = 1.0 + C::cw2 * (6.0 * r5 - 1.0);
  constexpr real_t cw32 = C::cw3 * C::cw3, cw36 = cw32 * cw32 * cw32;
  const real_t g2 = g * g, g6 = g2 * g2 * g2;
  const real_t cfw = portable_pow((1.0 + cw36) / (g6 + cw36), 1.0 / 6.0);
  const real_t fw = g * cfw;
  const real_t dfw = cfw * cw36 / (g6 + cw36) * dg * dr; // dfw/dg = fw/g cw3^6/(g^6 + cw3^6)
  // ft2 and its derivative with respect to nuTilde
  const real_t ft2 = C::ct3 * portable_exp(-C::ct4 * chi2);
  const real_t dft2 = -2.0 * C::ct4 * chi * ft2 / nu;

  const real_t p = C::cb1 * (1.0 - ft2) * st * nuTilde;
  const real_t dp = C::cb1 * ((1.0 - ft2) * (dSt * nuTilde + st) - dft2 * st * nuTilde);
  const real_t a = C::cw1 * fw - C::cb1 / kappa2 * ft2;
  const real_t da = C::cw1 * dfw - C::cb1 / kappa2 * dft2;
  const real_t n2 = nuTilde * nuTilde * invD2;
  const real_t dest = a * n2;
  const real_t ddest = da * n2 + 2.0 * a * nuTilde * invD2;

  s.production = rho * p;
  s.destruction = rho * dest;
  s.dQdNu = rho * (dp - ddest);
  return s;
}

/// Free-stream nuTilde (m^2/s) for a ratio nuTilde/nu (TMR: 3): ratio * mu / rho. rho: kg/m^3,
/// mu: Pa s.
FV_HOST_DEVICE FV_FORCEINLINE real_t freestream_nu_tilde(real_t rho, real_t mu, real_t ratio) {
  return ratio * mu / rho;
}

} // namespace fv::phys::sa
