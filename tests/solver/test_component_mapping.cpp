// fv::forall_components: its two mappings (one thread per (entity, component), which the CUDA
// backend runs, and one per entity, which the CPU backend runs) visit every (entity, component)
// once, and the node interpolation written with it gives bitwise the same residual either way,
// on the CPU backend, for the limiters, the supersonic limiter region, Navier-Stokes,
// Spalart-Allmaras (6 variables) and mixed precision. The GPU runs the split mapping;
// test_solver_backends compares it with the CPU.
#include "runtime/backend/forall.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/assembly_choice.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "runtime/solver/state_model.hpp"
#include "tests/solver/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using fv::idx_t;
using fv::real_t;

namespace {

/// Residual of the case `ini` on a perturbed box (tetrahedra or hexahedra) under mapping m.
std::vector<real_t> residual(const std::string& ini, bool tets, fv::ComponentMapping m) {
  const fv::Mesh mesh = fv::testing::box_mesh(7, 5, 4, {0, 0, 0}, {2, 1, 1}, tets, 0.2);
  const fv::Zone zone = fv::testing::zone_with_zmin_wall(mesh); // rans_sa reads the distance
  const fv::CaseConfig cfg = fv::resolve_case(
      fv::IniFile::parse(ini + fv::testing::kBoxWallZminPatches, "mapping.ini"), mesh.patches);
  fv::SpatialOperator op(zone, cfg);
  op.set_first_order(false);
  op.set_node_loop(m);
  const fv::DeviceArray<real_t> U(fv::testing::smooth_state(zone, cfg, 0.2), "U");
  op.primitives(U.data());
  op.evaluate(U.data());
  return op.residual_array().to_host();
}

void expect_same_residual(const std::string& ini) {
  for (const bool tets : {true, false}) {
    SCOPED_TRACE(tets ? "tetrahedra" : "hexahedra");
    const std::vector<real_t> split = residual(ini, tets, fv::ComponentMapping::Split);
    const std::vector<real_t> entity = residual(ini, tets, fv::ComponentMapping::PerEntity);
    ASSERT_EQ(split.size(), entity.size());
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < split.size(); ++i) {
      ASSERT_EQ(split[i], entity[i]) << "residual entry " << i;
      nonzero += split[i] != 0.0;
    }
    EXPECT_GT(nonzero, split.size() / 2) << "the state must give a residual";
  }
}

} // namespace

TEST(ComponentMapping, BothMappingsVisitEveryEntityAndComponentOnce) {
  for (const auto m : {fv::ComponentMapping::Split, fv::ComponentMapping::PerEntity}) {
    for (const idx_t n : {idx_t{1}, idx_t{31}, idx_t{32}, idx_t{33}, idx_t{1000}, idx_t{40000}}) {
      constexpr int N = 5;
      std::vector<int> hits(static_cast<std::size_t>(N) * n, 0);
      int* h = hits.data();
      fv::forall_components<N>(
          "visit", n, [=](idx_t i, int k) { ++h[static_cast<std::size_t>(k) * n + i]; },
          [=](idx_t i) {
            for (int k = 0; k < N; ++k)
              ++h[static_cast<std::size_t>(k) * n + i];
          },
          m);
      for (std::size_t i = 0; i < hits.size(); ++i)
        ASSERT_EQ(hits[i], 1) << "n " << n << ", entry " << i;
    }
  }
}

TEST(ComponentMapping, EulerResidualIsBitwiseTheSameWithEitherMapping) {
  expect_same_residual("[freestream]\nmach = 0.9\naoa = 3\n[scheme]\nlimiter = venkat\n");
  expect_same_residual("[freestream]\nmach = 0.9\naoa = 3\n[scheme]\nlimiter = venkat_wang\n");
  expect_same_residual("[freestream]\nmach = 0.9\naoa = 3\n[scheme]\nlimiter = barth\n");
  expect_same_residual("[freestream]\nmach = 0.9\naoa = 3\n[scheme]\nlimiter = none\n");
  expect_same_residual(
      "[freestream]\nmach = 0.9\naoa = 3\n[scheme]\nlimiter_region = supersonic\n");
}

TEST(ComponentMapping, MixedPrecisionResidualIsBitwiseTheSameWithEitherMapping) {
  expect_same_residual("[freestream]\nmach = 0.9\naoa = 3\n[scheme]\nprecision = mixed\n");
}

TEST(ComponentMapping, ViscousAndRansResidualsAreBitwiseTheSameWithEitherMapping) {
  expect_same_residual("[physics]\nmodel = navier_stokes\n[freestream]\nmach = 0.9\naoa = 3\n"
                       "reynolds = 1e5\n");
  expect_same_residual("[physics]\nmodel = rans_sa\n[freestream]\nmach = 0.9\naoa = 3\n"
                       "reynolds = 1e6\n");
}

TEST(ComponentMapping, TheCpuBackendInterpolatesPerNode) {
  const fv::Mesh mesh = fv::testing::box_mesh(4, 3, 3, {0, 0, 0}, {2, 1, 1}, true, 0.2);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  for (const char* order : {"2", "1"}) {
    const fv::CaseConfig cfg = fv::resolve_case(
        fv::IniFile::parse(std::string("[freestream]\nmach = 0.5\n[scheme]\norder = ") + order +
                               "\n" + fv::testing::kBoxWallZminPatches,
                           "mapping.ini"),
        mesh.patches);
    fv::SpatialOperator op(zone, cfg);
    const fv::DeviceArray<real_t> U(fv::testing::smooth_state(zone, cfg, 0.2), "U");
    const std::string note = fv::choose_node_loop(op, U.data());
    if (order[0] == '2') {
      EXPECT_EQ(op.node_loop(), fv::ComponentMapping::PerEntity);
      EXPECT_EQ(note, "one thread per node (CPU backend)");
    } else {
      EXPECT_EQ(note, "not used (first order, inviscid)");
    }
  }
}
