// SpatialOperator::evaluate_and_update: a Runge-Kutta stage on the residual of U, its flux sum
// and update fused into one kernel where the face fluxes alone make the residual, else
// evaluate() then rk_stage(). Either way the new state is bitwise that of evaluate() followed by
// kernels::rk_stage(), in place (U = Unew) or not, on the active backend. The stages that store
// their result's primitives (RkUpdate::storePrimitives) store bitwise the primitives pass's, and
// the explicit schemes' steps, whose later stages take them, are bitwise those of evaluate() +
// rk_stage() stage by stage.
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/solver/explicit_rk.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "runtime/solver/state_model.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

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
  const int nv = fv::StateModel::of(cfg.flow).nVars;
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

namespace {

/// Owned cells' values of a device state (nv x nTotalCells).
std::vector<real_t> owned(const fv::DeviceArray<real_t>& a, int nv, const fv::Zone& zone) {
  const std::vector<real_t> h = a.to_host();
  std::vector<real_t> out;
  for (int k = 0; k < nv; ++k)
    for (idx_t c = 0; c < zone.nCells; ++c)
      out.push_back(h[static_cast<std::size_t>(k) * zone.nTotalCells() + c]);
  return out;
}

/// One step of `scheme` through ExplicitRk (stages storing their primitives) against the same
/// stages as evaluate() + kernels::rk_stage(), for the case `ini` on a perturbed tetrahedral box;
/// and W after a storing update against the primitives pass of the new state.
void check_stored_primitives(const std::string& ini, fv::TimeScheme scheme) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 4, 3, {0, 0, 0}, {2, 1, 1}, true, 0.15);
  const fv::Zone zone = fv::testing::zone_with_zmin_wall(mesh); // rans_sa reads the distance
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(ini + fv::testing::kBoxWallZminPatches, "stored.ini"), mesh.patches);
  const int nv = fv::StateModel::of(cfg.flow).nVars;
  const idx_t nt = zone.nTotalCells();
  const std::size_t n = static_cast<std::size_t>(nv) * nt;
  const fv::DeviceArray<real_t> U0(fv::testing::smooth_state(zone, cfg, 0.1), "U0");
  fv::DeviceArray<real_t> dt(static_cast<std::size_t>(nt), "dt");

  // the step as the solver takes it: the start state evaluated, then ExplicitRk
  fv::SpatialOperator op(zone, cfg);
  op.evaluate(U0.data(), true);
  op.local_time_step(0.8, dt.data());
  op.evaluate(U0.data(), true);
  fv::DeviceArray<real_t> got(n, "ExplicitRk");
  fv::ExplicitRk rk(op, scheme);
  rk.advance({got.data(), U0.data(), dt.data(), -1});

  // the same stages, every one evaluating its state anew (no primitives stored)
  fv::SpatialOperator ref(zone, cfg);
  ref.evaluate(U0.data(), true);
  std::vector<std::array<real_t, 3>> stages; // a, b, beta
  if (scheme == fv::TimeScheme::Rk2)
    stages = {{0.0, 1.0, 1.0}, {0.5, 0.5, 1.0}};
  else
    stages = {{0.0, 1.0, 1.0}, {0.75, 0.25, 1.0}, {1.0 / 3.0, 2.0 / 3.0, 1.0}};
  fv::DeviceArray<real_t> expect(U0.to_host(), "stages");
  for (std::size_t s = 0; s < stages.size(); ++s) {
    if (s > 0) ref.evaluate(expect.data());
    const auto& [a, b, beta] = stages[s];
    visit_state_model(cfg.flow, [&](auto m) {
      fv::kernels::rk_stage<decltype(m)::kNumVars>(ref.view(), a, b, beta, dt.data(), -1, U0.data(),
                                                   s == 0 ? U0.data() : expect.data(),
                                                   ref.residual(), expect.data());
    });
  }
  const std::vector<real_t> e = owned(expect, nv, zone), g = owned(got, nv, zone),
                            u0 = owned(U0, nv, zone);
  int changed = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    ASSERT_EQ(g[i], e[i]) << "entry " << i;
    changed += e[i] != u0[i];
  }
  EXPECT_GT(changed, zone.nCells) << "the step must change the state";
  EXPECT_EQ(op.stored_primitives_of(), nullptr) << "the last stage stores none";

  // a storing stage: W holds the primitives pass's values of its result, until an evaluation
  fv::DeviceArray<real_t> next(n, "next");
  op.evaluate_and_update({0.5, 0.5, 1.0, dt.data(), -1, U0.data(), got.data(), next.data(), true});
  EXPECT_EQ(op.stored_primitives_of(), next.data());
  const std::vector<real_t> stored = owned(op.primitive_array(), nv, zone);
  op.primitives(next.data());
  EXPECT_EQ(op.stored_primitives_of(), nullptr);
  EXPECT_EQ(owned(op.primitive_array(), nv, zone), stored);
  op.update({0.0, 1.0, 1.0, dt.data(), -1, U0.data(), U0.data(), next.data(), true});
  EXPECT_EQ(op.stored_primitives_of(), next.data());
  op.evaluate(got.data()); // another state: its primitives are computed
  EXPECT_EQ(op.stored_primitives_of(), nullptr);
  ref.primitives(got.data());
  EXPECT_EQ(owned(op.primitive_array(), nv, zone), owned(ref.primitive_array(), nv, zone));
}

} // namespace

TEST(StoredPrimitives, SspRk3StepIsBitwiseThatOfEvaluateAndRkStage) {
  check_stored_primitives("[freestream]\nmach = 0.8\naoa = 3\n", fv::TimeScheme::SspRk3);
  check_stored_primitives("[freestream]\nmach = 0.8\naoa = 3\n[scheme]\nprecision = mixed\n",
                          fv::TimeScheme::SspRk3);
  check_stored_primitives("[freestream]\nmach = 0.8\naoa = 3\n[scheme]\norder = 1\n",
                          fv::TimeScheme::SspRk3);
}

TEST(StoredPrimitives, Rk2StepIsBitwiseThatOfEvaluateAndRkStage) {
  check_stored_primitives("[freestream]\nmach = 0.8\naoa = 3\n", fv::TimeScheme::Rk2);
}

TEST(StoredPrimitives, ViscousAndRansStepsAreBitwiseThoseOfEvaluateAndRkStage) {
  // Navier-Stokes: the fused update without face states; RANS: its source makes the update
  // rk_stage_primitives after the stored residual
  check_stored_primitives("[physics]\nmodel = navier_stokes\n[freestream]\nmach = 0.8\naoa = 3\n"
                          "reynolds = 1e5\n",
                          fv::TimeScheme::SspRk3);
  check_stored_primitives("[physics]\nmodel = rans_sa\n[freestream]\nmach = 0.8\naoa = 3\n"
                          "reynolds = 1e6\n",
                          fv::TimeScheme::SspRk3);
}
