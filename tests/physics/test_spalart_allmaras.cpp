// Point-wise Spalart-Allmaras (SA-neg, NASA TMR): fv1, eddy viscosity, diffusion coefficient,
// vorticity and the source terms against independently computed values, and the analytic
// derivative dQdNu against central finite differences.
//
// Expected values: the literals marked "mpmath" come from tests/physics/sa_reference.py, which
// evaluates the TMR formulas at 50 digits from the doubles used here (its dQdNu is mpmath's
// numerical derivative, independent of the header's chain rule); the others are plain
// expressions in this file or hand arithmetic stated next to them.
#include "runtime/physics/sa/spalart_allmaras.hpp"

#include <gtest/gtest.h>

#include <cmath>

using fv::real_t;
namespace sa = fv::phys::sa;
using C = sa::Constants;

namespace {

constexpr real_t kRho = 1.2, kMu = 1.8e-5; // nu = 1.5e-5 m^2/s
constexpr real_t kGrad[3] = {0.3, -0.4, 1.2};

void expect_rel(real_t actual, real_t expected, real_t rel) {
  EXPECT_NEAR(actual, expected, rel * std::fabs(expected)) << "expected " << expected;
}

/// rho (P - D), the part of Q that dQdNu differentiates.
real_t pd(real_t rho, real_t nu, real_t mu, real_t omega, real_t d) {
  const sa::Source s = sa::source(rho, nu, mu, omega, d, kGrad);
  return s.production - s.destruction;
}

/// Central difference of rho (P - D) with the step h.
real_t central_difference(real_t rho, real_t nu, real_t mu, real_t omega, real_t d, real_t h) {
  return (pd(rho, nu + h, mu, omega, d) - pd(rho, nu - h, mu, omega, d)) / (2.0 * h);
}

/// Which branches the TMR formulas take at nuTilde >= 0 (plain expressions, independent of the
/// header): the S-tilde limiter (Sbar < -cv2 Omega) and the r cap (r >= 10).
struct Branches {
  bool limiter = false, capped = false;
  bool operator==(const Branches& o) const { return limiter == o.limiter && capped == o.capped; }
};
Branches branches(real_t rho, real_t nu, real_t mu, real_t omega, real_t d) {
  const real_t chi = nu * rho / mu;
  const real_t chi3 = chi * chi * chi;
  const real_t fv1 = chi3 / (chi3 + C::cv1 * C::cv1 * C::cv1);
  const real_t fv2 = 1 - chi / (1 + chi * fv1);
  const real_t k2d2 = C::kappa * C::kappa * d * d;
  const real_t sbar = nu * fv2 / k2d2;
  Branches b;
  b.limiter = sbar < -C::cv2 * omega;
  const real_t st = b.limiter ? omega + omega * (C::cv2 * C::cv2 * omega + C::cv3 * sbar) /
                                            ((C::cv3 - 2 * C::cv2) * omega - sbar)
                              : omega + sbar;
  b.capped = !(st > 0) || nu / (st * k2d2) >= 10;
  return b;
}

/// One source point with its mpmath reference values (rho P, rho D, dQdNu).
struct Point {
  const char* name;
  real_t nu, omega, d;
  real_t production, destruction, dQdNu;
  bool limiter, capped; ///< the branches the point must hit (nuTilde >= 0 only)
};

// mpmath (sa_reference.py); rho = 1.2, mu = 1.8e-5, gradNu = (0.3, -0.4, 1.2) everywhere.
const Point kPoints[] = {
    // (a) boundary layer: chi = 33.3, Sbar = 59.5, S-tilde = 1059.5, r = 2.807
    {"boundary_layer", 5e-4, 1e3, 1e-3, 0.086141221468553920676, 1.9484690952065461778,
     -7612.6367649521302655, false, false},
    // (b) limiter: chi = 5, fv2 = -1.18, Sbar = -526.2 < -cv2 Omega = -350, S-tilde = 86.2,
    //     r = 5.18
    {"limiter", 7.5e-5, 500.0, 1e-3, 0.0010512826476276973267, 0.043840530310315361745,
     -1149.323341363411582, true, false},
    // (c) r cap: chi = 33.3, S-tilde = 69.5, r = 42.8 -> 10
    {"r_cap", 5e-4, 10.0, 1e-3, 0.0056542214685539164392, 1.9484690952084613451,
     -7773.6107648305067507, false, true},
    // (b+c) limiter and cap: chi = 5, Sbar = -526.2 < -70, S-tilde = 10.84, r -> 10
    {"limiter_and_cap", 7.5e-5, 100.0, 1e-3, 0.00013219313139909882883, 0.043840530310315361745,
     -1167.248815511949528, true, true},
    // chi = 1: ft2 = 0.728 matters (D < 0), r = 0.0892
    {"ft2", 1.5e-5, 1e3, 1e-3, 0.00066397064234257095498, -0.00010365051911178150642,
     158.04618650268309796, false, false},
    // (d) SA-neg: chi = -2
    {"sa_neg", -3e-5, 1e3, 1e-3, 0.00097559999999999983913, -0.0034981932421177872389,
     -265.7328828078524705, false, false},
};

TEST(SpalartAllmaras, Constants) {
  // cw1 = 0.1355 / 0.1681 + 1.622 * 1.5 = 0.806067816775729 + 2.433 (hand)
  EXPECT_NEAR(C::cw1, 3.239067816775729, 1e-14);
}

TEST(SpalartAllmaras, Fv1) {
  EXPECT_EQ(sa::fv1(0.0), 0.0);
  // mpmath: 2.5^3 / (2.5^3 + 7.1^3) = 15.625 / 373.536
  expect_rel(sa::fv1(2.5), 0.041829970872954687761, 1e-14);
  // chi = cv1: 1/2
  EXPECT_NEAR(sa::fv1(7.1), 0.5, 1e-15);
  const real_t chi = 33.0;
  expect_rel(sa::fv1(chi), chi * chi * chi / (chi * chi * chi + 7.1 * 7.1 * 7.1), 1e-15);
}

TEST(SpalartAllmaras, EddyViscosity) {
  // mpmath: rho nuTilde fv1(chi), chi = 33.33 and 1
  expect_rel(sa::eddy_viscosity(kRho, 5e-4, kMu), 0.00059425733658494968046, 1e-13);
  expect_rel(sa::eddy_viscosity(kRho, 1.5e-5, kMu), 5.0151708919481432699e-8, 1e-13);
  // chi = 1: rho nu fv1(1) = 1.2 * 1.5e-5 / (1 + 7.1^3) (plain)
  expect_rel(sa::eddy_viscosity(kRho, 1.5e-5, kMu), 1.8e-5 / (1.0 + 357.911), 1e-13);
  EXPECT_EQ(sa::eddy_viscosity(kRho, 0.0, kMu), 0.0);
  EXPECT_EQ(sa::eddy_viscosity(kRho, -1e-5, kMu), 0.0);
}

TEST(SpalartAllmaras, DiffusionCoefficient) {
  // nuTilde >= 0: (mu + rho nuTilde) / sigma = 1.5 (1.8e-5 + 6e-4) = 9.27e-4 (hand)
  expect_rel(sa::diffusion_coefficient(kRho, 5e-4, kMu), 9.27e-4, 1e-14);
  expect_rel(sa::diffusion_coefficient(kRho, 0.0, kMu), 1.5 * kMu, 1e-15);
  // chi = -2: fn = (16 - 8) / (16 + 8) = 1/3, mu (1 - 2/3) / sigma = mu / 2 = 9e-6 (hand)
  expect_rel(sa::diffusion_coefficient(kRho, -3e-5, kMu), 9e-6, 1e-13);
  // chi = -2/3: mpmath 9.6545454545454550259e-6 = 1.5 mu (1 - 2/3 (16 - 8/27)/(16 + 8/27))
  expect_rel(sa::diffusion_coefficient(kRho, -1e-5, kMu), 9.6545454545454550259e-6, 1e-13);
}

TEST(SpalartAllmaras, NegativeNuTildeKeepsDiffusionPositiveAndEddyViscosityZero) {
  const real_t nu = kMu / kRho;
  for (int i = 1; i <= 2000; ++i) {
    const real_t chi = -2.0 * i / 2000.0; // down to chi = -2 (cn1 + chi^3 > 0 for chi > -2.52)
    const real_t nt = chi * nu;
    EXPECT_EQ(sa::eddy_viscosity(kRho, nt, kMu), 0.0);
    const real_t k = sa::diffusion_coefficient(kRho, nt, kMu);
    EXPECT_GT(k, 0.0) << "chi " << chi;
    // its smallest value, mu (1 + chi fn) / sigma >= 0.0093 mu / sigma near chi = -1.374
    EXPECT_GT(k, 0.009 * kMu / C::sigma) << "chi " << chi;
  }
}

TEST(SpalartAllmaras, Vorticity) {
  // curl u = (dw/dy - dv/dz, du/dz - dw/dx, dv/dx - du/dy) = (1.75, -4, -6): sqrt(55.0625)
  const real_t g[9] = {1.0, 2.0, 3.0, -4.0, 5.0, 6.5, 7.0, 8.25, -9.0};
  expect_rel(sa::vorticity(g), std::sqrt(1.75 * 1.75 + 4.0 * 4.0 + 6.0 * 6.0), 1e-15);
  expect_rel(sa::vorticity(g), 7.4204110398279150854, 1e-15); // mpmath
  // solid-body rotation u = -W y, v = W x: |curl u| = 2 W
  const real_t rot[9] = {0, -3.0, 0, 3.0, 0, 0, 0, 0, 0};
  EXPECT_DOUBLE_EQ(sa::vorticity(rot), 6.0);
  // a symmetric gradient (pure strain) has no vorticity
  const real_t strain[9] = {1.0, 2.0, 3.0, 2.0, -5.0, 4.0, 3.0, 4.0, 4.0};
  EXPECT_EQ(sa::vorticity(strain), 0.0);
}

TEST(SpalartAllmaras, FreestreamNuTilde) {
  expect_rel(sa::freestream_nu_tilde(kRho, kMu, 3.0), 4.5e-5, 1e-15);
}

TEST(SpalartAllmaras, SourceAgainstReference) {
  for (const Point& p : kPoints) {
    SCOPED_TRACE(p.name);
    if (p.nu >= 0) {
      const Branches b = branches(kRho, p.nu, kMu, p.omega, p.d);
      EXPECT_EQ(b.limiter, p.limiter);
      EXPECT_EQ(b.capped, p.capped);
    }
    const sa::Source s = sa::source(kRho, p.nu, kMu, p.omega, p.d, kGrad);
    expect_rel(s.production, p.production, 1e-12);
    expect_rel(s.destruction, p.destruction, 1e-12);
    // rho cb2 / sigma |grad|^2 = 1.2 * 0.622 * 1.5 * 1.69 (hand: 1.892124)
    expect_rel(s.cross, 1.892124, 1e-14);
    expect_rel(s.total(), s.production - s.destruction + 1.892124, 1e-14);
    expect_rel(s.dQdNu, p.dQdNu, 1e-10); // against mpmath's numerical derivative
  }
}

TEST(SpalartAllmaras, SaNegFormulas) {
  // plain expressions of the SA-neg terms at chi = -2
  const real_t nt = -3e-5, om = 1e3, d = 1e-3;
  const sa::Source s = sa::source(kRho, nt, kMu, om, d, kGrad);
  expect_rel(s.production, kRho * C::cb1 * (1 - C::ct3) * om * nt, 1e-14);
  expect_rel(s.destruction, -kRho * C::cw1 * nt * nt / (d * d), 1e-14);
  expect_rel(s.dQdNu, kRho * (C::cb1 * (1 - C::ct3) * om + 2 * C::cw1 * nt / (d * d)), 1e-14);
}

TEST(SpalartAllmaras, DerivativeAgainstFiniteDifferences) {
  for (const Point& p : kPoints) {
    SCOPED_TRACE(p.name);
    const real_t fd = central_difference(kRho, p.nu, kMu, p.omega, p.d, 1e-6 * std::fabs(p.nu));
    expect_rel(sa::source(kRho, p.nu, kMu, p.omega, p.d, kGrad).dQdNu, fd, 1e-6);
  }
}

TEST(SpalartAllmaras, DerivativeSweep) {
  // chi from -2 to 60, Omega and d over decades; stencils that straddle the r cap (a kink) or
  // the limiter switch (C1, but the stencil mixes branches) are skipped, and must be few.
  const real_t nu = kMu / kRho;
  int checked = 0, skipped = 0, limiter = 0, capped = 0, negative = 0;
  for (int i = -40; i <= 1200; ++i) {
    const real_t chi = 0.05 * i + 0.0123;
    for (real_t om : {1.0, 30.0, 1e3, 3e4})
      for (real_t d : {1e-5, 1e-3, 1e-1}) {
        const real_t nt = chi * nu, h = 1e-6 * std::fabs(nt);
        if (nt > 0) {
          const Branches b = branches(kRho, nt, kMu, om, d);
          if (!(branches(kRho, nt - h, kMu, om, d) == b) ||
              !(branches(kRho, nt + h, kMu, om, d) == b)) {
            ++skipped;
            continue;
          }
          limiter += b.limiter;
          capped += b.capped;
        } else {
          ++negative;
        }
        const sa::Source s = sa::source(kRho, nt, kMu, om, d, kGrad);
        ASSERT_TRUE(std::isfinite(s.production) && std::isfinite(s.destruction) &&
                    std::isfinite(s.dQdNu));
        const real_t fd = central_difference(kRho, nt, kMu, om, d, h);
        // scale of the terms' derivatives, for points where they cancel
        const real_t scale = (std::fabs(s.production) + std::fabs(s.destruction)) / std::fabs(nt);
        EXPECT_NEAR(s.dQdNu, fd, 1e-6 * std::fabs(fd) + 1e-8 * scale)
            << "chi " << chi << " omega " << om << " d " << d;
        ++checked;
      }
  }
  EXPECT_LT(skipped, 10);
  EXPECT_GT(limiter, 100);
  EXPECT_GT(capped, 100);
  EXPECT_GT(negative, 100);
  EXPECT_GT(checked, 14000);
}

TEST(SpalartAllmaras, ContinuousAtZero) {
  // At nuTilde = 0 standard SA and SA-neg share the value 0 and the derivative cb1 (1 - ct3)
  // Omega rho (ft2 = ct3, S-tilde = Omega, destruction quadratic).
  const real_t om = 250.0, d = 2e-3;
  const sa::Source z = sa::source(kRho, 0.0, kMu, om, d, kGrad);
  const sa::Source m = sa::source(kRho, -1e-300, kMu, om, d, kGrad);
  EXPECT_EQ(z.production, 0.0);
  EXPECT_EQ(z.destruction, 0.0);
  const real_t expected = kRho * C::cb1 * (1 - C::ct3) * om;
  expect_rel(z.dQdNu, expected, 1e-12);
  expect_rel(m.dQdNu, expected, 1e-12);
  // no vorticity: S-tilde = 0 (r = 10), finite everywhere
  for (real_t nt : {0.0, 1e-6, 5e-4, -1e-5}) {
    const sa::Source s = sa::source(kRho, nt, kMu, 0.0, d, kGrad);
    EXPECT_TRUE(std::isfinite(s.production) && std::isfinite(s.destruction) &&
                std::isfinite(s.dQdNu))
        << nt;
  }
}

} // namespace
