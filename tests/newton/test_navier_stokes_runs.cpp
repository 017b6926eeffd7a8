// Laminar Navier-Stokes validation with fvrun's defaults (Newton-Krylov) on real meshes of
// ../shared/meshes (skipped without them), running the case files of examples/:
// - the NASA TMR flat-plate grid (137 x 97 quads, SU2's copy) at M 0.2, Re 1e5 per unit length,
//   adiabatic wall: the skin friction follows Blasius' Cf = 0.664 / sqrt(Re_x) within 2 % away
//   from the leading edge, in a converged run;
// - SU2's laminar cylinder at Re 40: drag and recirculation length within the published range.
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/newton/newton_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using fv::real_t;

namespace {

TEST(NavierStokesRuns, LaminarFlatPlateFollowsBlasius) {
  const auto& pz = fv::testing::shared_2d_zones("su2/flatplate_turb_137x97.su2", 0.1, 1);
  if (pz.zones.empty()) GTEST_SKIP() << "../shared/meshes not available";
  const fv::Zone& zone = pz.zones[0];
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(fv::testing::example_case("flat_plate_laminar.ini"),
                                          "flat_plate_laminar.ini"),
                       pz.header.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const fv::RunSummary s = fv::run_case(solver);
  EXPECT_TRUE(s.converged) << s.stopReason;
  EXPECT_LE(s.iterations, 60);
  // skin friction along the wall against Blasius, Re_x = Re x (the plate starts at x = 0)
  const std::vector<real_t> wall = solver.wall_viscous_data();
  const std::size_t nb = static_cast<std::size_t>(zone.nBoundaryFaces);
  const real_t q = cfg.flow.dynamic_pressure();
  fv::idx_t wallPatch = -1;
  for (fv::idx_t p = 0; p < zone.nPatches(); ++p)
    if (cfg.patches[p].name == "wall") wallPatch = p;
  ASSERT_GE(wallPatch, 0);
  int checked = 0;
  real_t worst = 0;
  for (fv::idx_t f = zone.patchFaceOffsets[wallPatch]; f < zone.patchFaceOffsets[wallPatch + 1];
       ++f) {
    const real_t x = zone.faceCentroid[3 * f];
    if (x < 0.2 || x > 1.5) continue; // leading-edge region and the coarse outflow end
    const real_t* S = &zone.faceArea[3 * static_cast<std::size_t>(f)];
    const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    const real_t cf = wall[0 * nb + static_cast<std::size_t>(f)] / (area * q);
    const real_t blasius = 0.664 / std::sqrt(1e5 * x);
    worst = std::max(worst, std::fabs(cf / blasius - 1));
    ++checked;
  }
  EXPECT_GT(checked, 20);
  EXPECT_LT(worst, 0.02);
  std::printf("flat plate: %d iterations, Cf within %.2f %% of Blasius on %d wall faces "
              "(0.2 <= x <= 1.5)\n",
              s.iterations, 100 * worst, checked);
  // the drag is skin friction: CDv carries it, CDp is small
  const auto& c = s.history.back().coeff;
  EXPECT_GT(c.CDv, 0);
  EXPECT_LT(std::fabs(c.CDp), 0.05 * c.CDv);
}

} // namespace

namespace {

// SU2's laminar cylinder mesh (diameter 1, 22200 quads, far field at 20 diameters), Re 40 on the
// diameter, M 0.1: a steady separated wake. Published: CD 1.57 (Tritton 1959, experiment),
// 1.52 (Dennis & Chang 1970), 1.50 (Fornberg 1980); recirculation length behind the cylinder
// L/D 2.13 (Coutanceau & Bouard 1977, experiment), 2.24 (Fornberg), 2.35 (Dennis & Chang).
TEST(NavierStokesRuns, LaminarCylinderAtReynolds40) {
  const auto& pz = fv::testing::shared_2d_zones("su2/cylinder_lam.su2", 1.0, 1);
  if (pz.zones.empty()) GTEST_SKIP() << "../shared/meshes not available";
  const fv::Zone& zone = pz.zones[0];
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(fv::testing::example_case("cylinder_re40.ini"), "cylinder_re40.ini"),
      pz.header.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const fv::RunSummary s = fv::run_case(solver);
  EXPECT_TRUE(s.converged) << s.stopReason;
  EXPECT_LE(s.iterations, 80);
  const auto& c = s.history.back().coeff;
  EXPECT_GT(c.CD, 1.50);
  EXPECT_LT(c.CD, 1.62);
  EXPECT_NEAR(c.CL, 0.0, 1e-4); // symmetric wake
  // the cylinder's rear point (the mesh's cylinder is centred at x = 0.5) from its wall faces
  real_t rear = -1e300;
  for (fv::idx_t p = 0; p < zone.nPatches(); ++p)
    if (cfg.patches[p].name == "cylinder")
      for (fv::idx_t f = zone.patchFaceOffsets[p]; f < zone.patchFaceOffsets[p + 1]; ++f)
        rear = std::max(rear, zone.faceCentroid[3 * f]);
  // recirculation length: where u turns positive on the wake's centre line (cells within a
  // small band around y = 0, ordered by x)
  const std::vector<real_t> W = solver.primitive();
  const fv::idx_t n = zone.nTotalCells();
  std::vector<std::pair<real_t, real_t>> line; // (x, u)
  for (fv::idx_t k = 0; k < zone.nCells; ++k) {
    const real_t x = zone.cellCentroid[3 * k], y = zone.cellCentroid[3 * k + 1];
    if (x > rear && x < rear + 6 && std::fabs(y) < 0.05) line.emplace_back(x, W[1 * n + k]);
  }
  std::sort(line.begin(), line.end());
  real_t reattach = 0;
  for (std::size_t i = 1; i < line.size() && reattach == 0; ++i)
    if (line[i - 1].second < 0 && line[i].second >= 0) // linear interpolation of the zero
      reattach = line[i - 1].first + (line[i].first - line[i - 1].first) * -line[i - 1].second /
                                         (line[i].second - line[i - 1].second);
  const real_t L = reattach - rear; // from the rear of the cylinder, in diameters
  EXPECT_GT(L, 2.05);
  EXPECT_LT(L, 2.45);
  std::printf("cylinder Re 40: %d iterations, CD %.4f (CDp %.4f, CDv %.4f), L/D %.3f\n",
              s.iterations, c.CD, c.CDp, c.CDv, L);
}

} // namespace
