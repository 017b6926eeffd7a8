// RANS with Spalart-Allmaras as a state model (physics/model.hpp SaModel, physics/sa/): its
// conversions, the boundary values and the upwind flux of rho nu-tilde, the case keys, the
// source kernel against the point-wise source, and the residual of a cell with a wall.
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/face_flux.hpp"
#include "runtime/physics/block.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/physics/sa/spalart_allmaras.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>

using fv::real_t;
using fv::phys::SaModel;

namespace {

constexpr real_t kGamma = 1.4;

TEST(Rans, ConversionsRoundTrip) {
  const real_t W[6] = {1.2, 30, -4, 2, 1e5, 3.5e-5};
  real_t U[6], W2[6];
  SaModel::to_conservative(W, U, kGamma);
  EXPECT_DOUBLE_EQ(U[5], 1.2 * 3.5e-5); // rho nu-tilde
  SaModel::to_primitive(U, W2, kGamma);
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(W2[k], W[k], 1e-12 * std::fabs(W[k]) + 1e-300) << k;
  static_assert(SaModel::kNumVars == 6 && SaModel::kNuTilde == 5, "the sixth variable");
}

TEST(Rans, GhostNuTildeFollowsTheTmrBoundaryConditions) {
  const real_t W[6] = {1.2, 30, 0, 0, 1e5, 4e-4};
  const real_t n[3] = {1, 0, 0};
  fv::phys::BcParams b;
  b.nuTilde = 5e-5;
  for (int k = 0; k < 5; ++k)
    b.ref[k] = W[k];
  auto ghost = [&](fv::phys::BcType t) {
    b.type = t;
    real_t G[6];
    fv::kernels::detail::ghost<SaModel>(W, n, b, G);
    return G[5];
  };
  // no-slip wall: the face value (mean of cell and ghost) is 0
  EXPECT_EQ(0.5 * (W[5] + ghost(fv::phys::BcType::NoSlipWall)), 0.0);
  // far field and inflow: the free stream's nu-tilde enters
  EXPECT_EQ(ghost(fv::phys::BcType::Farfield), b.nuTilde);
  EXPECT_EQ(ghost(fv::phys::BcType::SubsonicInflow), b.nuTilde);
  EXPECT_EQ(ghost(fv::phys::BcType::SupersonicInflow), b.nuTilde);
  // symmetry, slip walls, outflows: the interior value
  for (auto t : {fv::phys::BcType::Symmetry, fv::phys::BcType::SlipWall,
                 fv::phys::BcType::SubsonicOutflow, fv::phys::BcType::SupersonicOutflow})
    EXPECT_EQ(ghost(t), W[5]);
}

TEST(Rans, ScalarFluxIsTheMassFluxTimesTheUpwindNuTilde) {
  fv::kernels::FluxSettings fs;
  const real_t S[3] = {0.3, 0.1, 0};
  for (const real_t u : {40.0, -40.0}) {
    const real_t WL[6] = {1.2, u, 5, 0, 1e5, 2e-4}, WR[6] = {1.1, u, 4, 0, 0.98e5, 7e-4};
    real_t F6[6], F5[5];
    fv::kernels::detail::riemann<SaModel>(fs, WL, WR, S, F6);
    fv::kernels::detail::riemann<fv::phys::EulerModel>(fs, WL, WR, S, F5);
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(F6[k], F5[k]) << k; // the mean flow's flux is untouched
    EXPECT_EQ(F6[5], F6[0] * (F6[0] >= 0 ? WL[5] : WR[5]));
    EXPECT_EQ(F6[0] > 0, u > 0);
  }
}

TEST(Rans, CaseKeys) {
  const std::vector<fv::Patch> patches = {{"wall", "BCWall"}, {"far", "BCFarfield"}};
  auto resolve = [&](const std::string& text) {
    return fv::resolve_case(fv::IniFile::parse(text, "rans.ini"), patches);
  };
  const std::string tail = "[patch wall]\ntype = no_slip_wall\n[patch far]\ntype = farfield\n";
  const fv::CaseConfig c =
      resolve("[freestream]\nmach = 0.2\nreynolds = 5e6\nnu_tilde_ratio = 5\n[physics]\n"
              "model = rans_sa\nturbulent_prandtl = 0.85\n" +
              tail);
  EXPECT_TRUE(c.flow.rans());
  EXPECT_TRUE(c.flow.viscous());
  EXPECT_EQ(c.flow.transport.prandtlTurbulent, 0.85);
  const real_t nu =
      fv::phys::viscosity(c.flow.transport, c.flow.temperature) / c.flow.freestream[0];
  EXPECT_NEAR(c.flow.nuTildeFreestream, 5 * nu, 1e-14 * nu);
  for (const auto& p : c.patches)
    EXPECT_EQ(p.params.nuTilde, c.flow.nuTildeFreestream);
  EXPECT_EQ(resolve(c.resolvedIni).resolvedIni, c.resolvedIni);
  EXPECT_EQ(fv::StateModel::of(c.flow).nVars, 6);
  EXPECT_EQ(fv::StateModel::of(c.flow).conservative.back(), "rhoNuTilde");
  // defaults: the TMR's nu-tilde / nu = 3, Pr_t 0.9
  const fv::CaseConfig d = resolve("[freestream]\nmach = 0.2\n[physics]\nmodel = rans_sa\n" + tail);
  EXPECT_EQ(d.flow.nuTildeRatio, 3.0);
  EXPECT_EQ(d.flow.transport.prandtlTurbulent, 0.9);
  // LU-SGS solves the mean flow only: a clear error
  try {
    (void)resolve("[physics]\nmodel = rans_sa\n[time]\nintegrator = lusgs\n" + tail);
    FAIL() << "expected an error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("lusgs"), std::string::npos) << e.what();
  }
  EXPECT_THROW(
      (void)resolve("[freestream]\nnu_tilde_ratio = -1\n[physics]\nmodel = rans_sa\n" + tail),
      fv::Error);
}

// The 6x6 block algebra of the RANS preconditioner (the generic form of physics/block.hpp):
// inverse and products against the identity; the 5x5 instances stay the unrolled block5.hpp.
TEST(Rans, SixBySixBlockAlgebra) {
  real_t A[36], Ainv[36], P[36];
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c)
      A[6 * r + c] = r == c ? 10.0 + r : std::sin(1.0 + r + 7.0 * c); // diagonally dominant
  A[6 * 2 + 2] = 0.3; // a small pivot in place: row exchanges needed
  ASSERT_TRUE(fv::phys::invert<6>(A, Ainv));
  fv::phys::multiply<6>(A, Ainv, P);
  for (int k = 0; k < 36; ++k)
    EXPECT_NEAR(P[k], k % 7 == 0 ? 1.0 : 0.0, 1e-13) << k;
  const real_t x[12] = {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6}; // cell j = 1 of a stride-2 field
  real_t y[6] = {}, xs[6], z[6];
  for (int k = 0; k < 6; ++k)
    xs[k] = x[2 * k + 1];
  fv::phys::add_block_times<6>(Ainv, x, 2, 1, y);
  fv::phys::block_times<6>(A, y, z);
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(z[k], xs[k], 1e-12) << k;
  real_t S[36] = {};
  EXPECT_FALSE(fv::phys::invert<6>(S, Ainv)); // singular
  // the 5x5 instance is block5.hpp's, bit for bit
  real_t B[25], B1[25], B2[25];
  for (int k = 0; k < 25; ++k)
    B[k] = k % 6 == 0 ? 4.0 + k : std::cos(0.3 * k);
  ASSERT_TRUE(fv::phys::invert<5>(B, B1));
  ASSERT_TRUE(fv::phys::invert5(B, B2));
  for (int k = 0; k < 25; ++k)
    EXPECT_EQ(B1[k], B2[k]);
}

/// A box zone whose ymin patch is a no-slip wall, with its exact wall distance y; the cells
/// grow geometrically away from the wall (factor 2, 12 layers: the first 1.2e-4 high), so that
/// a boundary layer at Re 1e6 has cells in it.
fv::Zone plate_zone(fv::Mesh& mesh) {
  const fv::testing::NodeMap stretch = [](real_t x, real_t y, real_t z) {
    const real_t eta = y / 0.5; // 0 at the wall, 1 at the top
    return std::array<real_t, 3>{x, 0.5 * (std::pow(2.0, 12 * eta) - 1) / 4095.0, z};
  };
  mesh = fv::testing::box_mesh(6, 12, 2, {0, 0, 0}, {1, 0.5, 0.2}, false, 0.0, stretch);
  fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  std::vector<real_t> d(static_cast<std::size_t>(zone.nTotalCells()));
  for (fv::idx_t c = 0; c < zone.nTotalCells(); ++c)
    d[static_cast<std::size_t>(c)] = zone.cellCentroid[3 * c + 1];
  zone.cellWallDistance = fv::Array<real_t>(std::move(d));
  return zone;
}

const char* kPlate = R"(
[freestream]
mach = 0.2
reynolds = 1e4
lift_axis = y
[physics]
model = rans_sa
[patch xmin]
type = farfield
[patch xmax]
type = farfield
[patch ymin]
type = no_slip_wall
[patch ymax]
type = farfield
[patch zmin]
type = symmetry
[patch zmax]
type = symmetry
)";

/// kPlate at another Reynolds number.
std::string with_reynolds(const std::string& re) {
  std::string t = kPlate;
  const std::string key = "reynolds = 1e4";
  return t.replace(t.find(key), key.size(), "reynolds = " + re);
}

// A uniform free stream over a wall: the residual of rho nu-tilde of a cell away from the
// boundaries is exactly (destruction - production - cb2 term) V of the point-wise source (the
// uniform state has no convective or diffusive flux of nu-tilde in the interior), and the
// kernel reads the zone's wall distance.
TEST(Rans, SourceKernelMatchesThePointWiseSource) {
  fv::Mesh mesh;
  const fv::Zone zone = plate_zone(mesh);
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(kPlate, "plate.ini"), mesh.patches);
  fv::SpatialOperator op(zone, cfg);
  const fv::idx_t nt = zone.nTotalCells();
  std::vector<real_t> U(6 * static_cast<std::size_t>(nt));
  std::vector<real_t> w(cfg.flow.freestream.begin(), cfg.flow.freestream.end());
  w.push_back(cfg.flow.nuTildeFreestream);
  real_t u[6];
  SaModel::to_conservative(w.data(), u, cfg.flow.gamma);
  for (fv::idx_t c = 0; c < nt; ++c)
    for (int k = 0; k < 6; ++k)
      U[k * nt + c] = u[k];
  fv::DeviceArray<real_t> Ud(U, "U");
  op.evaluate(Ud.data());
  const std::vector<real_t> R = op.residual_array().to_host();
  const real_t mu = fv::phys::viscosity(cfg.flow.transport, cfg.flow.temperature);
  const real_t zero[3] = {0, 0, 0};
  int checked = 0;
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    const real_t* x = &zone.cellCentroid[3 * c];
    if (x[0] < 0.2 || x[0] > 0.8 || x[1] < 0.01 || x[1] > 0.2) continue; // interior cells
    const fv::phys::sa::Source s = fv::phys::sa::source(w[0], w[5], mu, 0.0, x[1], zero);
    const real_t expected = -s.total() * zone.cellVolume[c];
    EXPECT_NEAR(R[5 * nt + c], expected, 1e-9 * std::fabs(expected) + 1e-20) << "cell " << c;
    ++checked;
  }
  EXPECT_GT(checked, 4);
}

// The RANS state runs: Newton iterations of the plate keep rho nu-tilde finite, the sheared
// layer at the wall produces nu-tilde above the free stream's, and the solver's vectors are 6
// wide.
TEST(Rans, PlateRunsAndGrowsEddyViscosity) {
  fv::Mesh mesh;
  const fv::Zone zone = plate_zone(mesh);
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(with_reynolds("1e6") + "[time]\niterations = 30\n", "plate.ini"),
      mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  for (int i = 0; i < 30; ++i)
    solver.step();
  const std::vector<real_t> W = solver.primitive();
  ASSERT_EQ(W.size(), 6 * static_cast<std::size_t>(zone.nTotalCells()));
  real_t top = 0;
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    ASSERT_TRUE(std::isfinite(W[5 * zone.nTotalCells() + c])) << c;
    top = std::max(top, W[5 * zone.nTotalCells() + c]);
  }
  std::printf("largest nu-tilde / free stream after 30 iterations: %.3f\n",
              top / cfg.flow.nuTildeFreestream);
  EXPECT_GT(top, 1.5 * cfg.flow.nuTildeFreestream); // production in the sheared layer at the wall
}

// A zone without wall distance cannot run RANS: a clear error naming the zone file's array.
TEST(Rans, NeedsTheWallDistance) {
  fv::Mesh mesh;
  fv::Zone zone = plate_zone(mesh);
  zone.cellWallDistance = fv::Array<real_t>();
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(kPlate, "plate.ini"), mesh.patches);
  try {
    fv::SpatialOperator op(zone, cfg);
    FAIL() << "expected an error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("wallDistance"), std::string::npos) << e.what();
  }
}

} // namespace
