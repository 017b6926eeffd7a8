// Assembly of distributed zone data in global order (runtime/parallel/gather) under mpiexec
// -n 2 and -n 3, with synthetic chain zones: gather/scatter of cell arrays, the global mesh
// for the solution file, a restart written on N ranks and read back on fewer, and errors
// that must reach every rank instead of hanging.
#include "common/error.hpp"
#include "formats/restart_file.hpp"
#include "formats/solution_file.hpp"
#include "formats/surface_file.hpp"
#include "runtime/output/collective_writer.hpp"
#include "runtime/parallel/gather.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "tests/parallel/chain_zones.hpp"
#include "tests/testing/testing.hpp"

#include <filesystem>
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
  const SolutionMesh mesh = parallel::gather_mesh(comm, z, n_nodes, kCells);
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

TEST(Gather, SurfacePatchesInGlobalFaceOrder) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  Zone z = fv::testing::make_chain_zone(kCells, comm_size(comm), comm_rank(comm));
  fv::testing::add_chain_boundary_faces(z, kCells);
  auto cp_of = [](gidx_t face) { return 0.001 * static_cast<real_t>(face) - 0.5; };
  for (idx_t p = 0; p < 2; ++p) {
    std::vector<SurfaceColumn> cols = {{"Cp", {}}, {"p", {}}};
    for (idx_t f = z.patchFaceOffsets[p]; f < z.patchFaceOffsets[p + 1]; ++f) {
      cols[0].values.push_back(cp_of(z.faceGlobalId[f]));
      cols[1].values.push_back(1e5 + static_cast<real_t>(z.faceGlobalId[f]));
    }
    const std::string name = p == 0 ? "wall" : "ends";
    const SurfacePatchData s = parallel::gather_surface(comm, z, p, name, cols);
    if (comm_rank(comm) != 0) {
      EXPECT_EQ(s.nFaces(), 0u);
      continue;
    }
    EXPECT_EQ(s.patch, name);
    const gidx_t first = p == 0 ? 0 : 4 * kCells, count = p == 0 ? 4 * kCells : 2;
    ASSERT_EQ(s.nFaces(), static_cast<std::size_t>(count));
    for (gidx_t i = 0; i < count; ++i) {
      const gidx_t id = first + i;
      EXPECT_EQ(s.faceGlobalId[i], id);
      EXPECT_EQ(s.columns[0].values[i], cp_of(id));
      EXPECT_EQ(s.columns[1].values[i], 1e5 + static_cast<real_t>(id));
      const real_t ax = s.area[3 * i], ay = s.area[3 * i + 1], az = s.area[3 * i + 2];
      EXPECT_EQ(ax * ax + ay * ay + az * az, 1.0);
      // Outward: the area vector points from the chain's axis (y = z = 0.5) to the face,
      // or along x at the ends.
      const real_t cx = s.centroid[3 * i], cy = s.centroid[3 * i + 1] - 0.5,
                   cz = s.centroid[3 * i + 2] - 0.5;
      EXPECT_GT(p == 0 ? ay * cy + az * cz : ax * (cx - kCells / 2.0), 0.0) << "face " << id;
    }
    // the faces' corners come along when the zone has face nodes (this chain has none: every
    // face then has none; the real zones' polygons are checked by the fvrun CLI test)
    EXPECT_EQ(s.cornerOffsets.size(), s.nFaces() + 1);
    if (z.faceNodes.rows() == 0) {
      EXPECT_EQ(s.cornerOffsets.back(), 0);
      EXPECT_TRUE(s.cornerXyz.empty());
    }
    const std::string path = fv::testing::scratch_dir() + "/surface_" + name + ".csv";
    write_surface_csv(path, s);
  }
  std::vector<SurfaceColumn> wrong = {{"Cp", {1.0}}};
  EXPECT_THROW(parallel::gather_surface(comm, z, 0, "wall", wrong), Error);
  EXPECT_THROW(parallel::gather_surface(comm, z, 2, "nothing", {}), Error);
}

TEST(Gather, PolyhedraBecomeOutwardFaceStreams) {
  // One zone on MPI_COMM_SELF: a unit cube stored as a polyhedron whose 6 faces are given with
  // mixed orientation (cellFaceSign -1 marks a face whose stored normal points into the cell).
  static constexpr int kHexFaces[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                                          {2, 3, 7, 6}, {0, 4, 7, 3}, {4, 5, 6, 7}};
  Zone z;
  z.nCells = 1;
  z.nNodes = 8;
  z.nFaces = z.nBoundaryFaces = 6;
  z.cellGlobalId = Array<gidx_t>{0};
  z.cellType = Array<std::int8_t>{static_cast<std::int8_t>(CellType::Polyhedron)};
  std::vector<gidx_t> node_gid = {7, 6, 5, 4, 3, 2, 1, 0}; // local node i is global 7 - i
  z.nodeGlobalId = Array<gidx_t>(std::vector<gidx_t>(node_gid));
  z.nodeXyz = Array<real_t>{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
  z.cellNodes = Csr(Array<idx_t>{0, 8}, Array<idx_t>{0, 1, 2, 3, 4, 5, 6, 7});
  std::vector<idx_t> fn;
  std::vector<std::int8_t> sign;
  for (int f = 0; f < 6; ++f) {
    const bool flip = f % 2 == 1; // store every other face reversed
    for (int k = 0; k < 4; ++k)
      fn.push_back(kHexFaces[f][flip ? 3 - k : k]);
    sign.push_back(flip ? -1 : 1);
  }
  z.faceNodes = Csr(Array<idx_t>{0, 4, 8, 12, 16, 20, 24}, Array<idx_t>(std::move(fn)));
  z.cellFaces = Csr(Array<idx_t>{0, 6}, Array<idx_t>{0, 1, 2, 3, 4, 5});
  z.cellFaceSign = Array<std::int8_t>(std::move(sign));
  const SolutionMesh m = parallel::gather_mesh(MPI_COMM_SELF, z, 8, 1);
  std::vector<gidx_t> expected = {6};
  for (const auto& f : kHexFaces) {
    expected.push_back(4);
    for (int v : f)
      expected.push_back(node_gid[v]);
  }
  EXPECT_EQ(m.cellNodes, expected);
  EXPECT_EQ(m.cellType, std::vector<CellType>{CellType::Polyhedron});
  // Global node g is local node 7 - g.
  for (gidx_t g = 0; g < 8; ++g)
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(m.nodeXyz[3 * g + d], z.nodeXyz[3 * (7 - g) + d]);
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

TEST(CollectiveWriter, CollectiveWritesAndRestartRoundTrip) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  Zone z = fv::testing::make_chain_zone(kCells, comm_size(comm), comm_rank(comm));
  fv::testing::add_chain_boundary_faces(z, kCells);
  const std::string dir = shared_scratch(comm);
  output::CollectiveWriter out(comm, z, 4 * (kCells + 1), kCells, "chain-uuid");

  const auto u = owned_values(z);
  std::vector<real_t> rho;
  for (idx_t c = 0; c < z.nCells; ++c)
    rho.push_back(u[c * kVars]);
  for (int pass = 0; pass < 2; ++pass) // the second write reuses the cached global mesh
    out.write_solution(dir + "/flow.h5", {{"rho", 1, rho}, {"U", kVars, u}}, 10 + pass, 0.5,
                       "cfl = 2");
  if (comm_rank(comm) == 0) {
    const SolutionData back = read_solution(dir + "/flow.h5");
    EXPECT_EQ(back.info.iteration, 11);
    EXPECT_EQ(back.info.meshUuid, "chain-uuid");
    EXPECT_EQ(back.mesh.nCells(), kCells);
    ASSERT_EQ(back.fields.size(), 2u);
    for (gidx_t g = 0; g < kCells; ++g) {
      EXPECT_EQ(back.fields[0].values[g * kVars + 2], value_of(g, 2)); // "U" sorts first
      EXPECT_EQ(back.fields[1].values[g], value_of(g, 0));
    }
  }

  out.write_restart(dir + "/restart.h5", u.data(), kVars, 42, 1.25, "cfl = 2");
  std::vector<real_t> back(u.size(), 0.0);
  const SolutionInfo info = out.read_restart(dir + "/restart.h5", back.data(), kVars);
  EXPECT_EQ(back, u);
  EXPECT_EQ(info.iteration, 42);
  EXPECT_EQ(info.time, 1.25);
  EXPECT_EQ(info.config, "cfl = 2");

  out.write_surfaces(dir + "/surface", {0, 1}, {"wall", "ends"}, [&](idx_t p) {
    std::vector<SurfaceColumn> cols = {{"Cp", {}}};
    for (idx_t f = z.patchFaceOffsets[p]; f < z.patchFaceOffsets[p + 1]; ++f)
      cols[0].values.push_back(static_cast<real_t>(z.faceGlobalId[f]));
    return cols;
  });
  if (comm_rank(comm) == 0) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/surface_wall.csv"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/surface_ends.csv"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/surface_wall.vtp"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/surface_ends.vtp"));
  }
}

TEST(CollectiveWriter, FailuresOnTheWritingRankReachEveryRank) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Zone z = fv::testing::make_chain_zone(kCells, comm_size(comm), comm_rank(comm));
  const std::string dir = shared_scratch(comm);
  output::CollectiveWriter out(comm, z, 4 * (kCells + 1), kCells, "chain-uuid");
  const auto u = owned_values(z);
  EXPECT_THROW(out.write_restart(dir + "/no-such-dir/restart.h5", u.data(), kVars, 1, 0, ""),
               Error);
  std::vector<real_t> back(u.size());
  EXPECT_THROW(out.read_restart(dir + "/missing.h5", back.data(), kVars), Error);
  out.write_restart(dir + "/restart.h5", u.data(), kVars, 1, 0, "");
  output::CollectiveWriter other(comm, z, 4 * (kCells + 1), kCells, "another-mesh");
  try {
    other.read_restart(dir + "/restart.h5", back.data(), kVars);
    ADD_FAILURE() << "restart of another mesh accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another-mesh"), std::string::npos) << e.what();
  }
  EXPECT_THROW(out.read_restart(dir + "/restart.h5", back.data(), 4), Error);
  EXPECT_THROW(out.write_solution(dir + "/flow.h5", {{"rho", 1, {1.0}}}, 1, 0, ""), Error);
}
