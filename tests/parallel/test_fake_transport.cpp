// The transport interface (backend/communicator.hpp) driven by an in-process fake
// (fake_transport.hpp): the "ranks" are threads of this process, so the halo exchanges, the
// collective errors and a whole multi-zone solver run against the interface alone, without MPI.
#include "prep/generate_mesh.hpp"
#include "prep/prepare.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/lusgs/lusgs_zones.hpp"
#include "tests/parallel/chain_zones.hpp"
#include "tests/parallel/fake_transport.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <exception>
#include <thread>

using namespace fv;
using fv::parallel::FieldView;
using fv::parallel::HaloExchange;
using fv::parallel::HaloMode;

namespace {

/// Runs body(comm) on `size` threads, one FakeCommunicator each; rethrows the first failure.
void on_ranks(int size, const std::function<void(backend::Communicator&)>& body) {
  set_active_device(Device::Cpu); // the fake moves host memory
  fv::testing::FakeHub hub(size);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(size));
  std::vector<std::thread> threads;
  for (int r = 0; r < size; ++r)
    threads.emplace_back([&, r] {
      fv::testing::FakeCommunicator comm(hub, r);
      try {
        body(comm);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : threads)
    t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

real_t cell_value(gidx_t g, int j, int round) {
  return 100.0 * g + j + 0.001 * round;
}

} // namespace

TEST(FakeTransport, HaloCellsAndNodeSumsOverThreeRanks) {
  constexpr int kRanks = 3;
  constexpr gidx_t kCells = 11;
  on_ranks(kRanks, [&](backend::Communicator& comm) {
    const Zone z = fv::testing::make_chain_zone(kCells, comm.size(), comm.rank());
    HaloExchange cells(comm, z.cellExchange, z.nTotalCells(), 8, HaloMode::Copy, "cells");
    EXPECT_EQ(cells.transport(), "in-process fake");
    for (int round = 1; round <= 3; ++round) { // buffers reused, fields changing
      const idx_t n = z.nTotalCells();
      std::vector<real_t> u(5 * static_cast<std::size_t>(n), -1.0), g(3 * n, -1.0);
      for (idx_t c = 0; c < z.nCells; ++c) {
        for (int j = 0; j < 5; ++j)
          u[c * 5 + j] = cell_value(z.cellGlobalId[c], j, round);
        for (int j = 0; j < 3; ++j)
          g[j * n + c] = -cell_value(z.cellGlobalId[c], j, round);
      }
      cells.begin({FieldView::interleaved(u.data(), 5), FieldView::blocked(g.data(), 3, n)});
      cells.progress();
      cells.finish();
      for (idx_t c = 0; c < n; ++c) {
        for (int j = 0; j < 5; ++j)
          ASSERT_EQ(u[c * 5 + j], cell_value(z.cellGlobalId[c], j, round)) << "cell " << c;
        for (int j = 0; j < 3; ++j)
          ASSERT_EQ(g[j * n + c], -cell_value(z.cellGlobalId[c], j, round)) << "cell " << c;
      }
    }
    // node partial sums: every zone holds (rank + 1) for each of its nodes; a shared node ends
    // with the sum over the zones that hold it
    HaloExchange nodes(comm, z.nodeExchange, z.nNodes, 1, HaloMode::Sum, "nodes");
    std::vector<real_t> v(static_cast<std::size_t>(z.nNodes), comm.rank() + 1.0);
    nodes.exchange({FieldView::interleaved(v.data(), 1)});
    for (idx_t i = 0; i < z.nNodes; ++i) {
      real_t expect = comm.rank() + 1.0;
      for (idx_t k = 0; k < z.nodeExchange.send.rows(); ++k)
        for (idx_t j = z.nodeExchange.send.begin(k); j < z.nodeExchange.send.end(k); ++j)
          if (z.nodeExchange.send.indices()[j] == i) expect += z.nodeExchange.neighbours[k] + 1.0;
      EXPECT_EQ(v[i], expect) << "node " << i;
    }
    EXPECT_EQ(parallel::sum_all(comm, comm.rank() + 1), kRanks * (kRanks + 1) / 2);
  });
}

TEST(FakeTransport, InconsistentListsAreRefusedOnEveryRank) {
  std::vector<std::string> messages(2);
  on_ranks(2, [&](backend::Communicator& comm) {
    Zone z = fv::testing::make_chain_zone(9, comm.size(), comm.rank());
    if (comm.rank() == 1) z.cellExchange.send = Csr(Array<idx_t>{0, 0}, Array<idx_t>{});
    try {
      HaloExchange cells(comm, z.cellExchange, z.nTotalCells(), 5, HaloMode::Copy, "cells");
      ADD_FAILURE() << "inconsistent lists accepted on rank " << comm.rank();
    } catch (const Error& e) {
      messages[static_cast<std::size_t>(comm.rank())] = e.what();
    }
  });
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_NE(messages[0].find("zone 1 sends 0 entries to zone 0, which expects 1"),
            std::string::npos)
      << messages[0];
}

namespace {

PreparedZones channel_in(int parts) {
  const Mesh mesh = generate_mesh(fv::testing::transonic_channel_options());
  PrepareOptions po;
  po.parts = parts;
  return prepare_zones(mesh, build_faces(mesh, po.prep.faces), po);
}

/// Runs `text` on zone 0 of `one` alone and on both zones of `two` on two threads through the
/// fake transport, each starting from `start` (one's state, nVars x nTotalCells of one's zone;
/// empty: the free stream), and expects the same residual history to 1e-12 and the same lift.
void expect_two_zones_like_one(const PreparedZones& one, const PreparedZones& two,
                               const std::string& text, const std::vector<real_t>& start = {}) {
  auto solve = [&](const Zone& zone, const std::vector<Patch>& patches,
                   backend::Communicator* comm) {
    const CaseConfig cfg = resolve_case(IniFile::parse(text, "fake.ini"), patches);
    ParallelSetup par;
    par.comm = comm;
    EulerSolver solver(zone, cfg, par);
    solver.initialise();
    if (!start.empty()) { // one's state, cell by global id
      const Zone& z1 = one.zones[0];
      const int nv = solver.state().nVars;
      const idx_t n1 = z1.nTotalCells(), nt = zone.nTotalCells();
      std::vector<idx_t> local1(static_cast<std::size_t>(n1));
      for (idx_t c = 0; c < n1; ++c)
        local1[static_cast<std::size_t>(z1.cellGlobalId[c])] = c;
      std::vector<real_t> U(static_cast<std::size_t>(nv) * nt);
      for (idx_t c = 0; c < nt; ++c)
        for (int k = 0; k < nv; ++k)
          U[k * nt + c] = start[k * n1 + local1[static_cast<std::size_t>(zone.cellGlobalId[c])]];
      solver.set_conservative(U);
    }
    return run_case(solver);
  };
  const RunSummary single = solve(one.zones[0], one.header.patches, nullptr);
  std::vector<RunSummary> zones(2);
  on_ranks(2, [&](backend::Communicator& comm) {
    zones[static_cast<std::size_t>(comm.rank())] =
        solve(two.zones[static_cast<std::size_t>(comm.rank())], two.header.patches, &comm);
  });
  ASSERT_EQ(single.history.size(), zones[0].history.size());
  ASSERT_GE(single.history.size(), 10u);
  for (std::size_t i = 0; i < single.history.size(); ++i)
    for (const std::size_t k : {std::size_t{0}, single.history[i].logResidual.size() - 1}) {
      const double a = std::pow(10.0, single.history[i].logResidual[k]);
      for (const RunSummary& z : zones)
        ASSERT_NEAR(std::pow(10.0, z.history[i].logResidual[k]), a, 1e-12 * std::abs(a))
            << "iteration row " << i << ", equation " << k;
    }
  EXPECT_NEAR(zones[0].history.back().coeff.CL, single.history.back().coeff.CL,
              1e-12 * std::abs(single.history.back().coeff.CL) + 1e-15);
  EXPECT_EQ(zones[0].history.back().coeff.CL, zones[1].history.back().coeff.CL);
}

} // namespace

// The transonic channel cut by METIS into two zones, each solved on its own thread through the
// fake transport, against the same mesh as one zone: the same residual history to 1e-12 (the
// MPI run of tests/mpi_run holds the same bound through fvrun, on the same columns: density and
// energy; the z-momentum residual of this 2D flow is rounding noise, ~1e-12 absolute).
TEST(FakeTransport, TwoZoneSolverMatchesOneZone) {
  const std::string text = "[freestream]\nnondimensional = true\nmach = 0.8\nlift_axis = y\n"
                           "[time]\nintegrator = ssprk3\ncfl = 1\niterations = 30\n"
                           "[monitor]\noutput_interval = 1\n" +
                           fv::testing::channel_patches();
  expect_two_zones_like_one(channel_in(1), channel_in(2), text);
}

// The same with the Navier-Stokes model from a developed transonic state (a supersonic pocket
// and a weak shock): its default limiter_region = supersonic limits only the cells next to
// supersonic flow, decided per node from the cells of every zone around it (the excess travels
// in the node exchange), so two zones limit exactly the cells one zone limits.
TEST(FakeTransport, TwoZoneLimiterRegionMatchesOneZone) {
  const PreparedZones one = channel_in(1), two = channel_in(2);
  const std::string physics = "[freestream]\nnondimensional = true\nmach = 0.8\nlift_axis = y\n"
                              "reynolds = 20000\n[physics]\nmodel = navier_stokes\n" +
                              fv::testing::channel_patches();
  set_active_device(Device::Cpu);
  const CaseConfig cfg =
      resolve_case(IniFile::parse(physics + "[time]\niterations = 30\nconvergence = 0\n", "ns.ini"),
                   one.header.patches);
  ASSERT_EQ(cfg.scheme.limiterRegion, LimiterRegion::Supersonic);
  EulerSolver developed(one.zones[0], cfg);
  developed.initialise();
  run_case(developed); // Newton
  const std::vector<real_t> W = developed.primitive();
  const idx_t nt = one.zones[0].nTotalCells();
  int supersonic = 0;
  for (idx_t c = 0; c < one.zones[0].nCells; ++c) {
    const real_t q2 =
        W[nt + c] * W[nt + c] + W[2 * nt + c] * W[2 * nt + c] + W[3 * nt + c] * W[3 * nt + c];
    supersonic += q2 > cfg.flow.gamma * W[4 * nt + c] / W[c];
  }
  ASSERT_GT(supersonic, 0) << "no supersonic pocket: the region would be empty";
  // the converged state perturbed (its own residual is rounding noise), so that the runs
  // compared have residuals to compare
  std::vector<real_t> U = developed.conservative();
  for (idx_t c = 0; c < nt; ++c) {
    const real_t* x = &one.zones[0].cellCentroid[3 * c];
    const real_t f = 1.0 + 0.01 * std::sin(7.0 * x[0]) * std::cos(5.0 * x[1]);
    U[c] *= f;
    U[4 * nt + c] *= f;
  }
  expect_two_zones_like_one(one, two,
                            physics + "[time]\nintegrator = ssprk3\ncfl = 0.5\niterations = 10\n"
                                      "startup_orders = 0\n[monitor]\noutput_interval = 1\n",
                            U);
}
