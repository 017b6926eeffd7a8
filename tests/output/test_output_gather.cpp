// Assembly of distributed zone data in global order (runtime/parallel/gather) under mpiexec
// -n 2 and -n 3, with synthetic chain zones: gather/scatter of cell arrays, the global mesh
// for the solution file, a restart written on N ranks and read back on fewer, and errors
// that must reach every rank instead of hanging.
#include "common/error.hpp"
#include "formats/restart_file.hpp"
#include "formats/solution_file.hpp"
#include "runtime/parallel/gather.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "tests/parallel/chain_zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

using namespace fv;
using fv::parallel::comm_rank;
using fv::parallel::comm_size;

namespace {

constexpr gidx_t kCells = 13;
constexpr int kVars = 5;

real_t value_of(gidx_t g, int j) {
  return 10.0 * static_cast<real_t>(g) + j + 0.5;
}

std::vector<real_t> owned_values(const Zone& z) {
  std::vector<real_t> v;
  for (idx_t c = 0; c < z.nCells; ++c)
    for (int j = 0; j < kVars; ++j)
      v.push_back(value_of(z.cellGlobalId[c], j));
  return v;
}

/// The scratch directory of the current test, made on rank 0 and broadcast to all ranks.
std::string shared_scratch(MPI_Comm comm) {
  std::string dir = comm_rank(comm) == 0 ? fv::testing::scratch_dir() : std::string();
  int len = static_cast<int>(dir.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, comm);
  dir.resize(static_cast<std::size_t>(len));
  MPI_Bcast(dir.data(), len, MPI_CHAR, 0, comm);
  return dir;
}

} // namespace

TEST(Gather, CellsArriveInGlobalOrderOnRoot) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Zone z = fv::testing::make_chain_zone(kCells, comm_size(comm), comm_rank(comm));
  const auto mine = owned_values(z);
  const auto global = parallel::gather_cells(comm, z, mine.data(), kVars, kCells);
  if (comm_rank(comm) == 0) {
    ASSERT_EQ(global.size(), static_cast<std::size_t>(kCells * kVars));
    for (gidx_t g = 0; g < kCells; ++g)
      for (int j = 0; j < kVars; ++j)
        EXPECT_EQ(global[g * kVars + j], value_of(g, j));
  } else {
    EXPECT_TRUE(global.empty());
  }
}

TEST(Gather, ScatterIsTheInverseOfGatherForEveryRoot) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Zone z = fv::testing::make_chain_zone(kCells, comm_size(comm), comm_rank(comm));
  for (int root = 0; root < comm_size(comm); ++root) {
    std::vector<real_t> global;
    if (comm_rank(comm) == root)
      for (gidx_t g = 0; g < kCells; ++g)
        for (int j = 0; j < kVars; ++j)
          global.push_back(value_of(g, j) + root);
    std::vector<real_t> owned(static_cast<std::size_t>(z.nCells) * kVars, -1.0);
    parallel::scatter_cells(comm, z, global.data(), kVars, kCells, owned.data(), root);
    for (idx_t c = 0; c < z.nCells; ++c)
      for (int j = 0; j < kVars; ++j)
        EXPECT_EQ(owned[c * kVars + j], value_of(z.cellGlobalId[c], j) + root);
    const auto again = parallel::gather_cells(comm, z, owned.data(), kVars, kCells, root);
    if (comm_rank(comm) == root) {
      EXPECT_EQ(again, global);
    }
  }
}

TEST(Gather, RestartWrittenOnNRanksIsReadOnFewer) {
  const MPI_Comm world = MPI_COMM_WORLD;
  const int n = comm_size(world), rank = comm_rank(world);
  const std::string dir = shared_scratch(world);
  const std::string path = dir + "/restart.h5";
  {
    const Zone z = fv::testing::make_chain_zone(kCells, n, rank);
    const auto mine = owned_values(z);
    RestartData d;
    d.state = parallel::gather_cells(world, z, mine.data(), kVars, kCells);
    d.info.meshUuid = "chain-uuid";
    d.info.iteration = 77;
    if (rank == 0) write_restart(path, d);
  }
  MPI_Barrier(world);
  // Restart on max(1, n - 1) ranks, i.e. another partitioning of the same mesh.
  const int m = std::max(1, n - 1);
  MPI_Comm sub;
  MPI_Comm_split(world, rank < m ? 0 : MPI_UNDEFINED, rank, &sub);
  if (sub == MPI_COMM_NULL) return;
  const Zone z = fv::testing::make_chain_zone(kCells, m, comm_rank(sub));
  RestartData d;
  if (comm_rank(sub) == 0) d = read_restart(path, "chain-uuid", kCells);
  std::vector<real_t> owned(static_cast<std::size_t>(z.nCells) * kVars);
  parallel::scatter_cells(sub, z, d.state.data(), kVars, kCells, owned.data());
  EXPECT_EQ(owned, owned_values(z));
  MPI_Comm_free(&sub);
}

TEST(Gather, GlobalMeshMatchesTheChainAndWritesASolution) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Zone z = fv::testing::make_chain_zone(kCells, comm_size(comm), comm_rank(comm));
  const gidx_t n_nodes = 4 * (kCells + 1);
  const GlobalMesh mesh = parallel::gather_mesh(comm, z, n_nodes, kCells);
  const auto mine = owned_values(z);
  const auto u = parallel::gather_cells(comm, z, mine.data(), kVars, kCells);
  if (comm_rank(comm) != 0) {
    EXPECT_EQ(mesh.nCells(), 0);
    return;
  }
  ASSERT_EQ(mesh.nNodes(), n_nodes);
  ASSERT_EQ(mesh.nCells(), kCells);
  for (gidx_t n = 0; n < n_nodes; ++n)
    EXPECT_EQ(mesh.nodeXyz[3 * n], static_cast<real_t>(n / 4));
  for (gidx_t g = 0; g < kCells; ++g) {
    EXPECT_EQ(mesh.cellType[g], CellType::Hex);
    ASSERT_EQ(mesh.cellNodeOffsets[g + 1] - mesh.cellNodeOffsets[g], 8);
    for (int k = 0; k < 8; ++k)
      EXPECT_EQ(mesh.cellNodes[mesh.cellNodeOffsets[g] + k], 4 * g + k);
  }
  const std::string path = fv::testing::scratch_dir() + "/chain.h5";
  SolutionInfo info;
  info.meshUuid = "chain-uuid";
  write_solution(path, mesh, {{"U", kVars, u}}, info);
  const SolutionData back = read_solution(path);
  EXPECT_EQ(back.mesh.cellNodes, mesh.cellNodes);
  ASSERT_EQ(back.fields.size(), 1u);
  EXPECT_EQ(back.fields[0].values, u);
}

TEST(Gather, SparseIdsAreSortedOnRoot) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Zone z = fv::testing::make_chain_zone(kCells, comm_size(comm), comm_rank(comm));
  std::vector<gidx_t> ids;
  std::vector<real_t> vals;
  for (idx_t c = 0; c < z.nCells; ++c) {
    ids.push_back(1000 - 3 * z.cellGlobalId[c]); // sparse, descending with g
    vals.insert(vals.end(), {static_cast<real_t>(z.cellGlobalId[c]), -1.0});
  }
  const auto s = parallel::gather_sorted(comm, ids.data(), vals.data(), z.nCells, 2);
  if (comm_rank(comm) != 0) return;
  ASSERT_EQ(s.ids.size(), static_cast<std::size_t>(kCells));
  for (gidx_t i = 0; i < kCells; ++i) {
    const gidx_t g = kCells - 1 - i;
    EXPECT_EQ(s.ids[i], 1000 - 3 * g);
    EXPECT_EQ(s.values[2 * i], static_cast<real_t>(g));
    EXPECT_EQ(s.values[2 * i + 1], -1.0);
  }
}

TEST(Gather, InconsistentZonesFailOnEveryRankWithoutHanging) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = comm_rank(comm), size = comm_size(comm);
  Zone z = fv::testing::make_chain_zone(kCells, size, rank);
  // The last rank claims global cell 0 as well: cell 0 owned twice, its own cell unowned.
  if (rank == size - 1) {
    auto ids = z.cellGlobalId.to_vector();
    ids[0] = 0;
    z.cellGlobalId = Array<gidx_t>(std::move(ids));
  }
  const auto mine = owned_values(z);
  try {
    parallel::gather_cells(comm, z, mine.data(), kVars, kCells);
    ADD_FAILURE() << "duplicate global cell accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("global cell 0 is owned by more than one zone"),
              std::string::npos)
        << e.what();
  }
  std::vector<real_t> owned(static_cast<std::size_t>(z.nCells) * kVars);
  std::vector<real_t> too_small(kVars, 0.0); // root claims a 1-cell global array
  EXPECT_THROW(parallel::scatter_cells(comm, z, too_small.data(), kVars, 1, owned.data()), Error);
  EXPECT_THROW(parallel::gather_mesh(comm, z, 4 * (kCells + 1), kCells), Error);
}
