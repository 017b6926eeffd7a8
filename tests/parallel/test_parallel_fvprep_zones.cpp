// The parallel layer on real zones: a generated mixed-cell channel mesh (tets, pyramids,
// prisms, hexahedra; perturbed and shuffled) goes through fvprep's pipeline (global mesh, METIS
// partition into one zone per rank, zones, zone file), each rank memory-maps its zone, and the
// halo exchange, node sums and output gathering are checked against the global mesh.
#include "formats/solution_file.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/zones.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/parallel/gather.hpp"
#include "runtime/parallel/halo_exchange.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "tests/testing/testing.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <mpi.h>

using namespace fv;
using fv::parallel::comm_rank;
using fv::parallel::comm_size;
using fv::parallel::FieldView;
using fv::parallel::HaloExchange;
using fv::parallel::HaloMode;

namespace {

struct Prepared {
  Mesh mesh;
  GlobalMesh g;
  ZoneFileHeader header;
  Zone zone; // this rank's zone, memory-mapped from the zone file
};

/// Every rank builds the same global mesh (deterministic); rank 0 writes the zone file; every
/// rank maps its own zone from it.
const Prepared& prepared() {
  static Prepared p = [] {
    const MPI_Comm comm = MPI_COMM_WORLD;
    const int size = comm_size(comm), rank = comm_rank(comm);
    Prepared r;
    GenOptions o;
    o.family = MeshFamily::Channel;
    o.cells = GenCells::Mixed;
    o.n = {8, 3, 2};
    o.perturb = 0.1;
    o.shuffle = true;
    r.mesh = generate_mesh(o);
    const PrepOptions opts;
    r.g = build_global_mesh(r.mesh, opts);
    const std::vector<idx_t> part_renumbered = partition_cells(r.g.cellCells, size);
    std::vector<idx_t> part(part_renumbered.size());
    for (idx_t c = 0; c < r.g.nCells(); ++c)
      part[r.g.cellMesh[c]] = part_renumbered[c];
    r.header = make_zone_header(r.mesh, r.g, size);
    std::string path = rank == 0 ? fv::testing::scratch_dir() + "/channel.zones.h5" : "";
    if (rank == 0) write_zone_file(path, r.header, build_zones(r.g, part, size, opts));
    int len = static_cast<int>(path.size());
    MPI_Bcast(&len, 1, MPI_INT, 0, comm);
    path.resize(static_cast<std::size_t>(len));
    MPI_Bcast(path.data(), len, MPI_CHAR, 0, comm);
    r.zone = map_zone(open_zone_file(path), rank);
    return r;
  }();
  return p;
}

} // namespace

TEST(FvprepZones, HaloCellsReceiveTheOwnersCentroids) {
  const Prepared& p = prepared();
  const Zone& z = p.zone;
  ASSERT_GT(z.nHaloCells, 0);
  // Owned cells: the global mesh's centroid of their global cell and the global id; halo: NaN.
  std::vector<real_t> u(4 * static_cast<std::size_t>(z.nTotalCells()), std::nan(""));
  for (idx_t c = 0; c < z.nCells; ++c) {
    const gidx_t g = z.cellGlobalId[c];
    for (int d = 0; d < 3; ++d)
      u[4 * c + d] = p.g.cellGeom.centroid[3 * g + d];
    u[4 * c + 3] = static_cast<real_t>(g);
  }
  const auto world = backend::make_mpi_communicator(MPI_COMM_WORLD);
  HaloExchange halo(*world, z.cellExchange, z.nTotalCells(), 4, HaloMode::Copy);
  halo.exchange({FieldView::interleaved(u.data(), 4)});
  for (idx_t c = z.nCells; c < z.nTotalCells(); ++c) {
    const gidx_t g = z.cellGlobalId[c];
    EXPECT_EQ(u[4 * c + 3], static_cast<real_t>(g)) << "halo cell " << c;
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(u[4 * c + d], p.g.cellGeom.centroid[3 * g + d]);
      EXPECT_EQ(u[4 * c + d], z.cellCentroid[3 * c + d]); // the zone's own halo geometry
    }
  }
}

TEST(FvprepZones, NodeWeightsSumToOneAcrossZones) {
  // nodeCellWeight is normalised over ALL cells of a node in the global mesh, so the partial
  // sums of the zones sharing a node add up to 1 once the node exchange has summed them.
  const Zone& z = prepared().zone;
  std::vector<real_t> w(static_cast<std::size_t>(z.nNodes), 0.0);
  for (idx_t n = 0; n < z.nNodes; ++n)
    for (idx_t j = z.nodeCells.begin(n); j < z.nodeCells.end(n); ++j)
      w[n] += z.nodeCellWeight[j];
  int partial = 0;
  for (real_t x : w)
    partial += std::abs(x - 1.0) > 1e-12;
  EXPECT_GT(z.nodeExchange.neighbours.size(), 0u);
  const auto world = backend::make_mpi_communicator(MPI_COMM_WORLD);
  HaloExchange nodes(*world, z.nodeExchange, z.nNodes, 1, HaloMode::Sum);
  nodes.exchange({FieldView::interleaved(w.data(), 1)});
  for (idx_t n = 0; n < z.nNodes; ++n)
    EXPECT_NEAR(w[n], 1.0, 1e-12) << "node " << z.nodeGlobalId[n];
  EXPECT_GT(parallel::comm_size(MPI_COMM_WORLD) > 1 ? partial : 1, 0)
      << "no node was shared: the test would prove nothing";
}

TEST(FvprepZones, GatheredMeshAndFieldsEqualTheGlobalMesh) {
  const Prepared& p = prepared();
  const Zone& z = p.zone;
  const MPI_Comm comm = MPI_COMM_WORLD;
  const SolutionMesh m =
      parallel::gather_mesh(comm, z, p.header.nGlobalNodes, p.header.nGlobalCells);
  const auto vol = parallel::gather_cells(comm, z, z.cellVolume.data(), 1, p.header.nGlobalCells);
  if (comm_rank(comm) != 0) return;
  ASSERT_EQ(m.nCells(), p.g.nCells());
  ASSERT_EQ(m.nNodes(), p.g.nNodes());
  EXPECT_EQ(m.nodeXyz, p.g.xyz);
  for (idx_t c = 0; c < p.g.nCells(); ++c) {
    ASSERT_EQ(m.cellType[c], p.g.cellType[c]) << "cell " << c;
    const std::vector<gidx_t> row(m.cellNodes.begin() + m.cellNodeOffsets[c],
                                  m.cellNodes.begin() + m.cellNodeOffsets[c + 1]);
    const std::vector<gidx_t> expected(p.g.cellNodes.row(c),
                                       p.g.cellNodes.row(c) + p.g.cellNodes.size(c));
    EXPECT_EQ(row, expected) << "cell " << c;
    EXPECT_EQ(vol[c], p.g.cellGeom.volume[c]);
  }
  const std::string path = fv::testing::scratch_dir() + "/channel.h5";
  write_solution(path, m, {{"volume", 1, vol}}, {0, 0.0, p.header.meshUuid, ""});
  const SolutionData back = read_solution(path);
  EXPECT_EQ(back.mesh.cellNodes, m.cellNodes);
  EXPECT_EQ(back.fields.at(0).values, vol);
}
