// LU-SGS sweep orderings against the sequential (natural-order) reference:
//  - hyperplanes reproduce the natural-order sweep (their construction puts every lower-numbered
//    neighbour in an earlier group), so dU agrees to rounding, for one and several sweeps;
//  - a colouring with one cell per colour in cell order is the natural order again;
//  - a real colouring gives a different single sweep, but many sweeps of every ordering
//    converge to the same solution of (D + L + U) dU = -R, which does not depend on ordering;
//  - invalid groupings are rejected;
//  - every lusgs_launch mode (one fv::forall_groups per sweep) gives bitwise the dU of the
//    former one-launch-per-group loop (kernels::lusgs_sweep_group for each group in turn).
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/euler/euler_state.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/lusgs.hpp"
#include "tests/lusgs/lusgs_zones.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

using fv::idx_t;
using fv::real_t;

namespace {

const std::string kChannelCase = std::string(R"(
[freestream]
nondimensional = true
mach = 0.5
lift_axis = y
)") + fv::testing::channel_patches("subsonic_inflow", "subsonic_outflow");

/// A non-uniform state on a generated zone, its residual, primitives and local time step, all
/// on the (CPU) device, for feeding LusgsSolver::solve directly.
struct SweepInputs {
  fv::testing::TestZone tz;
  fv::CaseConfig cfg;
  std::unique_ptr<fv::DeviceZone> dz;
  fv::DeviceArray<real_t> W, R, dt;

  /// parts > 1: zone 0 of a split into `parts` zones (with halo cells), cells not shuffled.
  SweepInputs(fv::GenCells cells, std::array<std::int64_t, 3> n, real_t cfl = 50.0, int parts = 1) {
    fv::GenOptions o;
    o.family = fv::MeshFamily::Channel;
    o.cells = cells;
    o.n = n;
    o.perturb = 0.2;
    o.shuffle = parts == 1;
    tz = fv::testing::generated_zone(o, parts, 0);
    // with halo cells: first order, so that only the primitives need filling in the halo
    const std::string text = kChannelCase + (parts > 1 ? "[scheme]\norder = 1\n" : "");
    cfg = fv::resolve_case(fv::IniFile::parse(text, "channel case"), tz.patches);
    fv::EulerSolver s(tz.zone, cfg);
    s.initialise();
    // smooth perturbation of density and pressure so that R is far from zero everywhere
    std::vector<real_t> U = s.conservative();
    const idx_t nt = tz.zone.nTotalCells();
    for (idx_t c = 0; c < nt; ++c) {
      const real_t* x = &tz.zone.cellCentroid[3 * c];
      const real_t f = 1.0 + 0.1 * std::sin(3.0 * x[0]) * std::cos(4.0 * x[1] + x[2]);
      U[0 * nt + c] *= f;
      U[4 * nt + c] *= f * f;
    }
    s.set_conservative(U);
    // stand-in for the MPI halo exchange (CPU backend: device memory is host memory): the
    // halo cells' primitives from their conservative state
    s.set_exchange([&](const char* what, real_t* field, int) {
      if (std::string(what) != "primitives") return;
      for (idx_t c = tz.zone.nCells; c < nt; ++c) {
        real_t u[5], w[5];
        for (int k = 0; k < 5; ++k)
          u[k] = U[k * nt + c];
        fv::phys::cons_to_prim(u, w, cfg.flow.gamma);
        for (int k = 0; k < 5; ++k)
          field[k * nt + c] = w[k];
      }
    });
    const std::vector<real_t> Rh = s.residual();
    const std::vector<real_t> Wh = s.primitive();
    dz = std::make_unique<fv::DeviceZone>(tz.zone);
    W = fv::DeviceArray<real_t>(Wh, "W");
    R = fv::DeviceArray<real_t>(Rh, "R");
    dt = fv::DeviceArray<real_t>(static_cast<std::size_t>(nt), "dt");
    fv::kernels::local_time_step(dz->view(), cfg.flow.gamma, cfl, W.data(), dt.data());
  }

  std::vector<real_t> solve(fv::LusgsOrdering ord, int sweeps, const fv::Csr* groups = nullptr,
                            idx_t* nGroups = nullptr, const fv::CellExchange& ex = {},
                            fv::LusgsLaunch launch = fv::LusgsLaunch::Persistent) {
    fv::LusgsSettings s = fv::lusgs_settings(cfg);
    s.launch = launch;
    s.ordering = ord;
    s.sweeps = sweeps;
    fv::LusgsSolver l(tz.zone, dz->view(), s, groups);
    l.solve(W.data(), R.data(), dt.data(), -1.0, ex);
    if (nGroups) *nGroups = l.group_count();
    return l.delta().to_host();
  }
};

struct OrderingCase {
  const char* name;
  fv::GenCells cells;
  std::array<std::int64_t, 3> n;
};

} // namespace

class LusgsOrderings : public ::testing::TestWithParam<OrderingCase> {};

TEST_P(LusgsOrderings, HyperplaneReproducesNaturalOrder) {
  SweepInputs in(GetParam().cells, GetParam().n);
  for (int sweeps : {1, 3}) {
    idx_t nh = 0;
    const auto ref = in.solve(fv::LusgsOrdering::Natural, sweeps);
    const auto hyp = in.solve(fv::LusgsOrdering::Hyperplane, sweeps, nullptr, &nh);
    const double d = fv::testing::max_relative_difference(in.tz.zone, ref, hyp);
    std::cout << GetParam().name << ": " << in.tz.zone.nCells << " cells, " << nh
              << " hyperplanes, " << sweeps << " sweep(s): |hyperplane - natural| / |dU| = " << d
              << "\n";
    EXPECT_LT(d, 1e-14);
    EXPECT_GT(nh, 1);
    EXPECT_LT(nh, in.tz.zone.nCells);
  }
}

TEST_P(LusgsOrderings, OneColourPerCellIsNaturalOrder) {
  SweepInputs in(GetParam().cells, GetParam().n);
  const idx_t n = in.tz.zone.nCells;
  std::vector<idx_t> off(n + 1), idx(n);
  for (idx_t c = 0; c <= n; ++c)
    off[c] = c;
  for (idx_t c = 0; c < n; ++c)
    idx[c] = c;
  const fv::Csr trivial(fv::Array<idx_t>(std::move(off)), fv::Array<idx_t>(std::move(idx)));
  const auto ref = in.solve(fv::LusgsOrdering::Natural, 2);
  const auto col = in.solve(fv::LusgsOrdering::Colour, 2, &trivial);
  EXPECT_LT(fv::testing::max_relative_difference(in.tz.zone, ref, col), 1e-14);
}

TEST_P(LusgsOrderings, ColourConvergesToTheSameLinearSolution) {
  // a moderate CFL so that 60 sweeps converge the (nonlinear, flux-difference) system tightly
  SweepInputs in(GetParam().cells, GetParam().n, 5.0);
  idx_t nc = 0;
  const auto ref1 = in.solve(fv::LusgsOrdering::Natural, 1);
  const auto col1 = in.solve(fv::LusgsOrdering::Colour, 1, nullptr, &nc);
  const double d1 = fv::testing::max_relative_difference(in.tz.zone, ref1, col1);
  const auto refN = in.solve(fv::LusgsOrdering::Natural, 60);
  const auto colN = in.solve(fv::LusgsOrdering::Colour, 60);
  const auto hypN = in.solve(fv::LusgsOrdering::Hyperplane, 60);
  const double dN = fv::testing::max_relative_difference(in.tz.zone, refN, colN);
  const double dH = fv::testing::max_relative_difference(in.tz.zone, refN, hypN);
  std::cout << GetParam().name << ": " << nc << " colours; |colour - natural| / |dU| after 1 sweep "
            << d1 << ", after 60 sweeps " << dN << "\n";
  EXPECT_LT(nc, 40);
  EXPECT_GT(d1, 1e-6); // a different sweep order really is different for one sweep...
  EXPECT_LT(dN, 1e-9); // ...but converges to the ordering-independent fixed point
  EXPECT_LT(dH, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Meshes, LusgsOrderings,
                         ::testing::Values(OrderingCase{"hex", fv::GenCells::Hex, {16, 6, 3}},
                                           OrderingCase{"tet", fv::GenCells::Tet, {8, 4, 2}},
                                           OrderingCase{"mixed", fv::GenCells::Mixed, {8, 4, 2}}),
                         [](const ::testing::TestParamInfo<OrderingCase>& i) {
                           return std::string(i.param.name);
                         });

TEST(LusgsGroups, RejectsNeighboursInOneGroup) {
  SweepInputs in(fv::GenCells::Hex, {4, 2, 1});
  const idx_t n = in.tz.zone.nCells;
  std::vector<idx_t> off = {0, n}, idx(n);
  for (idx_t c = 0; c < n; ++c)
    idx[c] = c;
  const fv::Csr one(fv::Array<idx_t>(std::move(off)), fv::Array<idx_t>(std::move(idx)));
  EXPECT_THROW(in.solve(fv::LusgsOrdering::Colour, 1, &one), fv::Error);
  std::vector<idx_t> off2 = {0, 1}, idx2 = {0};
  const fv::Csr partial(fv::Array<idx_t>(std::move(off2)), fv::Array<idx_t>(std::move(idx2)));
  EXPECT_THROW(in.solve(fv::LusgsOrdering::Colour, 1, &partial), fv::Error);
}

// Zone 0 of a two-zone split: block Jacobi. Halo cells are no lower neighbours, their dU stays
// exactly zero without an exchange, hyperplanes still reproduce the natural order inside the
// zone, and the CellExchange hook runs between the forward and the backward sweep: what it puts
// into the halo dU reaches the backward sweep (and only it).
TEST(LusgsZones, BlockJacobiAcrossZones) {
  SweepInputs in(fv::GenCells::Hex, {16, 6, 2}, 50.0, 2);
  const fv::Zone& z = in.tz.zone;
  ASSERT_GT(z.nHaloCells, 0);
  const idx_t nt = z.nTotalCells();
  const auto ref = in.solve(fv::LusgsOrdering::Natural, 2);
  const auto hyp = in.solve(fv::LusgsOrdering::Hyperplane, 2);
  EXPECT_LT(fv::testing::max_relative_difference(z, ref, hyp), 1e-14);
  for (int k = 0; k < 5; ++k)
    for (idx_t c = 0; c < z.nCells; ++c)
      ASSERT_TRUE(std::isfinite(ref[k * nt + c])) << "cell " << c;
  for (int k = 0; k < 5; ++k)
    for (idx_t h = z.nCells; h < nt; ++h)
      ASSERT_EQ(hyp[k * nt + h], 0.0) << "halo dU of cell " << h;

  int calls = 0;
  const fv::CellExchange fill = [&](const char* what, real_t* field, int ncomp) {
    ++calls;
    EXPECT_STREQ(what, "lusgs dU*");
    EXPECT_EQ(ncomp, 5);
    for (int k = 0; k < 5; ++k)
      for (idx_t h = z.nCells; h < nt; ++h)
        field[k * nt + h] = 1e-3 * std::fabs(ref[k * nt + z.cellCells.row(0)[0]]) + 1e-6;
  };
  const auto coupled = in.solve(fv::LusgsOrdering::Hyperplane, 1, nullptr, nullptr, fill);
  const auto jacobi = in.solve(fv::LusgsOrdering::Hyperplane, 1);
  EXPECT_EQ(calls, 1);
  double change = 0;
  for (int k = 0; k < 5; ++k)
    for (idx_t c = 0; c < z.nCells; ++c) {
      ASSERT_TRUE(std::isfinite(coupled[k * nt + c]));
      change = std::max(change, std::fabs(coupled[k * nt + c] - jacobi[k * nt + c]));
    }
  EXPECT_GT(change, 0.0); // the backward sweep saw the exchanged halo dU
}

// One symmetric sweep of every launch mode against the sweep launched group by group through
// the public kernels (what LusgsSolver did before fv::forall_groups): bitwise equal. The mesh
// is large enough that the largest cell colours exceed kOpenMPMinLoop, so the OpenMP team path
// of forall_groups is taken next to its single-thread runs of small groups.
TEST(LusgsLaunch, EveryModeEqualsOneLaunchPerGroup) {
  SweepInputs in(fv::GenCells::Hex, {48, 24, 32});
  // the scalar operator (no block diagonals), which the public kernels below reproduce
  in.cfg.lusgs.boundaryJacobian = false;
  const fv::Zone& z = in.tz.zone;
  const idx_t n = z.nCells, nt = z.nTotalCells();
  for (fv::LusgsOrdering ord : {fv::LusgsOrdering::Hyperplane, fv::LusgsOrdering::Colour}) {
    const fv::Csr& g = ord == fv::LusgsOrdering::Colour ? z.cellColours : z.hyperplanes;
    std::vector<idx_t> rank(static_cast<std::size_t>(nt), fv::kernels::kHaloRank);
    idx_t largest = 0;
    for (idx_t r = 0; r < g.rows(); ++r) {
      largest = std::max(largest, g.size(r));
      for (idx_t k = 0; k < g.size(r); ++k)
        rank[g.row(r)[k]] = r;
    }
    fv::DeviceArray<idx_t> cells(g.indices(), "cells");
    fv::DeviceArray<real_t> lambda(static_cast<std::size_t>(z.nFaces), "lambda"),
        D(static_cast<std::size_t>(n), "D"), dU(5 * static_cast<std::size_t>(nt), "dU"),
        lower(5 * static_cast<std::size_t>(n), "lower"),
        upper(5 * static_cast<std::size_t>(n), "upper");
    fv::kernels::LusgsFields f;
    f.gamma = in.cfg.flow.gamma;
    f.omega = in.cfg.lusgs.omega;
    f.W = in.W.data();
    f.R = in.R.data();
    f.D = D.data();
    f.lambda = lambda.data();
    const fv::kernels::SweepNeighbours nb(z, rank);
    nb.attach(f);
    f.dU = dU.data();
    f.lower = lower.data();
    f.upper = upper.data();
    const fv::ZoneView& v = in.dz->view();
    fv::kernels::lusgs_face_radius(v, f.gamma, f.W, true, true, lambda.data());
    fv::kernels::lusgs_diagonal(v, f.omega, in.dt.data(), -1.0, lambda.data(), D.data());
    for (idx_t r = 0; r < g.rows(); ++r)
      fv::kernels::lusgs_sweep_group(v, f, true, cells.data() + g.offsets()[r], g.size(r));
    for (idx_t r = g.rows() - 1; r >= 0; --r)
      fv::kernels::lusgs_sweep_group(v, f, false, cells.data() + g.offsets()[r], g.size(r));
    const std::vector<real_t> ref = dU.to_host();
    std::cout << fv::to_string(ord) << ": " << g.rows() << " groups, largest " << largest
              << " cells (OpenMP team from " << fv::kOpenMPMinLoop << ")\n";
    for (fv::LusgsLaunch m : {fv::LusgsLaunch::Plain, fv::LusgsLaunch::Graph,
                              fv::LusgsLaunch::Persistent, fv::LusgsLaunch::Hybrid}) {
      const auto got = in.solve(ord, 1, nullptr, nullptr, {}, m);
      ASSERT_EQ(got.size(), ref.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < ref.size(); ++i)
        differ += got[i] != ref[i] ? 1 : 0; // bitwise: exactly the same operations per cell
      EXPECT_EQ(differ, 0u) << fv::to_string(ord) << ", lusgs_launch = " << fv::to_string(m);
    }
  }
}
