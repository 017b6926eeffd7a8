// RANS (Spalart-Allmaras, SA-neg) validation with fvrun's defaults (Newton-Krylov) on the NASA
// Turbulence Modeling Resource's zero-pressure-gradient flat plate (2DZP: M 0.2, Re 5 million
// per unit length, its 137 x 97 grid in SU2's copy, ../shared/meshes; skipped without them),
// running examples/flat_plate_sa.ini: a converged run's skin friction at x = 0.97 against the
// TMR's SA value 0.0027056 (CFL3D and FUN3D, finest grid).
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/newton/newton_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

using fv::real_t;

namespace {

/// Cf_x along the patch `wall` at x (the faces' values, averaged over the extruded span and
/// interpolated linearly between face centroids).
real_t skin_friction_at(const fv::Zone& zone, const fv::CaseConfig& cfg,
                        const std::vector<real_t>& wall, real_t x) {
  std::map<real_t, std::pair<real_t, int>> byX; // x -> (sum of Cf_x, count)
  for (fv::idx_t p = 0; p < zone.nPatches(); ++p) {
    if (cfg.patches[p].name != "wall") continue;
    for (fv::idx_t f = zone.patchFaceOffsets[p]; f < zone.patchFaceOffsets[p + 1]; ++f) {
      const real_t* S = &zone.faceArea[3 * static_cast<std::size_t>(f)];
      const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
      const real_t xf = std::round(zone.faceCentroid[3 * f] * 1e9) / 1e9;
      auto& e = byX[xf];
      e.first += wall[static_cast<std::size_t>(f)] /
                 (area * cfg.flow.dynamic_pressure()); // Cf_x: component 0
      e.second += 1;
    }
  }
  auto hi = byX.lower_bound(x);
  if (hi == byX.begin() || hi == byX.end()) return std::nan("");
  auto lo = std::prev(hi);
  const real_t c0 = lo->second.first / lo->second.second;
  const real_t c1 = hi->second.first / hi->second.second;
  return c0 + (c1 - c0) * (x - lo->first) / (hi->first - lo->first);
}

TEST(RansRuns, FlatPlateSkinFrictionMatchesTheTmr) {
  const auto& pz = fv::testing::shared_2d_zones("su2/flatplate_turb_137x97.su2", 0.1, 1, {"wall"});
  if (pz.zones.empty()) GTEST_SKIP() << "../shared/meshes not available";
  const fv::Zone& zone = pz.zones[0];
  ASSERT_FALSE(zone.cellWallDistance.empty());
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(fv::testing::example_case("flat_plate_sa.ini"), "flat_plate_sa.ini"),
      pz.header.patches);
  ASSERT_TRUE(cfg.flow.rans());
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const fv::RunSummary s = fv::run_case(solver);
  EXPECT_TRUE(s.converged) << s.stopReason;
  EXPECT_LE(s.iterations, 80); // measured 46
  const real_t cf = skin_friction_at(zone, cfg, solver.wall_viscous_data(), 0.97);
  constexpr real_t kTmr = 0.0027056;
  EXPECT_NEAR(cf, kTmr, 0.02 * kTmr);
  std::printf("flat plate SA: %d iterations, Cf(x = 0.97) = %.7f (TMR %.7f, %+.2f %%)\n",
              s.iterations, cf, kTmr, 100 * (cf / kTmr - 1));
  // the state carries rho nu-tilde: 6 variables, nu-tilde positive in the boundary layer
  const std::vector<real_t> W = solver.primitive();
  ASSERT_EQ(W.size(), 6 * static_cast<std::size_t>(zone.nTotalCells()));
  real_t top = 0;
  for (fv::idx_t c = 0; c < zone.nCells; ++c)
    top = std::max(top, W[5 * static_cast<std::size_t>(zone.nTotalCells()) + c]);
  EXPECT_GT(top, 50 * cfg.flow.nuTildeFreestream); // mu_t / mu of a few hundred in the layer
}

} // namespace
