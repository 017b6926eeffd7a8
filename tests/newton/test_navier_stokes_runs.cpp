// Laminar Navier-Stokes validation with fvrun's defaults (Newton-Krylov) on a real mesh of
// ../shared/meshes (skipped without it): the NASA TMR flat-plate grid (137 x 97 quads, SU2's
// copy) at M 0.2, Re 1e5 per unit length, adiabatic wall: the skin friction follows Blasius'
// Cf = 0.664 / sqrt(Re_x) within 2 % away from the leading edge, in a converged run.
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/newton/newton_cases.hpp"

#include <gtest/gtest.h>

#include <cmath>

using fv::real_t;

namespace {

constexpr const char* kFlatPlate = R"([freestream]
mach = 0.2
temperature = 300
reynolds = 1e5
reynolds_length = 1
lift_axis = y
[physics]
model = navier_stokes
[time]
iterations = 150
convergence = 8
[patch inlet]
type = subsonic_inflow
[patch outlet]
type = subsonic_outflow
[patch farfield]
type = farfield
[patch symmetry]
type = symmetry
[patch wall]
type = no_slip_wall
[patch symmetry_extruded]
type = symmetry
)";

TEST(NavierStokesRuns, LaminarFlatPlateFollowsBlasius) {
  const auto& pz = fv::testing::shared_2d_zones("su2/flatplate_turb_137x97.su2", 0.1, 1);
  if (pz.zones.empty()) GTEST_SKIP() << "../shared/meshes not available";
  const fv::Zone& zone = pz.zones[0];
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(kFlatPlate, "flatplate.ini"), pz.header.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  const fv::RunSummary s = fv::run_case(solver, false);
  EXPECT_TRUE(s.converged) << s.stopReason;
  EXPECT_LE(s.iterations, 60);
  // skin friction along the wall against Blasius, Re_x = Re x (the plate starts at x = 0)
  const std::vector<real_t> wall = solver.wall_viscous_data();
  const std::size_t nb = static_cast<std::size_t>(zone.nBoundaryFaces);
  const real_t q = cfg.dynamic_pressure();
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
