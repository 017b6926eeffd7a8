// Sod's shock tube on 3D hex and tet meshes against the exact Riemann solution: L1 errors of
// density, velocity and pressure below stated bounds, shrinking under refinement.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/exact_riemann.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

using fv::real_t;

namespace {

const char* kSod = R"(
[freestream]
nondimensional = true
mach = 0
[initial]
type = split
axis = x
position = 0.5
left = 1, 0, 0, 0, 1
right = 0.125, 0, 0, 0, 0.1
[time]
stepping = global
cfl = 0.8
final_time = 0.2
iterations = 100000
convergence = 0
[patch xmin]
type = slip_wall
[patch xmax]
type = slip_wall
[patch ymin]
type = symmetry
[patch ymax]
type = symmetry
[patch zmin]
type = symmetry
[patch zmax]
type = symmetry
)";

/// L1 errors (rho, u, p) of the Sod run on an n-cell-long tube.
std::array<real_t, 3> sod_errors(int n, bool tets, const std::string& extra = "") {
  const fv::Mesh mesh = fv::testing::box_mesh(n, 2, 1, {0, 0, 0}, {1, 2.0 / n, 1.0 / n}, tets);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  fv::IniFile ini = fv::IniFile::parse(kSod, "sod.ini");
  if (!extra.empty()) ini.set_override(extra);
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const fv::RunSummary sum = fv::run_case(solver);
  EXPECT_EQ(sum.stopReason, "final time");
  EXPECT_NEAR(solver.time(), 0.2, 1e-12);
  const fv::testing::ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, 1.4);
  const auto W = solver.primitive();
  const fv::idx_t nc = zone.nTotalCells();
  std::vector<real_t> ex[3], num[3];
  real_t maxTransverse = 0, l1Transverse = 0;
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    const auto e = exact.sample((zone.cellCentroid[3 * c] - 0.5) / 0.2);
    ex[0].push_back(e.rho);
    ex[1].push_back(e.u);
    ex[2].push_back(e.p);
    num[0].push_back(W[c]);
    num[1].push_back(W[nc + c]);
    num[2].push_back(W[4 * nc + c]);
    // transverse velocities stay zero (1D problem on a 3D mesh): to rounding on hexes, small
    // on tets, which are not symmetric about the tube axis
    const real_t vt = std::fabs(W[2 * nc + c]) + std::fabs(W[3 * nc + c]);
    maxTransverse = std::max(maxTransverse, vt);
    l1Transverse += vt * zone.cellVolume[c] * n; // tube volume is 1/n
  }
  if (tets)
    EXPECT_LT(l1Transverse, 3e-3);
  else
    EXPECT_LT(maxTransverse, 1e-10);
  return {fv::testing::l1_difference(zone, num[0], ex[0]),
          fv::testing::l1_difference(zone, num[1], ex[1]),
          fv::testing::l1_difference(zone, num[2], ex[2])};
}

} // namespace

TEST(Sod, HexesConvergeToTheExactSolution) {
  const auto coarse = sod_errors(50, false), fine = sod_errors(100, false);
  const real_t bound[3] = {0.012, 0.025, 0.010}; // L1 bounds on 100 cells
  for (int k = 0; k < 3; ++k) {
    EXPECT_LT(fine[k], bound[k]) << "variable " << k;
    EXPECT_LT(fine[k], 0.75 * coarse[k]) << "variable " << k; // shrinks under refinement
  }
  std::printf("sod hex L1 (rho, u, p): n=50 %.4g %.4g %.4g; n=100 %.4g %.4g %.4g\n", coarse[0],
              coarse[1], coarse[2], fine[0], fine[1], fine[2]);
}

TEST(Sod, TetsConvergeToTheExactSolution) {
  const auto coarse = sod_errors(40, true), fine = sod_errors(80, true);
  const real_t bound[3] = {0.016, 0.035, 0.014}; // L1 bounds on 80 cells
  for (int k = 0; k < 3; ++k) {
    EXPECT_LT(fine[k], bound[k]) << "variable " << k;
    EXPECT_LT(fine[k], 0.8 * coarse[k]) << "variable " << k;
  }
  std::printf("sod tet L1 (rho, u, p): n=40 %.4g %.4g %.4g; n=80 %.4g %.4g %.4g\n", coarse[0],
              coarse[1], coarse[2], fine[0], fine[1], fine[2]);
}

TEST(Sod, FirstOrderRusanovIsMoreDiffusive) {
  const auto second = sod_errors(50, false);
  const auto first = sod_errors(50, false, "scheme.order=1");
  EXPECT_GT(first[0], second[0]);
}
