// Point-wise viscous physics of the Navier-Stokes model: transport properties, the face
// gradient with its directional correction, the viscous flux against analytic fields (linear
// velocity, Couette, quadratic temperature) and its frame invariance, the time-step radius.
#include "runtime/physics/navier_stokes/viscous_flux.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>

using fv::real_t;
namespace phys = fv::phys;

namespace {

using Vec = std::array<real_t, 3>;
using Mat = std::array<real_t, 9>;

Mat random_matrix(std::mt19937& rng) {
  std::uniform_real_distribution<real_t> d(-1.0, 1.0);
  Mat m;
  for (auto& x : m)
    x = d(rng);
  return m;
}
Vec random_vec(std::mt19937& rng) {
  std::uniform_real_distribution<real_t> d(-1.0, 1.0);
  return {d(rng), d(rng), d(rng)};
}
real_t dot(const Vec& a, const Vec& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

TEST(ViscousPhysics, SutherlandAndConstantViscosity) {
  phys::Transport t; // air: 1.716e-5 Pa s at 273.15 K, S = 110.4 K
  EXPECT_DOUBLE_EQ(phys::viscosity(t, t.tRef), t.muRef);
  // air at 300 K: 1.846e-5 Pa s (White, Viscous Fluid Flow, table 1-2)
  EXPECT_NEAR(phys::viscosity(t, 300.0), 1.846e-5, 0.002e-5);
  const real_t T = 2 * t.tRef;
  EXPECT_NEAR(phys::viscosity(t, T),
              t.muRef * std::pow(2.0, 1.5) * (t.tRef + t.sutherland) / (T + t.sutherland), 1e-20);
  t.law = phys::ViscosityLaw::Constant;
  EXPECT_EQ(phys::viscosity(t, 1234.0), t.muRef);
  // k = mu cp / Pr
  EXPECT_NEAR(phys::conductivity(t, 2e-5), 2e-5 * 1.4 * 287.05 / 0.4 / 0.72, 1e-15);
}

TEST(ViscousPhysics, TemperatureGradientFromDensityAndPressure) {
  const real_t R = 287.05;
  // rho and p linear in x: T = p / (rho R); compare with a central difference of T
  const Vec gr{0.3, -0.2, 0.1}, gp{1e4, 5e3, -2e3};
  const real_t W[5] = {1.2, 0, 0, 0, 1e5};
  Vec g;
  phys::temperature_gradient(W, gr.data(), gp.data(), R, g.data());
  for (int d = 0; d < 3; ++d) {
    const real_t h = 1e-6;
    const real_t Tp = (W[4] + h * gp[d]) / ((W[0] + h * gr[d]) * R);
    const real_t Tm = (W[4] - h * gp[d]) / ((W[0] - h * gr[d]) * R);
    EXPECT_NEAR(g[d], (Tp - Tm) / (2 * h), 1e-6 * std::fabs(g[d]) + 1e-9) << d;
  }
}

TEST(ViscousPhysics, FaceGradientIsExactForLinearFieldsAndCorrectsAlongTheLine) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec a = random_vec(rng), xL = random_vec(rng), xR = random_vec(rng);
    const Vec l{xR[0] - xL[0], xR[1] - xL[1], xR[2] - xL[2]};
    const real_t qL = 0.7 + dot(a, xL), qR = 0.7 + dot(a, xR);
    Vec g;
    phys::face_gradient(a.data(), a.data(), qL, qR, l.data(), g.data());
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(g[d], a[d], 1e-13);
    // wrong cell gradients: the derivative along l is the two-point difference, the
    // perpendicular part is the average of the cell gradients
    const Vec gL = random_vec(rng), gR = random_vec(rng);
    phys::face_gradient(gL.data(), gR.data(), qL, qR, l.data(), g.data());
    EXPECT_NEAR(dot(g, l), qR - qL, 1e-13);
    const Vec gbar{0.5 * (gL[0] + gR[0]), 0.5 * (gL[1] + gR[1]), 0.5 * (gL[2] + gR[2])};
    const real_t ll = dot(l, l);
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(g[d] - dot(g, l) * l[d] / ll, gbar[d] - dot(gbar, l) * l[d] / ll, 1e-13);
  }
}

TEST(ViscousPhysics, FaceGradientOfAQuadraticAtTheMidpoint) {
  // q = y^2 on cells at y = 0.3 and 0.5 with the (exact) cell gradients 2y: the normal
  // derivative at the midpoint y = 0.4 is 0.8 exactly (the central difference is exact)
  const Vec gL{0, 0.6, 0}, gR{0, 1.0, 0}, l{0, 0.2, 0};
  Vec g;
  phys::face_gradient(gL.data(), gR.data(), 0.09, 0.25, l.data(), g.data());
  EXPECT_NEAR(g[1], 0.8, 1e-15);
  EXPECT_EQ(g[0], 0.0);
  EXPECT_EQ(g[2], 0.0);
}

TEST(ViscousPhysics, ViscousFluxOfALinearVelocityFieldIsTheStressTensor) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const Mat G = random_matrix(rng);
    const Vec u = random_vec(rng), gT = random_vec(rng), S = random_vec(rng);
    const real_t mu = 0.3, k = 0.8;
    real_t F[5];
    phys::viscous_flux(u.data(), G.data(), gT.data(), mu, k, S.data(), F);
    const real_t div = G[0] + G[4] + G[8];
    Vec tauS{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        tauS[i] +=
            (mu * (G[3 * i + j] + G[3 * j + i]) - (i == j ? 2.0 / 3.0 * mu * div : 0.0)) * S[j];
    EXPECT_EQ(F[0], 0.0);
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(F[1 + i], tauS[i], 1e-14);
    EXPECT_NEAR(F[4], dot(u, tauS) + k * dot(gT, S), 1e-14);
    // the stress is traceless and symmetric: a rigid rotation (antisymmetric G) carries none
    Mat W{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        W[3 * i + j] = G[3 * i + j] - G[3 * j + i];
    const Vec zero{0, 0, 0};
    phys::viscous_flux(u.data(), W.data(), zero.data(), mu, k, S.data(), F);
    for (int i = 1; i < 5; ++i)
      EXPECT_NEAR(F[i], 0.0, 1e-14);
  }
}

TEST(ViscousPhysics, CouetteFlowShearAndHeatFlux) {
  // u = (U y / H, 0, 0), T = T0 + (mu U^2 / (2 k H^2)) y (H - y): through a face of normal +y
  // the shear stress is mu U / H and the total energy flux u tau + k dT/dy = mu U^2 / (2 H) at
  // every y (the exact solution's energy balance)
  const real_t U = 3, H = 2, mu = 0.1, k = 0.05, A = 0.25;
  for (real_t y : {0.0, 0.4, 1.0, 1.7, 2.0}) {
    const Vec u{U * y / H, 0, 0}, S{0, A, 0};
    const Mat G{0, U / H, 0, 0, 0, 0, 0, 0, 0};
    const Vec gT{0, mu * U * U / (2 * k * H * H) * (H - 2 * y), 0};
    real_t F[5];
    phys::viscous_flux(u.data(), G.data(), gT.data(), mu, k, S.data(), F);
    EXPECT_NEAR(F[1], mu * U / H * A, 1e-15);
    EXPECT_NEAR(F[2], 0.0, 1e-15);
    EXPECT_NEAR(F[4], mu * U * U / (2 * H) * A, 1e-15) << y;
  }
}

TEST(ViscousPhysics, ViscousFluxIsFrameInvariant) {
  std::mt19937 rng(3);
  // rotation Q about a random axis: F(Q u, Q G Q^T, Q gT, Q S) = (0, Q tau S, same energy)
  const Vec axis = random_vec(rng);
  const real_t n = std::sqrt(dot(axis, axis)), th = 0.7;
  const Vec a{axis[0] / n, axis[1] / n, axis[2] / n};
  const real_t c = std::cos(th), s = std::sin(th);
  Mat Q;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      Q[3 * i + j] = (i == j ? c : 0.0) + (1 - c) * a[i] * a[j];
  Q[1] -= s * a[2];
  Q[2] += s * a[1];
  Q[3] += s * a[2];
  Q[5] -= s * a[0];
  Q[6] -= s * a[1];
  Q[7] += s * a[0];
  auto rot = [&](const Vec& v) {
    Vec r{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        r[i] += Q[3 * i + j] * v[j];
    return r;
  };
  const Mat G = random_matrix(rng);
  const Vec u = random_vec(rng), gT = random_vec(rng), S = random_vec(rng);
  Mat RG{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q)
          RG[3 * i + j] += Q[3 * i + p] * G[3 * p + q] * Q[3 * j + q];
  real_t F[5], FR[5];
  phys::viscous_flux(u.data(), G.data(), gT.data(), 0.2, 0.6, S.data(), F);
  const Vec ru = rot(u), rgT = rot(gT), rS = rot(S);
  phys::viscous_flux(ru.data(), RG.data(), rgT.data(), 0.2, 0.6, rS.data(), FR);
  const Vec m = rot({F[1], F[2], F[3]});
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(FR[1 + i], m[i], 1e-13);
  EXPECT_NEAR(FR[4], F[4], 1e-13);
}

TEST(ViscousPhysics, SpectralRadiusScalesWithViscosityAndArea) {
  phys::Transport t;
  const real_t r = phys::viscous_spectral_radius(1.2, 2e-5, t, 4e-4, 1e-6);
  EXPECT_NEAR(r, std::max(4.0 / 3.6, 1.4 / 1.2) * 2e-5 / 0.72 * 4e-4 / 1e-6, 1e-15);
  EXPECT_NEAR(phys::viscous_spectral_radius(1.2, 4e-5, t, 4e-4, 1e-6), 2 * r, 1e-15);
}

} // namespace
