// Halo exchange (runtime/parallel/halo_exchange), rank/zone mapping, collective errors and
// reductions under mpiexec -n 2 and -n 4, with synthetic chain zones (tests/parallel/
// chain_zones.hpp) built with hand-made exchange lists. Runs on the CPU backend (OpenMP).
#include "common/error.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/mpi_cuda.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/parallel/zone_mapping.hpp"
#include "tests/parallel/chain_zones.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <mpi.h>

using namespace fv;
using fv::parallel::comm_rank;
using fv::parallel::comm_size;
using fv::parallel::FieldView;
using fv::parallel::HaloExchange;
using fv::parallel::HaloMode;

namespace {

constexpr gidx_t kCells = 13;
const real_t kNaN = std::numeric_limits<real_t>::quiet_NaN();

real_t cell_value(gidx_t g, int j, int iteration) {
  return 100.0 * g + j + 0.001 * iteration;
}

/// Host-staged MPI over MPI_COMM_WORLD (plain MPI on the CPU backend).
backend::Communicator& world() {
  static const std::unique_ptr<backend::Communicator> c =
      backend::make_mpi_communicator(MPI_COMM_WORLD);
  return *c;
}

/// Every transport that can run here, on the active device (COLLECTIVE).
std::vector<std::unique_ptr<backend::Communicator>> available_transports() {
  std::vector<std::unique_ptr<backend::Communicator>> out;
  for (const auto k : {backend::TransportKind::HostStagedMpi, backend::TransportKind::CudaAwareMpi,
                       backend::TransportKind::Nccl, backend::TransportKind::CudaIpc})
    if (backend::transport_available(MPI_COMM_WORLD, k).ok)
      out.push_back(backend::make_communicator(MPI_COMM_WORLD, k));
  return out;
}

Zone my_zone() {
  return fv::testing::make_chain_zone(kCells, comm_size(MPI_COMM_WORLD), comm_rank(MPI_COMM_WORLD));
}

/// Interleaved K values per cell: owned cells hold cell_value(), halo cells NaN.
std::vector<real_t> owned_only(const Zone& z, int k, int iteration) {
  std::vector<real_t> u(static_cast<std::size_t>(z.nTotalCells()) * k, kNaN);
  for (idx_t c = 0; c < z.nCells; ++c)
    for (int j = 0; j < k; ++j)
      u[c * k + j] = cell_value(z.cellGlobalId[c], j, iteration);
  return u;
}

} // namespace

TEST(HaloExchange, HaloCellsReceiveTheOwnersValues) {
  const Zone z = my_zone();
  HaloExchange halo(world(), z.cellExchange, z.nTotalCells(), 5, HaloMode::Copy);
  EXPECT_EQ(halo.neighbour_count(), static_cast<int>(z.cellExchange.neighbours.size()));
  EXPECT_EQ(halo.recv_entries(), static_cast<std::size_t>(z.nHaloCells));
  auto u = owned_only(z, 5, 0);
  halo.exchange({FieldView::interleaved(u.data(), 5)});
  for (idx_t c = 0; c < z.nTotalCells(); ++c)
    for (int j = 0; j < 5; ++j)
      EXPECT_EQ(u[c * 5 + j], cell_value(z.cellGlobalId[c], j, 0)) << "local cell " << c;
}

TEST(HaloExchange, SeveralLayoutsInOneMessageAndOverlappedIterations) {
  const Zone z = my_zone();
  const idx_t n = z.nTotalCells();
  HaloExchange halo(world(), z.cellExchange, n, 5 + 3, HaloMode::Copy, "cells");
  for (int it = 1; it <= 5; ++it) {
    auto u = owned_only(z, 5, it);      // interleaved
    std::vector<real_t> g(3 * n, kNaN); // blocked: g[j * n + c]
    for (idx_t c = 0; c < z.nCells; ++c)
      for (int j = 0; j < 3; ++j)
        g[j * n + c] = -cell_value(z.cellGlobalId[c], j, it);
    halo.begin({FieldView::interleaved(u.data(), 5), FieldView::blocked(g.data(), 3, n)});
    EXPECT_TRUE(halo.in_flight());
    EXPECT_THROW(halo.begin({FieldView::interleaved(u.data(), 5)}), Error);
    // "Interior work" while messages fly: owned values must not be disturbed by the exchange.
    real_t interior = 0;
    for (idx_t c = 0; c < z.nInteriorCells; ++c) {
      interior += u[c * 5];
      halo.progress();
    }
    halo.finish();
    EXPECT_FALSE(halo.in_flight());
    real_t interior_after = 0;
    for (idx_t c = 0; c < z.nInteriorCells; ++c)
      interior_after += u[c * 5];
    EXPECT_EQ(interior, interior_after);
    for (idx_t c = 0; c < n; ++c) {
      for (int j = 0; j < 5; ++j)
        EXPECT_EQ(u[c * 5 + j], cell_value(z.cellGlobalId[c], j, it));
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(g[j * n + c], -cell_value(z.cellGlobalId[c], j, it));
    }
  }
  std::vector<real_t> too_many(9 * n);
  EXPECT_THROW(halo.begin({FieldView::interleaved(too_many.data(), 9)}), Error);
  EXPECT_THROW(halo.finish(), Error);
}

TEST(HaloExchange, NodePartialSumsAreCompletedOnEveryZone) {
  const int size = comm_size(MPI_COMM_WORLD), rank = comm_rank(MPI_COMM_WORLD);
  const Zone z = my_zone();
  // Zone p's partial sum of node g: (p + 1) * (g + 1), two components with different scales.
  auto partial = [](int p, gidx_t g, int j) { return (p + 1.0) * (g + 1.0) * (j == 0 ? 1 : -0.5); };
  // Expected totals, from all zones built independently here.
  std::map<gidx_t, real_t> total[2];
  for (int p = 0; p < size; ++p) {
    const Zone zp = fv::testing::make_chain_zone(kCells, size, p);
    for (idx_t i = 0; i < zp.nNodes; ++i)
      for (int j = 0; j < 2; ++j)
        total[j][zp.nodeGlobalId[i]] += partial(p, zp.nodeGlobalId[i], j);
  }
  std::vector<real_t> v(2 * static_cast<std::size_t>(z.nNodes));
  for (idx_t i = 0; i < z.nNodes; ++i)
    for (int j = 0; j < 2; ++j)
      v[2 * i + j] = partial(rank, z.nodeGlobalId[i], j);
  HaloExchange nodes(world(), z.nodeExchange, z.nNodes, 2, HaloMode::Sum, "nodes");
  nodes.exchange({FieldView::interleaved(v.data(), 2)});
  int shared = 0;
  for (idx_t i = 0; i < z.nNodes; ++i) {
    const gidx_t g = z.nodeGlobalId[i];
    shared += total[0][g] != partial(rank, g, 0);
    for (int j = 0; j < 2; ++j)
      EXPECT_DOUBLE_EQ(v[2 * i + j], total[j][g]) << "node " << g;
  }
  EXPECT_EQ(shared, 4 * static_cast<int>(z.nodeExchange.neighbours.size()));
}

TEST(HaloExchange, NodeSharedByEveryZoneSumsOverAllOfThem) {
  // Hand-built lists: every zone holds node 0 (a corner shared by all zones) and, for each
  // other zone q, one node shared with q only (global id 1 + a * size + b for zones a < b).
  const int size = comm_size(MPI_COMM_WORLD), rank = comm_rank(MPI_COMM_WORLD);
  auto pair_node = [&](int a, int b) -> gidx_t {
    return 1 + std::min(a, b) * static_cast<gidx_t>(size) + std::max(a, b);
  };
  std::vector<gidx_t> gid = {0};
  std::vector<std::int32_t> nbrs;
  std::vector<idx_t> off{0}, idx;
  for (int q = 0; q < size; ++q) {
    if (q == rank) continue;
    nbrs.push_back(q);
    gid.push_back(pair_node(rank, q));
    idx.insert(idx.end(), {0, static_cast<idx_t>(gid.size() - 1)}); // ascending global ids
    off.push_back(static_cast<idx_t>(idx.size()));
  }
  ExchangeLists l;
  l.neighbours = Array<std::int32_t>(std::move(nbrs));
  l.send = Csr(Array<idx_t>(std::vector<idx_t>(off)), Array<idx_t>(std::vector<idx_t>(idx)));
  l.recv = Csr(Array<idx_t>(std::move(off)), Array<idx_t>(std::move(idx)));
  auto partial = [](int zone, gidx_t g) { return (zone + 1.0) * (g + 1.0); };
  std::vector<real_t> v;
  for (gidx_t g : gid)
    v.push_back(partial(rank, g));
  HaloExchange nodes(world(), l, static_cast<idx_t>(gid.size()), 1, HaloMode::Sum);
  for (int round = 0; round < 2; ++round) { // a second exchange sums the totals again
    nodes.exchange({FieldView::interleaved(v.data(), 1)});
    real_t corner = 0;
    for (int z = 0; z < size; ++z)
      corner += partial(z, 0);
    const real_t factor = round == 0 ? 1.0 : size; // corner: size zones each add the total
    EXPECT_DOUBLE_EQ(v[0], corner * factor);
    for (std::size_t i = 1; i < gid.size(); ++i) {
      const int q = static_cast<int>(l.neighbours[i - 1]);
      const real_t pair = partial(rank, gid[i]) + partial(q, gid[i]);
      EXPECT_DOUBLE_EQ(v[i], round == 0 ? pair : 2 * pair) << "node " << gid[i];
    }
  }
}

TEST(HaloExchange, DeviceMemoryOnTheGpuWithEveryTransport) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA backend or no GPU";
  const int rank = comm_rank(MPI_COMM_WORLD);
  set_active_device(Device::Cuda);
  const Zone z = my_zone();
  const auto transports = available_transports();
  if (rank == 0)
    for (const auto& t : transports)
      std::printf("[ transport ] %s\n", t->name().c_str());
  for (const auto& t : transports) {
    SCOPED_TRACE(t->name());
    HaloExchange halo(*t, z.cellExchange, z.nTotalCells(), 5, HaloMode::Copy);
    const auto host = owned_only(z, 5, 7);
    DeviceArray<real_t> u(host, "u");
    halo.exchange({FieldView::interleaved(u.data(), 5)});
    std::vector<real_t> back(host.size());
    u.copy_to(back.data());
    for (idx_t c = 0; c < z.nTotalCells(); ++c)
      for (int j = 0; j < 5; ++j)
        EXPECT_EQ(back[c * 5 + j], cell_value(z.cellGlobalId[c], j, 7));

    HaloExchange nodes(*t, z.nodeExchange, z.nNodes, 1, HaloMode::Sum);
    std::vector<real_t> ones(static_cast<std::size_t>(z.nNodes), 1.0 + rank);
    DeviceArray<real_t> v(ones, "node sums");
    nodes.exchange({FieldView::interleaved(v.data(), 1)});
    v.copy_to(ones.data());
    std::vector<char> shared(static_cast<std::size_t>(z.nNodes), 0);
    std::map<idx_t, int> owner_of_shared; // local node -> neighbour zone
    for (idx_t k = 0; k < z.nodeExchange.send.rows(); ++k)
      for (idx_t j = z.nodeExchange.send.begin(k); j < z.nodeExchange.send.end(k); ++j)
        owner_of_shared[z.nodeExchange.send.indices()[j]] = z.nodeExchange.neighbours[k];
    for (idx_t i = 0; i < z.nNodes; ++i) {
      const auto it = owner_of_shared.find(i);
      EXPECT_EQ(ones[i], 1.0 + rank + (it == owner_of_shared.end() ? 0.0 : 1.0 + it->second));
    }
  }
  set_active_device(Device::Cpu);
}

// Several rounds of begin / progress / finish on the same exchange, the owned values changing
// between rounds: each round's halo values are that round's (on the GPU the transports stage,
// copy or send on a side stream and the receive buffer is reused by the next round).
TEST(HaloExchange, RepeatedOverlappedRoundsOnEveryDeviceAndTransport) {
  std::vector<Device> devices = {Device::Cpu};
  if (cuda_device_count() > 0) devices.push_back(Device::Cuda);
  const Zone z = my_zone();
  for (const Device d : devices)
    for (const auto& t : (set_active_device(d), available_transports())) {
      SCOPED_TRACE(std::string(d == Device::Cuda ? "cuda " : "cpu ") + t->name());
      HaloExchange halo(*t, z.cellExchange, z.nTotalCells(), 20, HaloMode::Copy);
      DeviceArray<real_t> u(5 * static_cast<std::size_t>(z.nTotalCells()), "u");
      DeviceArray<real_t> g(15 * static_cast<std::size_t>(z.nTotalCells()), "g");
      for (int round = 1; round <= 4; ++round) {
        const auto host5 = owned_only(z, 5, round);
        const auto host15 = owned_only(z, 15, 10 * round);
        u.assign(host5.data());
        g.assign(host15.data());
        halo.begin({FieldView::interleaved(u.data(), 5), FieldView::interleaved(g.data(), 15)});
        halo.progress();
        halo.progress();
        halo.finish();
        std::vector<real_t> b5(host5.size()), b15(host15.size());
        u.copy_to(b5.data());
        g.copy_to(b15.data());
        for (idx_t c = 0; c < z.nTotalCells(); ++c) {
          for (int j = 0; j < 5; ++j)
            ASSERT_EQ(b5[c * 5 + j], cell_value(z.cellGlobalId[c], j, round)) << "cell " << c;
          for (int j = 0; j < 15; ++j)
            ASSERT_EQ(b15[c * 15 + j], cell_value(z.cellGlobalId[c], j, 10 * round))
                << "cell " << c;
        }
      }
    }
  set_active_device(Device::Cpu);
}

TEST(HaloExchange, InconsistentListsAreRefusedOnEveryRank) {
  const int rank = comm_rank(MPI_COMM_WORLD);
  Zone z = my_zone();
  if (rank == 0) { // zone 0 forgets that it sends its interface cell to zone 1
    z.cellExchange.send = Csr(Array<idx_t>{0, 0}, Array<idx_t>{});
  }
  try {
    HaloExchange halo(world(), z.cellExchange, z.nTotalCells(), 5, HaloMode::Copy);
    ADD_FAILURE() << "inconsistent lists accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("zone 0 sends 0 entries to zone 1, which expects 1"),
              std::string::npos)
        << e.what();
  }
  Zone bad = my_zone();
  if (rank == comm_size(MPI_COMM_WORLD) - 1) { // a receive id outside the zone
    auto idx = bad.cellExchange.recv.indices().to_vector();
    idx[0] = bad.nTotalCells();
    bad.cellExchange.recv =
        Csr(bad.cellExchange.recv.offsets().clone(), Array<idx_t>(std::move(idx)));
  }
  EXPECT_THROW(HaloExchange(world(), bad.cellExchange, bad.nTotalCells(), 5, HaloMode::Copy),
               Error);
}

TEST(Transport, DeviceTransportsAreRefusedOnTheCpuBackend) {
  set_active_device(Device::Cpu);
  EXPECT_EQ(backend::make_communicator(MPI_COMM_WORLD, backend::TransportKind::Auto)->name(),
            "MPI (host memory)");
  EXPECT_EQ(
      backend::make_communicator(MPI_COMM_WORLD, backend::TransportKind::HostStagedMpi)->name(),
      "MPI (host memory)");
  for (const auto k : {backend::TransportKind::CudaAwareMpi, backend::TransportKind::Nccl,
                       backend::TransportKind::CudaIpc}) {
    SCOPED_TRACE(backend::to_string(k));
    EXPECT_FALSE(backend::transport_available(MPI_COMM_WORLD, k).ok);
    try {
      backend::make_communicator(MPI_COMM_WORLD, k);
      ADD_FAILURE() << "accepted on the CPU backend";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find(std::string("transport = ") + backend::to_string(k)),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(backend::parse_transport("nccl"), backend::TransportKind::Nccl);
  EXPECT_THROW(backend::parse_transport("infiniband"), Error);
}

TEST(ZoneMapping, RankCountMustEqualZoneCount) {
  const int size = comm_size(MPI_COMM_WORLD);
  EXPECT_EQ(parallel::zone_of_rank(MPI_COMM_WORLD, "mesh.zones.h5", size),
            comm_rank(MPI_COMM_WORLD));
  try {
    parallel::zone_of_rank(MPI_COMM_WORLD, "mesh.zones.h5", 64, {16});
    ADD_FAILURE() << "64 zones accepted on " << size << " ranks";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(msg.find("mesh.zones.h5 holds 64 zones but fvrun runs on " + std::to_string(size)),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("the file's partitionings: 16, 64 zones;"), std::string::npos) << msg;
    EXPECT_NE(msg.find("--parts " + std::to_string(size)), std::string::npos) << msg;
    EXPECT_EQ(msg.find("rank "), std::string::npos) << "same error on every rank: " << msg;
  }
}

TEST(Errors, OneRanksFailureIsThrownOnEveryRank) {
  const int size = comm_size(MPI_COMM_WORLD), rank = comm_rank(MPI_COMM_WORLD);
  EXPECT_NO_THROW(parallel::check_all(MPI_COMM_WORLD, true, ""));
  const int bad = size - 1;
  try {
    parallel::run_all(MPI_COMM_WORLD, [&] { FV_VERIFY(rank != bad, "cannot read zone " << rank); });
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "rank " + std::to_string(bad) + ": cannot read zone " + std::to_string(bad));
  }
}

TEST(Reduce, SumMaxMinOverRanks) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int size = comm_size(comm), rank = comm_rank(comm);
  EXPECT_EQ(parallel::sum_all(comm, rank + 1), size * (size + 1) / 2);
  EXPECT_EQ(parallel::max_all(comm, 0.5 * rank), 0.5 * (size - 1));
  EXPECT_EQ(parallel::min_all(comm, 0.5 * rank - 3), -3.0);
  EXPECT_EQ(parallel::sum_all(comm, gidx_t{1} << 40), (gidx_t{1} << 40) * size);
  std::vector<real_t> v = {1.0, static_cast<real_t>(rank), -static_cast<real_t>(rank)};
  parallel::sum_all(comm, v);
  EXPECT_EQ(v,
            (std::vector<real_t>{1.0 * size, size * (size - 1) / 2.0, -size * (size - 1) / 2.0}));
  std::vector<real_t> w = {static_cast<real_t>(rank), -static_cast<real_t>(rank)};
  parallel::max_all(comm, w);
  EXPECT_EQ(w, (std::vector<real_t>{size - 1.0, 0.0}));
  std::vector<real_t> x = {static_cast<real_t>(rank), -static_cast<real_t>(rank)};
  parallel::min_all(comm, x);
  EXPECT_EQ(x, (std::vector<real_t>{0.0, 1.0 - size}));
}

// The solver's reductions and collective errors go through its backend::Communicator: every
// transport that can run here (on the GPU too, where NCCL reduces on the device) gives the same.
TEST(Reduce, SumMaxMinAndErrorsOverEveryTransport) {
  std::vector<Device> devices = {Device::Cpu};
  if (cuda_device_count() > 0) devices.push_back(Device::Cuda);
  for (const Device d : devices)
    for (const auto& t : (set_active_device(d), available_transports())) {
      SCOPED_TRACE(std::string(d == Device::Cuda ? "cuda " : "cpu ") + t->name());
      backend::Communicator& c = *t;
      const int size = c.size(), rank = c.rank();
      EXPECT_EQ(size, comm_size(MPI_COMM_WORLD));
      EXPECT_EQ(rank, comm_rank(MPI_COMM_WORLD));
      EXPECT_EQ(parallel::sum_all(c, rank + 1), size * (size + 1) / 2);
      EXPECT_EQ(parallel::max_all(c, 0.5 * rank), 0.5 * (size - 1));
      EXPECT_EQ(parallel::min_all(c, 0.5 * rank - 3), -3.0);
      EXPECT_EQ(parallel::sum_all(c, gidx_t{1} << 40), (gidx_t{1} << 40) * size);
      std::vector<real_t> v(300, 1.0); // more values than NCCL's staging buffer holds at once
      v[299] = rank;
      parallel::sum_all(c, v);
      EXPECT_EQ(v[0], size);
      EXPECT_EQ(v[299], size * (size - 1) / 2.0);
      std::vector<idx_t> w = {rank, -rank};
      parallel::max_all(c, w);
      EXPECT_EQ(w, (std::vector<idx_t>{size - 1, 0}));
      std::string text = rank == 0 ? "from rank 0" : std::string(11, ' ');
      c.broadcast(text.data(), text.size(), 0);
      EXPECT_EQ(text, "from rank 0");
      EXPECT_NO_THROW(parallel::check_all(c, true, ""));
      try {
        parallel::check_all(c, rank != size - 1, "rank " + std::to_string(rank) + " failed");
        ADD_FAILURE() << "no error";
      } catch (const Error& e) {
        const std::string who = std::to_string(size - 1);
        EXPECT_EQ(std::string(e.what()),
                  (size > 1 ? "rank " + who + ": " : std::string()) + "rank " + who + " failed");
      }
    }
  set_active_device(Device::Cpu);
}
