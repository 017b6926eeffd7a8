// Wang's limiter scales (venkat_wang), refreshed by the first evaluation of an iteration from the
// reductions' range of each primitive over the owned cells: K max(hi - lo, 1e-8 q), bit for bit.
#include "runtime/config/case_config.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "runtime/solver/state_model.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using fv::real_t;

TEST(LimiterScales, WangScalesFollowTheRangeOfThePrimitives) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 4, 3, {0, 0, 0}, {2, 1, 1}, true, 0.15);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  fv::IniFile ini = fv::IniFile::parse(std::string("[freestream]\nmach = 0.8\naoa = 3\n") +
                                           fv::testing::kBoxWallZminPatches,
                                       "wang.ini");
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  ASSERT_EQ(cfg.scheme.limiter, fv::kernels::Limiter::VenkatWang);
  fv::SpatialOperator op(zone, cfg);
  const fv::StateModel sm = fv::StateModel::of(cfg.flow);
  const int nv = sm.nVars;
  const fv::idx_t nt = zone.nTotalCells();
  // a non-uniform state: the free stream scaled by a smooth function of position
  std::vector<real_t> U(static_cast<std::size_t>(nv) * nt);
  const std::vector<real_t> inf = sm.freestream(cfg.flow);
  for (fv::idx_t c = 0; c < nt; ++c) {
    std::vector<real_t> w = inf;
    const real_t s =
        1 + 0.2 * std::sin(3 * zone.cellCentroid[3 * c]) * zone.cellCentroid[3 * c + 1];
    w[0] *= s;
    w[1] *= 2 - s;
    w[4] *= s * s;
    real_t u[fv::phys::kMaxVars];
    sm.to_conservative(w.data(), u, cfg.flow.gamma);
    for (int k = 0; k < nv; ++k)
      U[static_cast<std::size_t>(k) * nt + c] = u[k];
  }
  const fv::DeviceArray<real_t> dU(U, "U");
  op.evaluate(dU.data(), true);
  const std::vector<real_t> W = op.primitive_array().to_host();
  const std::vector<real_t> q = sm.primitive_scales(cfg.flow);
  const fv::kernels::LimiterScales& got = op.limiter_scales();
  for (int k = 0; k < nv; ++k) {
    real_t lo = 1e300, hi = -1e300;
    for (fv::idx_t c = 0; c < zone.nCells; ++c) {
      lo = std::min(lo, W[static_cast<std::size_t>(k) * nt + c]);
      hi = std::max(hi, W[static_cast<std::size_t>(k) * nt + c]);
    }
    EXPECT_EQ(got.s[k], cfg.scheme.venkatWangK * std::max(hi - lo, 1e-8 * q[k]))
        << "component " << k;
  }
}
