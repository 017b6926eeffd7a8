// The Navier-Stokes model in the solver: exact solutions whose residual vanishes to round-off
// on a hex box (plane Couette flow, steady conduction between isothermal walls), the no-slip
// wall's ghost state, the viscous time step, and the case file's [physics] keys.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>

using fv::real_t;

namespace {

constexpr real_t kGamma = 1.4, kMu = 0.01, kPr = 0.72, kH = 1.0;

/// A box x in [0, 1.5], y in [0, H], one layer in z: walls at ymin and ymax, symmetry at the z
/// sides, far field at the x ends (only the end cells see it).
/// (viscous = false: the Euler model with slip walls, for contrast.)
std::string channel_case(real_t wallSpeed, real_t tBottom, real_t tTop, bool viscous = true) {
  std::ostringstream s;
  s << "[freestream]\nnondimensional = true\nmach = 0.2\n[scheme]\nentropy_fix = 0\n"
    << "[patch xmin]\ntype = farfield\n[patch xmax]\ntype = farfield\n"
    << "[patch zmin]\ntype = symmetry\n[patch zmax]\ntype = symmetry\n";
  if (!viscous) {
    s << "[patch ymin]\ntype = slip_wall\n[patch ymax]\ntype = slip_wall\n";
    return s.str();
  }
  s << "[physics]\nmodel = navier_stokes\nviscosity = constant\nviscosity_ref = " << kMu
    << "\nprandtl = " << kPr << "\n"
    << "[patch ymin]\ntype = no_slip_wall\ntemperature = " << tBottom << "\n"
    << "[patch ymax]\ntype = no_slip_wall\ntemperature = " << tTop << "\nvelocity = " << wallSpeed
    << ", 0, 0\n";
  return s.str();
}

/// Sets the primitive state W(y) (rho, u, v, w, p) at every cell centroid, evaluates the
/// residual and returns the largest |R| of the cells away from the x ends, per equation,
/// relative to `scale`. wallCellsEnergy: include the energy of the wall cells.
std::array<real_t, 5> residual_of(const std::string& text,
                                  const std::function<std::array<real_t, 5>(real_t)>& W,
                                  bool wallCellsEnergy) {
  const int nx = 6, ny = 8;
  const fv::Mesh mesh = fv::testing::box_mesh(nx, ny, 1, {0, 0, 0}, {1.5, kH, 0.25}, false);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, "ns.ini"), mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const fv::idx_t n = zone.nTotalCells();
  std::vector<real_t> U(5 * static_cast<std::size_t>(n), 0.0);
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    const auto w = W(zone.cellCentroid[3 * c + 1]);
    U[0 * n + c] = w[0];
    for (int d = 0; d < 3; ++d)
      U[(1 + d) * n + c] = w[0] * w[1 + d];
    U[4 * n + c] = w[4] / (kGamma - 1) + 0.5 * w[0] * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
  }
  solver.set_conservative(U);
  const std::vector<real_t> R = solver.residual();
  const real_t dx = 1.5 / nx, dy = kH / ny;
  std::array<real_t, 5> worst{};
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    const real_t x = zone.cellCentroid[3 * c], y = zone.cellCentroid[3 * c + 1];
    if (x < dx || x > 1.5 - dx) continue; // next to the far-field ends
    const bool wallCell = y < dy || y > kH - dy;
    for (int k = 0; k < 5; ++k) {
      if (k == 4 && wallCell && !wallCellsEnergy) continue;
      worst[k] = std::max(worst[k], std::fabs(R[k * n + c]));
    }
  }
  return worst;
}

TEST(NavierStokes, CouetteFlowIsExactToRoundOff) {
  // u = U y / H, p = 1/gamma, T = 1 + mu U^2 / (2 k H^2) y (H - y) between isothermal walls at
  // T = 1, the top one moving at U: the exact compressible solution with constant viscosity
  const real_t U = 0.2, R = 1 / kGamma, cond = kMu * kGamma * R / ((kGamma - 1) * kPr);
  const real_t p = 1 / kGamma;
  auto W = [&](real_t y) -> std::array<real_t, 5> {
    const real_t T = 1 + kMu * U * U / (2 * cond * kH * kH) * y * (kH - y);
    return {p / (R * T), U * y / kH, 0, 0, p};
  };
  const auto r = residual_of(channel_case(U, 1, 1), W, false);
  // flux scale of a face: p A ~ 0.7 * 0.05; round-off is ~1e-17 of it, a wrong viscous flux
  // would leave ~mu U / H A = 1e-4
  for (int k = 0; k < 5; ++k)
    EXPECT_LT(r[k], 1e-14) << "equation " << k;
  // not a trivial balance: the Euler model balances any parallel flow, the viscous one only
  // the exact profile: a wrong wall speed leaves the wall cells' shear, a uniform temperature
  // the viscous heating unbalanced
  EXPECT_LT(residual_of(channel_case(U, 1, 1, false), W, true)[1], 1e-14);
  EXPECT_GT(residual_of(channel_case(0.1, 1, 1), W, false)[1], 1e-4);
  auto uniformT = [&](real_t y) -> std::array<real_t, 5> { return {p / R, U * y / kH, 0, 0, p}; };
  EXPECT_GT(residual_of(channel_case(U, 1, 1), uniformT, false)[4], 1e-6);
  // [scheme] precision = mixed with the viscous model (the convective face loops read FP32
  // face-centroid offsets and node weights, the viscous ones the FP64 view): still balanced to
  // far below what a wrong viscous flux leaves
  std::string mixed = channel_case(U, 1, 1);
  const std::string scheme = "[scheme]\nentropy_fix = 0\n";
  mixed.replace(mixed.find(scheme), scheme.size(), scheme + "precision = mixed\n");
  const auto rm = residual_of(mixed, W, false);
  for (int k = 0; k < 5; ++k)
    EXPECT_LT(rm[k], 1e-9) << "equation " << k << " (precision = mixed)";
}

TEST(NavierStokes, ConductionBetweenIsothermalWallsIsExactToRoundOff) {
  // fluid at rest, T linear from 1 (bottom) to 1.3 (top), uniform pressure: every cell,
  // the wall cells included, balances its heat fluxes exactly
  const real_t R = 1 / kGamma, p = 1 / kGamma;
  auto W = [&](real_t y) -> std::array<real_t, 5> {
    const real_t T = 1 + 0.3 * y / kH;
    return {p / (R * T), 0, 0, 0, p};
  };
  const auto r = residual_of(channel_case(0, 1, 1.3), W, true);
  for (int k = 0; k < 5; ++k)
    EXPECT_LT(r[k], 1e-14) << "equation " << k;
  // wrong wall temperatures leave a heat flux in the wall cells
  EXPECT_GT(residual_of(channel_case(0, 1.1, 1.3), W, true)[4], 1e-5);
}

TEST(NavierStokes, NoSlipGhostStateGivesTheWallVelocityAtTheFace) {
  fv::phys::BcParams b;
  b.type = fv::phys::BcType::NoSlipWall;
  b.wallVelocity[0] = 0.3;
  b.wallVelocity[2] = -0.1;
  const real_t W[5] = {1.2, 0.5, -0.2, 0.1, 0.8}, n[3] = {0, 1, 0};
  real_t G[5];
  fv::phys::ghost_state(W, n, b, G);
  EXPECT_EQ(G[0], W[0]);
  EXPECT_EQ(G[4], W[4]);
  for (int d = 0; d < 3; ++d)
    EXPECT_DOUBLE_EQ(0.5 * (W[1 + d] + G[1 + d]), b.wallVelocity[d]);
}

TEST(NavierStokes, ViscousTimeStepIsSmallerAndTendsToTheInviscidOne) {
  const fv::Mesh mesh = fv::testing::box_mesh(4, 4, 1, {0, 0, 0}, {1, 1, 0.25}, false);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  auto dt_of = [&](const std::string& physics) {
    const std::string text = "[freestream]\nnondimensional = true\nmach = 0.3\n" + physics +
                             "[patch xmin]\ntype = farfield\n[patch xmax]\ntype = farfield\n"
                             "[patch ymin]\ntype = farfield\n[patch ymax]\ntype = farfield\n"
                             "[patch zmin]\ntype = symmetry\n[patch zmax]\ntype = symmetry\n";
    const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, "t.ini"), mesh.patches);
    fv::EulerSolver solver(zone, cfg);
    solver.initialise();
    auto& op = solver.spatial_operator();
    op.primitives(solver.conservative().data()); // host data on the CPU backend
    std::vector<real_t> dt(static_cast<std::size_t>(zone.nTotalCells()));
    return op.local_time_step(1.0, dt.data());
  };
  const real_t euler = dt_of("");
  const real_t thick = dt_of("[physics]\nmodel = navier_stokes\nviscosity = constant\n"
                             "viscosity_ref = 0.1\n");
  const real_t thin = dt_of("[physics]\nmodel = navier_stokes\nviscosity = constant\n"
                            "viscosity_ref = 1e-9\n");
  EXPECT_LT(thick, 0.5 * euler);
  EXPECT_NEAR(thin, euler, 1e-6 * euler);
}

TEST(NavierStokes, CaseFileKeys) {
  const std::vector<fv::Patch> patches = {{"wall", "BCWall"}, {"far", "BCFarfield"}};
  auto resolve = [&](const std::string& text) {
    return fv::resolve_case(fv::IniFile::parse(text, "k.ini"), patches);
  };
  const std::string tail = "[patch wall]\ntype = no_slip_wall\n[patch far]\ntype = farfield\n";
  // Reynolds number on a length: mu = rho V L / Re at the free-stream temperature
  const fv::CaseConfig c = resolve("[freestream]\nmach = 0.5\nreynolds = 1e6\nreynolds_length = 2\n"
                                   "[physics]\nmodel = navier_stokes\n" +
                                   tail);
  ASSERT_TRUE(c.flow.viscous());
  const real_t V = std::hypot(c.flow.freestream[1], c.flow.freestream[3]);
  EXPECT_NEAR(fv::phys::viscosity(c.flow.transport, c.flow.temperature),
              c.flow.freestream[0] * V * 2 / 1e6, 1e-12 * c.flow.freestream[0] * V * 2 / 1e6);
  EXPECT_EQ(c.patches[0].params.type, fv::phys::BcType::NoSlipWall);
  EXPECT_EQ(c.patches[0].params.wallTemperature, 0.0); // adiabatic
  EXPECT_EQ(c.monitor.forcePatches, std::vector<std::string>{"wall"});
  // the resolved text reparses to the same case (the adiabatic wall included)
  const fv::CaseConfig again = resolve(c.resolvedIni);
  EXPECT_EQ(again.resolvedIni, c.resolvedIni);
  // a no-slip wall needs the viscous model
  try {
    resolve(tail);
    FAIL() << "no error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("navier_stokes"), std::string::npos) << e.what();
  }
  // isothermal wall and Sutherland's constants in nondimensional cases
  const fv::CaseConfig nd =
      resolve("[freestream]\nnondimensional = true\ntemperature = 300\n[physics]\nmodel = "
              "navier_stokes\n[patch wall]\ntype = no_slip_wall\ntemperature = 1.2\n[patch "
              "far]\ntype = farfield\n");
  EXPECT_DOUBLE_EQ(nd.patches[0].params.wallTemperature, 1.2);
  EXPECT_NEAR(nd.flow.transport.sutherland, 110.4 / 300, 1e-15);
  EXPECT_NEAR(nd.flow.transport.tRef, 273.15 / 300, 1e-15);
}

} // namespace
