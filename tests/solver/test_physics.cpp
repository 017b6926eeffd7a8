// Point-wise physics of the solver: flux consistency, conservation, rotational invariance,
// boundary states that preserve the free stream, limiters, and the exact Riemann solver used
// by the shock-tube test.
#include "runtime/physics/barth_jespersen.hpp"
#include "runtime/physics/boundary_conditions.hpp"
#include "runtime/physics/euler/roe_flux.hpp"
#include "runtime/physics/euler/rusanov_flux.hpp"
#include "runtime/physics/venkat_limiter.hpp"
#include "tests/solver/exact_riemann.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>

using fv::real_t;
namespace phys = fv::phys;

namespace {
constexpr real_t kGamma = 1.4;

std::array<real_t, 5> random_state(std::mt19937& rng) {
  std::uniform_real_distribution<real_t> pos(0.2, 3.0), vel(-2.0, 2.0);
  return {pos(rng), vel(rng), vel(rng), vel(rng), pos(rng)};
}
std::array<real_t, 3> random_vector(std::mt19937& rng) {
  std::uniform_real_distribution<real_t> d(-1.0, 1.0);
  return {d(rng), d(rng), d(rng) + 0.1};
}
real_t scale(const real_t* a, int n) {
  real_t s = 1.0;
  for (int k = 0; k < n; ++k)
    s = std::max(s, std::fabs(a[k]));
  return s;
}
// rotation matrix from axis-angle
std::array<real_t, 9> rotation(std::array<real_t, 3> a, real_t t) {
  const real_t n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  for (auto& x : a)
    x /= n;
  const real_t c = std::cos(t), s = std::sin(t), C = 1 - c;
  return {c + a[0] * a[0] * C,        a[0] * a[1] * C - a[2] * s, a[0] * a[2] * C + a[1] * s,
          a[1] * a[0] * C + a[2] * s, c + a[1] * a[1] * C,        a[1] * a[2] * C - a[0] * s,
          a[2] * a[0] * C - a[1] * s, a[2] * a[1] * C + a[0] * s, c + a[2] * a[2] * C};
}
void rotate(const std::array<real_t, 9>& R, const real_t* v, real_t* out) {
  for (int i = 0; i < 3; ++i)
    out[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}
} // namespace

TEST(EulerState, ConversionsRoundTrip) {
  std::mt19937 rng(1);
  for (int t = 0; t < 100; ++t) {
    const auto W = random_state(rng);
    real_t U[5], W2[5];
    phys::prim_to_cons(W.data(), U, kGamma);
    phys::cons_to_prim(U, W2, kGamma);
    for (int k = 0; k < 5; ++k)
      EXPECT_NEAR(W2[k], W[k], 1e-14 * scale(W.data(), 5));
    EXPECT_TRUE(phys::is_physical(W.data()));
  }
  const real_t bad[5] = {1.0, std::nan(""), 0, 0, 1.0};
  EXPECT_FALSE(phys::is_physical(bad));
  const real_t neg[5] = {1.0, 0, 0, 0, -1e-3};
  EXPECT_FALSE(phys::is_physical(neg));
}

TEST(RoeFlux, ConsistentWithPhysicalFlux) {
  std::mt19937 rng(2);
  for (int t = 0; t < 200; ++t) {
    const auto W = random_state(rng);
    const auto S = random_vector(rng);
    real_t F[5], Fe[5], Fr[5];
    phys::roe_flux(W.data(), W.data(), S.data(), kGamma, 0.1, F);
    phys::rusanov_flux(W.data(), W.data(), S.data(), kGamma, Fr);
    phys::physical_flux(W.data(), S.data(), kGamma, Fe);
    for (int k = 0; k < 5; ++k) {
      EXPECT_NEAR(F[k], Fe[k], 1e-13 * scale(Fe, 5)) << "component " << k;
      EXPECT_NEAR(Fr[k], Fe[k], 1e-13 * scale(Fe, 5)) << "component " << k;
    }
  }
}

TEST(RoeFlux, ConservativeAndRotationallyInvariant) {
  std::mt19937 rng(3);
  for (int t = 0; t < 200; ++t) {
    const auto WL = random_state(rng), WR = random_state(rng);
    const auto S = random_vector(rng);
    const real_t mS[3] = {-S[0], -S[1], -S[2]};
    for (int scheme = 0; scheme < 2; ++scheme) {
      auto flux = [&](const real_t* a, const real_t* b, const real_t* s, real_t* F) {
        if (scheme == 0)
          phys::roe_flux(a, b, s, kGamma, 0.1, F);
        else
          phys::rusanov_flux(a, b, s, kGamma, F);
      };
      real_t F[5], G[5];
      flux(WL.data(), WR.data(), S.data(), F);
      flux(WR.data(), WL.data(), mS, G);
      for (int k = 0; k < 5; ++k)
        EXPECT_NEAR(F[k], -G[k], 1e-13 * scale(F, 5));
      // rotation: F(R WL, R WR, R S) = R F(WL, WR, S) (momentum), others unchanged
      const auto Rm = rotation(random_vector(rng), 0.3 + t * 0.01);
      real_t rWL[5] = {WL[0], 0, 0, 0, WL[4]}, rWR[5] = {WR[0], 0, 0, 0, WR[4]}, rS[3];
      rotate(Rm, WL.data() + 1, rWL + 1);
      rotate(Rm, WR.data() + 1, rWR + 1);
      rotate(Rm, S.data(), rS);
      real_t H[5], rF[3];
      flux(rWL, rWR, rS, H);
      rotate(Rm, F + 1, rF);
      EXPECT_NEAR(H[0], F[0], 1e-12 * scale(F, 5));
      EXPECT_NEAR(H[4], F[4], 1e-12 * scale(F, 5));
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(H[1 + d], rF[d], 1e-12 * scale(F, 5));
    }
  }
}

TEST(RoeFlux, UpwindForSupersonicFlow) {
  // Fully supersonic normal flow: the Roe flux is the upwind physical flux.
  const real_t WL[5] = {1.0, 3.0, 0.2, -0.1, 1.0}, WR[5] = {0.8, 2.9, 0.1, 0.0, 0.9};
  const real_t S[3] = {2.0, 0.0, 0.0};
  real_t F[5], Fe[5];
  phys::roe_flux(WL, WR, S, kGamma, 0.0, F);
  phys::physical_flux(WL, S, kGamma, Fe);
  for (int k = 0; k < 5; ++k)
    EXPECT_NEAR(F[k], Fe[k], 1e-12 * scale(Fe, 5));
}

TEST(RoeFlux, EntropyFixOnlyActsNearSonicPoints) {
  EXPECT_DOUBLE_EQ(phys::harten_abs(0.5, 0.1), 0.5);
  EXPECT_DOUBLE_EQ(phys::harten_abs(-0.5, 0.1), 0.5);
  EXPECT_NEAR(phys::harten_abs(0.0, 0.1), 0.05, 1e-15);
  EXPECT_GT(phys::harten_abs(0.01, 0.1), 0.01);
}

namespace {
phys::BcParams params(phys::BcType t, const real_t* Wf) {
  phys::BcParams b;
  b.type = t;
  b.gamma = kGamma;
  b.gasConstant = 287.05;
  for (int k = 0; k < 5; ++k)
    b.ref[k] = Wf[k];
  b.pressure = Wf[4];
  const real_t T = Wf[4] / (Wf[0] * b.gasConstant);
  const real_t c2 = kGamma * Wf[4] / Wf[0];
  const real_t m2 = (Wf[1] * Wf[1] + Wf[2] * Wf[2] + Wf[3] * Wf[3]) / c2;
  b.totalTemperature = T * (1 + 0.2 * m2);
  b.totalPressure = Wf[4] * std::pow(1 + 0.2 * m2, 3.5);
  const real_t V = std::sqrt(m2 * c2);
  for (int d = 0; d < 3; ++d)
    b.direction[d] = Wf[1 + d] / V;
  return b;
}
void expect_state(const real_t* G, const real_t* W, real_t tol) {
  for (int k = 0; k < 5; ++k)
    EXPECT_NEAR(G[k], W[k], tol * scale(W, 5)) << "component " << k;
}
} // namespace

TEST(BcStates, PreserveTheFreeStream) {
  const real_t rho = 1.225, p = 101325, c = std::sqrt(kGamma * p / rho);
  for (real_t mach : {0.3, 0.8, 2.0}) {
    const real_t Wf[5] = {rho, mach * c * 0.96, mach * c * 0.28, 0.0, p}; // |dir| = 1
    // normals with inflow, outflow and tangential flow
    const real_t normals[3][3] = {{-1, 0, 0}, {1, 0, 0}, {-0.28, 0.96, 0}};
    for (const auto& n : normals) {
      real_t G[5];
      phys::farfield_state(Wf, n, params(phys::BcType::Farfield, Wf), G);
      expect_state(G, Wf, 1e-13);
      const real_t vn = Wf[1] * n[0] + Wf[2] * n[1] + Wf[3] * n[2];
      if (vn < 0 && mach > 1) {
        phys::ghost_state(Wf, n, params(phys::BcType::SupersonicInflow, Wf), G);
        expect_state(G, Wf, 0);
      }
      if (vn < 0 && mach < 1) {
        phys::ghost_state(Wf, n, params(phys::BcType::SubsonicInflow, Wf), G);
        expect_state(G, Wf, 1e-12);
      }
      if (vn > 0) {
        phys::ghost_state(Wf, n, params(phys::BcType::SubsonicOutflow, Wf), G);
        expect_state(G, Wf, 0);
        phys::ghost_state(Wf, n, params(phys::BcType::SupersonicOutflow, Wf), G);
        expect_state(G, Wf, 0);
      }
      if (std::fabs(vn) < 1e-12 * c) { // tangential flow: walls see no change
        phys::ghost_state(Wf, n, params(phys::BcType::SlipWall, Wf), G);
        expect_state(G, Wf, 1e-15);
        phys::ghost_state(Wf, n, params(phys::BcType::Symmetry, Wf), G);
        expect_state(G, Wf, 1e-15);
      }
    }
  }
}

TEST(BcStates, WallFluxCarriesOnlyPressure) {
  const real_t W[5] = {1.1, 0.3, -0.4, 0.2, 0.9};
  const real_t S[3] = {0.3, 0.5, -0.2};
  const real_t a = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t n[3] = {S[0] / a, S[1] / a, S[2] / a};
  real_t G[5], F[5];
  phys::BcParams b;
  b.type = phys::BcType::SlipWall;
  phys::ghost_state(W, n, b, G);
  phys::roe_flux(W, G, S, kGamma, 0.1, F);
  EXPECT_NEAR(F[0], 0.0, 1e-15);
  EXPECT_NEAR(F[4], 0.0, 1e-15);
  // momentum flux is along the normal (a wall pressure)
  const real_t pw = (F[1] * n[0] + F[2] * n[1] + F[3] * n[2]) / a;
  for (int d = 0; d < 3; ++d)
    EXPECT_NEAR(F[1 + d], pw * S[d], 1e-14);
  EXPECT_GT(pw, 0.0);
}

TEST(BcStates, FarfieldUsesCharacteristics) {
  // Subsonic outflow face: the outgoing invariant R+ and the entropy come from inside, the
  // incoming invariant R- from the free stream.
  const real_t Wf[5] = {1.0, 0.5, 0.1, 0, 1.0 / kGamma};
  const real_t Wi[5] = {0.9, 0.6, -0.1, 0.05, 1.1 / kGamma};
  const real_t n[3] = {0.8, 0.6, 0};
  real_t G[5];
  phys::farfield_state(Wi, n, params(phys::BcType::Farfield, Wf), G);
  auto vn = [&](const real_t* W) { return W[1] * n[0] + W[2] * n[1] + W[3] * n[2]; };
  auto c = [&](const real_t* W) { return std::sqrt(kGamma * W[4] / W[0]); };
  EXPECT_NEAR(vn(G) + 5 * c(G), vn(Wi) + 5 * c(Wi), 1e-14);
  EXPECT_NEAR(vn(G) - 5 * c(G), vn(Wf) - 5 * c(Wf), 1e-14);
  EXPECT_NEAR(G[4] / std::pow(G[0], kGamma), Wi[4] / std::pow(Wi[0], kGamma), 1e-14);
  // tangential velocity from inside
  EXPECT_NEAR(G[3], Wi[3], 1e-15);
  // inflow face: entropy and tangential velocity from the free stream
  const real_t m[3] = {-0.8, -0.6, 0};
  phys::farfield_state(Wi, m, params(phys::BcType::Farfield, Wf), G);
  EXPECT_NEAR(G[4] / std::pow(G[0], kGamma), Wf[4] / std::pow(Wf[0], kGamma), 1e-14);
  EXPECT_NEAR(G[3], Wf[3], 1e-15);
}

TEST(Limiters, Properties) {
  // smooth region (increment well inside the bounds): Venkatakrishnan close to 1
  EXPECT_NEAR(fv::phys::venkat_phi(1.0, -1.0, 0.01, 0.0), 1.0, 1e-3);
  EXPECT_DOUBLE_EQ(fv::phys::venkat_phi(1.0, -1.0, 0.0, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(fv::phys::barth_phi(1.0, -1.0, 0.0), 1.0);
  // an extremum (no room above): both limit to 0 without epsilon
  EXPECT_NEAR(fv::phys::venkat_phi(0.0, -1.0, 0.5, 0.0), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(fv::phys::barth_phi(0.0, -1.0, 0.5), 0.0);
  // overshoot: Barth-Jespersen clips to the bound exactly
  EXPECT_DOUBLE_EQ(fv::phys::barth_phi(0.5, -1.0, 2.0), 0.25);
  EXPECT_DOUBLE_EQ(fv::phys::barth_phi(1.0, -0.5, -2.0), 0.25);
  std::mt19937 rng(5);
  std::uniform_real_distribution<real_t> u(-2, 2);
  for (int t = 0; t < 1000; ++t) {
    const real_t dmax = std::fabs(u(rng)), dmin = -std::fabs(u(rng)), d2 = u(rng);
    const real_t v = fv::phys::venkat_phi(dmax, dmin, d2, 1e-3),
                 b = fv::phys::barth_phi(dmax, dmin, d2);
    EXPECT_GE(v, 0.0);
    EXPECT_LE(v, 1.0);
    EXPECT_GE(b, 0.0);
    EXPECT_LE(b, 1.0);
    EXPECT_LE(b * d2, dmax + 1e-15); // limited increment within bounds
    EXPECT_GE(b * d2, dmin - 1e-15);
  }
}

TEST(ExactRiemann, SodStarState) {
  // Toro, Table 4.2/4.3, test 1: p* = 0.30313, u* = 0.92745
  fv::testing::ExactRiemann r({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  EXPECT_NEAR(r.p_star(), 0.30313, 1e-5);
  EXPECT_NEAR(r.u_star(), 0.92745, 1e-5);
  // far states untouched, star region between
  EXPECT_DOUBLE_EQ(r.sample(-5.0).rho, 1.0);
  EXPECT_DOUBLE_EQ(r.sample(5.0).rho, 0.125);
  EXPECT_NEAR(r.sample(0.5).p, 0.30313, 1e-5);
  // Toro test 3 (strong left shock tube... left rarefaction, right shock): p* = 460.894
  fv::testing::ExactRiemann r3({1.0, 0.0, 1000.0}, {1.0, 0.0, 0.01}, 1.4);
  EXPECT_NEAR(r3.p_star(), 460.894, 1e-3);
  EXPECT_NEAR(r3.u_star(), 19.5975, 1e-4);
}
