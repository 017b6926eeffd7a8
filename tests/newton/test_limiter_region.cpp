// [scheme] limiter_region (docs/numerics.md "Limiter"): with `supersonic`, the viscous models'
// default, the limiter acts only on cells whose gradient stencil (the cells sharing a node with
// them) holds supersonic flow. On the transonic channel (a supersonic pocket over the bump and a
// weak shock) with the Navier-Stokes model: every cell away from supersonic flow keeps phi = 1
// exactly, the shock is limited, and `everywhere` limits cells that `supersonic` leaves alone.
// The region's per-node excess travels in the node exchange; the two-zone run is checked in
// tests/parallel/test_fake_transport.cpp.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using fv::idx_t;
using fv::real_t;

std::string viscous_transonic_case(const std::string& region) {
  return "[freestream]\nnondimensional = true\nmach = 0.8\nlift_axis = y\nreynolds = 20000\n"
         "[physics]\nmodel = navier_stokes\n[scheme]\nlimiter_region = " +
         region + "\n[time]\niterations = 30\nconvergence = 0\n" + fv::testing::channel_patches();
}

struct Evaluation {
  std::vector<real_t> phi, W; // nVars x nTotalCells
};

/// The limiter and primitives of one evaluation of `U` with the given region.
Evaluation evaluate(const fv::testing::TestZone& tz, const std::string& region,
                    const std::vector<real_t>& U) {
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(viscous_transonic_case(region), "region.ini"), tz.patches);
  fv::EulerSolver s(tz.zone, cfg);
  s.initialise();
  Evaluation e;
  const std::size_t n = static_cast<std::size_t>(5 * tz.zone.nTotalCells());
  s.set_exchange([&](const char* what, real_t* field, int) {
    if (std::string(what) == "limiter") e.phi.assign(field, field + n);
  });
  fv::SpatialOperator& op = s.spatial_operator();
  op.set_first_order(false);   // past the first-order start, as the developed state is
  op.evaluate(U.data(), true); // CPU backend: host memory is device memory
  e.W.assign(op.W(), op.W() + n);
  return e;
}

} // namespace

TEST(LimiterRegion, SupersonicLimitsOnlyNextToSupersonicFlow) {
  const fv::testing::TestZone tz =
      fv::testing::generated_zone(fv::testing::transonic_channel_options());
  const fv::Zone& z = tz.zone;
  // a developed transonic state: Newton iterations with the default (supersonic) region
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(viscous_transonic_case("supersonic"), "region.ini"), tz.patches);
  fv::EulerSolver solver(z, cfg);
  solver.initialise();
  fv::run_case(solver);
  const std::vector<real_t> U = solver.conservative();

  const Evaluation sup = evaluate(tz, "supersonic", U), all = evaluate(tz, "everywhere", U);
  ASSERT_EQ(sup.phi.size(), U.size());
  ASSERT_EQ(all.phi.size(), U.size());
  const idx_t n = z.nCells, nt = z.nTotalCells();
  std::vector<char> supersonic(static_cast<std::size_t>(n), 0);
  int nSupersonic = 0;
  for (idx_t c = 0; c < n; ++c) {
    const real_t rho = sup.W[c], u = sup.W[nt + c], v = sup.W[2 * nt + c], w = sup.W[3 * nt + c],
                 p = sup.W[4 * nt + c];
    supersonic[c] = (u * u + v * v + w * w) / (cfg.flow.gamma * p / rho) > 1.0;
    nSupersonic += supersonic[c];
  }
  ASSERT_GT(nSupersonic, 0) << "no supersonic pocket: the case does not test the region";
  int nearLimited = 0, farCells = 0, farLimitedEverywhere = 0;
  for (idx_t c = 0; c < n; ++c) {
    bool near = false; // a supersonic cell shares a node with c
    for (idx_t k = z.cellNodes.begin(c); k < z.cellNodes.end(c) && !near; ++k) {
      const idx_t node = z.cellNodes.indices()[k];
      for (idx_t j = z.nodeCells.begin(node); j < z.nodeCells.end(node) && !near; ++j)
        near = supersonic[z.nodeCells.indices()[j]] != 0;
    }
    real_t phiSup = 1.0, phiAll = 1.0;
    for (int k = 0; k < 5; ++k) {
      phiSup = std::min(phiSup, sup.phi[k * nt + c]);
      phiAll = std::min(phiAll, all.phi[k * nt + c]);
    }
    if (near) {
      nearLimited += phiSup < 1.0;
      EXPECT_EQ(phiSup, phiAll) << "cell " << c << ": next to supersonic flow both regions agree";
    } else {
      ++farCells;
      EXPECT_EQ(phiSup, 1.0) << "cell " << c << " limited away from supersonic flow";
      farLimitedEverywhere += phiAll < 1.0;
    }
  }
  EXPECT_GT(nearLimited, 0) << "the shock is not limited";
  EXPECT_GT(farCells, n / 2);
  EXPECT_GT(farLimitedEverywhere, 0) << "everywhere limits nothing more: the test shows nothing";
  std::printf("%d supersonic cells; limited next to them %d; away from them: %d cells, "
              "%d of them limited by limiter_region = everywhere\n",
              nSupersonic, nearLimited, farCells, farLimitedEverywhere);
}
