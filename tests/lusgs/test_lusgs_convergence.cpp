// Convergence of a subsonic channel-with-bump case (M = 0.4, second order with the Venkatakrishnan
// limiter, 768 hex cells, characteristic far field at inlet and outlet): LU-SGS (hyperplane and
// colour, 3 sweeps, adaptive CFL from 10 up to 1000) drops the density and energy residuals by 6
// orders in fewer than half the iterations after which explicit SSP-RK3 at its stable CFL 1.5 has
// not even reached 6 orders (it is cut off there to keep the test short; it needs several thousand
// more). The counts and RK's drop are printed and recorded as test properties.
// The CFL law is adaptive (cfl_law = adaptive): with the boundary-flux Jacobian in the diagonal
// (lusgs_boundary = jacobian) the colour ordering at a fixed CFL 1000 stalls at 1.5 orders here
// (its red-black sweeps do not converge the first-order operator against the second-order
// residual at that CFL); the adaptive law backs off and it converges (846 iterations; 1384 with
// the old scalar boundary diagonal and a fixed ramp); hyperplane: 131 (was 1010).
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>

namespace {

const fv::testing::TestZone& channel() {
  static const fv::testing::TestZone tz = [] {
    fv::GenOptions o;
    o.family = fv::MeshFamily::Channel;
    o.cells = fv::GenCells::Hex;
    o.n = {48, 16, 1};
    o.extent = {3, 1, 0.05};
    return fv::testing::generated_zone(o);
  }();
  return tz;
}

struct Result {
  int iterations;
  bool converged;
  double seconds;
  double drop; ///< orders of residual drop reached (worst of density and energy)
};

Result run(const std::string& timeSection) {
  const auto& tz = channel();
  const std::string text = R"(
[freestream]
nondimensional = true
mach = 0.4
lift_axis = y
[scheme]
limiter = venkat
[time]
convergence = 6
)" + timeSection + R"(
[monitor]
output_interval = 100000
)" + fv::testing::channel_patches();
  const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, "bump case"), tz.patches);
  fv::EulerSolver solver(tz.zone, cfg);
  solver.initialise();
  const auto t0 = std::chrono::steady_clock::now();
  const fv::RunSummary s = fv::run_case(solver);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto& last = s.history.back().logResidual;
  return {s.iterations, s.converged, sec, -std::max(last[0], last[4])};
}

} // namespace

TEST(LusgsConvergence, SubsonicBumpFarFewerIterationsThanRk) {
  const int cells = channel().zone.nCells;
  const int rkLimit = 2500;
  const Result rk =
      run("integrator = ssprk3\ncfl = 1.5\niterations = " + std::to_string(rkLimit) + "\n");
  const char* implicitCommon = "integrator = lusgs\ncfl_start = 10\ncfl = 1000\n"
                               "cfl_law = adaptive\niterations = 2000\nlusgs_sweeps = 3\n";
  const Result hyp = run(std::string(implicitCommon) + "lusgs_ordering = hyperplane\n");
  const Result col = run(std::string(implicitCommon) + "lusgs_ordering = colour\n");
  std::cout << "subsonic bump M=0.4 (2nd order), " << cells
            << " hex cells, 6 orders of residual drop:\n"
            << "  ssprk3 cfl 1.5          : " << rk.iterations << " iterations"
            << (rk.converged ? "" : " (not converged)") << ", " << rk.drop << " orders, "
            << rk.seconds << " s\n"
            << "  lusgs hyperplane, 3 sw. : " << hyp.iterations << " iterations"
            << (hyp.converged ? "" : " (not converged)") << ", " << hyp.seconds << " s\n"
            << "  lusgs colour, 3 sweeps  : " << col.iterations << " iterations"
            << (col.converged ? "" : " (not converged)") << ", " << col.seconds << " s\n";
  ::testing::Test::RecordProperty("rk_iterations", rk.iterations);
  ::testing::Test::RecordProperty("lusgs_hyperplane_iterations", hyp.iterations);
  ::testing::Test::RecordProperty("lusgs_colour_iterations", col.iterations);
  ::testing::Test::RecordProperty("rk_orders_at_limit", std::to_string(rk.drop));
  EXPECT_TRUE(hyp.converged);
  EXPECT_TRUE(col.converged);
  EXPECT_FALSE(rk.converged); // RK needs more than rkLimit iterations...
  EXPECT_LT(rk.drop, 6.0);
  EXPECT_LT(2 * hyp.iterations, rkLimit); // ...LU-SGS less than half of that
  EXPECT_LT(3 * col.iterations, 2 * rkLimit);
  // hyperplanes keep the sequential sweep's implicit coupling: not slower than colours
  EXPECT_LE(hyp.iterations, col.iterations);
}
