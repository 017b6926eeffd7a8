// SpatialOperator::evaluate_and_update: a Runge-Kutta stage on the residual of U, its flux sum
// and update fused into one kernel where the face fluxes alone make the residual, else
// evaluate() then rk_stage(). Either way the new state is bitwise that of evaluate() followed by
// kernels::rk_stage(), in place (U = Unew) or not, on the active backend.
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "runtime/solver/state_model.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using fv::idx_t;
using fv::real_t;

namespace {

constexpr int kNumVars = fv::phys::EulerModel::kNumVars;

/// The conservative state of the free stream scaled by a smooth function of position (scale
/// Checks evaluate_and_update against evaluate + rk_stage for the case `ini` (one zone of a
/// perturbed tetrahedral box), with and without a fixed source.
void check_case(const std::string& ini) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 4, 3, {0, 0, 0}, {2, 1, 1}, true, 0.15);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(ini + fv::testing::kBoxWallZminPatches, "fused.ini"), mesh.patches);
  const int nv = fv::StateModel::of(cfg).nVars;
  ASSERT_EQ(nv, kNumVars);
  const idx_t nt = zone.nTotalCells();
  const std::size_t n = static_cast<std::size_t>(nv) * nt;
  for (const bool withSource : {false, true}) {
    SCOPED_TRACE(withSource ? "fixed source (evaluate + rk_stage)" : "fused");
    fv::SpatialOperator op(zone, cfg);
    op.set_first_order(false);
    if (withSource) op.set_source(std::vector<real_t>(n, 1e-3));
    const fv::DeviceArray<real_t> U(fv::testing::smooth_state(zone, cfg, 0.1), "U"),
        U0(fv::testing::smooth_state(zone, cfg, 0.05), "U0");
    fv::DeviceArray<real_t> dt(static_cast<std::size_t>(nt), "dt"), expect(n, "expected"),
        got(n, "fused"), inPlace(U.to_host(), "in place");
    op.primitives(U.data());
    op.local_time_step(0.8, dt.data());
    const real_t a = 0.75, b = 0.25, beta = 1.0;
    expect.assign(U);
    got.assign(U);
    op.evaluate(U.data());
    const std::vector<real_t> R = op.residual_array().to_host();
    fv::kernels::rk_stage<kNumVars>(op.view(), a, b, beta, dt.data(), -1, U0.data(), U.data(),
                                    op.residual(), expect.data());
    op.evaluate_and_update({a, b, beta, dt.data(), -1, U0.data(), U.data(), got.data()});
    op.evaluate_and_update({a, b, beta, dt.data(), -1, U0.data(), inPlace.data(), inPlace.data()});
    const std::vector<real_t> e = expect.to_host(), g = got.to_host(), p = inPlace.to_host();
    const std::vector<real_t> u = U.to_host();
    int changed = 0;
    for (int k = 0; k < nv; ++k)
      for (idx_t c = 0; c < zone.nCells; ++c) {
        const std::size_t i = static_cast<std::size_t>(k) * nt + c;
        ASSERT_EQ(g[i], e[i]) << "component " << k << ", cell " << c;
        ASSERT_EQ(p[i], e[i]) << "in place: component " << k << ", cell " << c;
        changed += e[i] != u[i];
      }
    EXPECT_GT(changed, zone.nCells) << "the stage must change the state";
    if (withSource) { // the fallback stores the residual as evaluate() does
      EXPECT_EQ(op.residual_array().to_host(), R);
    }
  }
}

} // namespace

TEST(FusedUpdate, EqualsEvaluateThenRkStageBitwise) {
  check_case("[freestream]\nmach = 0.8\naoa = 3\n");
}

TEST(FusedUpdate, EqualsEvaluateThenRkStageBitwiseInMixedPrecision) {
  check_case("[freestream]\nmach = 0.8\naoa = 3\n[scheme]\nprecision = mixed\n");
}
