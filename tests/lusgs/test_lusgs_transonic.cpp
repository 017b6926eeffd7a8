// Regression test of issue 8 (LU-SGS converging far too slowly): a transonic channel with a 3 %
// bump (M = 0.8, supersonic pocket up to about M 1.18 on the bump), second order with the
// Venkatakrishnan limiter, 48x16 hex cells, far field at inlet and outlet, LU-SGS with 4 sweeps
// at a fixed CFL 1000. Iterations to a 6-order drop of the density and energy residuals:
//   before (scalar diagonal with omega/2 lambda of every boundary face, now
//           lusgs_boundary = spectral):                                              1511
//   now (exact boundary-flux Jacobian in 5x5 block diagonals, lusgs_boundary = jacobian): 314
//   with the Roe matrix as implicit dissipation (lusgs_dissipation = roe; CFL ramped from 5 to
//   1000 over 30 iterations, which the Roe operator needs at the impulsive start):         32
// The bounds below (500, 80) are ones the old scheme did not meet. The hyperplane ordering
// reproduces the sequential natural-order sweep, so both give the same residual history to
// rounding.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

namespace {

const fv::testing::TestZone& transonic_channel() {
  static const fv::testing::TestZone tz =
      fv::testing::generated_zone(fv::testing::transonic_channel_options());
  return tz;
}

fv::RunSummary run(const std::string& ordering, const std::string& extra = "") {
  const auto& tz = transonic_channel();
  const std::string text = R"(
[freestream]
nondimensional = true
mach = 0.8
lift_axis = y
[scheme]
limiter = venkat
[time]
integrator = lusgs
lusgs_sweeps = 4
cfl = 1000
iterations = 1000
convergence = 6
lusgs_ordering = )" + ordering +
                           "\n" + extra + R"(
[monitor]
output_interval = 100000
)" + fv::testing::channel_patches();
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(text, "transonic bump"), tz.patches);
  fv::EulerSolver solver(tz.zone, cfg);
  solver.initialise();
  return fv::run_case(solver);
}

} // namespace

namespace {
void expect_converged_and_same_history(const fv::RunSummary& hyp, const fv::RunSummary& nat,
                                       int bound) {
  EXPECT_TRUE(hyp.converged);
  EXPECT_LE(hyp.iterations, bound);
  ASSERT_EQ(hyp.iterations, nat.iterations);
  double worst = 0;
  for (std::size_t i = 0; i < hyp.history.size(); ++i)
    for (int k : {0, 4})
      worst =
          std::max(worst, std::fabs(hyp.history[i].logResidual[k] - nat.history[i].logResidual[k]));
  EXPECT_LT(worst, 1e-8) << "largest difference of log10 residuals between the orderings";
}
} // namespace

TEST(LusgsTransonic, HyperplaneConvergesSixOrdersAndMatchesNaturalOrder) {
  const fv::RunSummary hyp = run("hyperplane");
  const fv::RunSummary nat = run("natural");
  std::cout << "transonic bump M=0.8 (2nd order), " << transonic_channel().zone.nCells
            << " hex cells, LU-SGS 4 sweeps, CFL 1000: hyperplane " << hyp.iterations
            << " iterations, natural " << nat.iterations << " (old scheme: 1511)\n";
  ::testing::Test::RecordProperty("hyperplane_iterations", hyp.iterations);
  expect_converged_and_same_history(hyp, nat, 500);
}

TEST(LusgsTransonic, RoeDissipationConvergesInTensOfIterations) {
  const std::string roe = "lusgs_dissipation = roe\ncfl_start = 5\ncfl_ramp_iterations = 30\n";
  const fv::RunSummary hyp = run("hyperplane", roe);
  const fv::RunSummary nat = run("natural", roe);
  std::cout << "transonic bump, Roe implicit dissipation: hyperplane " << hyp.iterations
            << " iterations, natural " << nat.iterations << " (scalar: 314, old scheme: 1511)\n";
  ::testing::Test::RecordProperty("hyperplane_roe_iterations", hyp.iterations);
  expect_converged_and_same_history(hyp, nat, 80);
}
