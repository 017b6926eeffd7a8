// The distributed prepare (`mpirun -np N fvprep`, prep/dist_prepare.hpp) against the serial
// one, under mpiexec -n 1, 2 and 3: with the serial partition (METIS on rank 0) every zone is
// the serial zone array for array, the header and UUID are the serial ones and the zone file
// holds the serial datasets; with PT-Scotch the file passes `fvprep check` with the serial
// UUID; bad input fails on every rank with the serial error and leaves no file.
#include "common/error.hpp"
#include "formats/cgns_writer.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/mesh_slice.hpp"
#include "formats/zone_file_reader.hpp"
#include "prep/dist_prepare.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/partition_distributed.hpp"
#include "prep/prepare.hpp"
#include "prep/validate.hpp"
#include "prep/zone_check.hpp"
#include "tests/prep/box_mesh.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using fv::dist::Comm;
using fv::testing::error_of;

struct Case {
  std::string name;
  std::function<fv::Mesh()> make;
  std::string defaultPatch;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"channel of mixed cells with walls",
                 [] {
                   fv::GenOptions g{fv::MeshFamily::Channel, fv::GenCells::Mixed, {12, 6, 4}};
                   g.perturb = 0.2;
                   g.shuffle = true;
                   return fv::generate_mesh(g);
                 },
                 ""});
  out.push_back({"shuffled tetrahedra",
                 [] {
                   fv::testing::BoxSpec s;
                   s.cells = fv::testing::BoxCells::Tet;
                   s.nx = 6, s.ny = 5, s.nz = 4;
                   s.jitter = 0.2;
                   s.shuffle = true;
                   return fv::testing::make_box_mesh(s);
                 },
                 ""});
  out.push_back({"polyhedra and pyramids",
                 [] {
                   fv::testing::BoxSpec s;
                   s.cells = fv::testing::BoxCells::Mixed;
                   s.nx = 5, s.ny = 4, s.nz = 3;
                   s.shuffle = true;
                   return fv::testing::make_box_mesh(s);
                 },
                 ""});
  out.push_back({"box without patches on two sides (default patch)",
                 [] {
                   fv::testing::BoxSpec s;
                   s.nx = 5, s.ny = 4, s.nz = 3;
                   s.shuffle = true;
                   fv::Mesh m = fv::testing::make_box_mesh(s);
                   // keep the boundary faces of patches 0..3 only
                   std::vector<fv::idx_t> keep, counts;
                   for (fv::idx_t b = 0; b < m.nBoundaryFaces(); ++b)
                     if (m.bfacePatch[static_cast<std::size_t>(b)] < 4) keep.push_back(b);
                   for (fv::idx_t b : keep)
                     counts.push_back(m.bfaceNodes.size(b));
                   fv::Csr nodes = fv::Csr::from_counts(counts);
                   std::vector<fv::idx_t> patch;
                   std::vector<fv::gidx_t> fileId;
                   for (std::size_t i = 0; i < keep.size(); ++i) {
                     std::copy_n(m.bfaceNodes.row(keep[i]), counts[i],
                                 nodes.row(static_cast<fv::idx_t>(i)));
                     patch.push_back(m.bfacePatch[static_cast<std::size_t>(keep[i])]);
                     if (!m.bfaceFileId.empty())
                       fileId.push_back(m.bfaceFileId[static_cast<std::size_t>(keep[i])]);
                   }
                   m.bfaceNodes = std::move(nodes);
                   m.bfacePatch = patch;
                   m.bfaceFileId = fileId;
                   return m;
                 },
                 "rest"});
  return out;
}

fv::PrepareOptions options(int parts, const std::string& defaultPatch) {
  fv::PrepareOptions po;
  po.parts = parts;
  po.prep.faces.defaultPatch = defaultPatch;
  return po;
}

/// The serial prepare (every rank runs it: the meshes are small).
fv::PreparedZones serial(const fv::Mesh& mesh, const fv::PrepareOptions& po) {
  fv::ValidateOptions vo;
  vo.defaultPatch = po.prep.faces.defaultPatch;
  vo.geometry = false;
  fv::ValidationReport r = fv::validate_mesh(mesh, vo);
  return fv::prepare_zones(mesh, std::move(r.faces), po);
}

std::string on_root(const Comm& comm, const std::function<std::string()>& f) {
  return comm.broadcast(comm.rank() == 0 ? f() : std::string(), 0);
}

/// Every dataset of every zone of a zone file, "zone/dataset" -> bytes.
std::map<std::string, std::string> contents(const std::string& path) {
  const fv::ZoneFile f = fv::open_zone_file(path);
  std::map<std::string, std::string> all;
  for (int z = 0; z < f.nZones(); ++z)
    for (auto& [name, bytes] : fv::testing::zone_dataset_bytes(fv::map_zone(f, z)))
      all[std::to_string(z) + "/" + name] = bytes;
  return all;
}

TEST(DistPrepare, ZonesEqualTheSerialOnesForTheSerialPartition) {
  const Comm comm;
  for (const Case& c : cases()) {
    const fv::Mesh mesh = c.make();
    for (int parts : {1, 2, 5}) {
      SCOPED_TRACE(c.name + ", " + std::to_string(parts) + " parts");
      const fv::PrepareOptions po = options(parts, c.defaultPatch);
      const fv::PreparedZones ref = serial(mesh, po);
      const fv::DistPreparedZones got =
          fv::prepare_zones_distributed(comm, mesh, po, fv::DistPartitioner::Metis);
      EXPECT_EQ(got.header.meshUuid, ref.header.meshUuid);
      EXPECT_EQ(got.header.nGlobalCells, ref.header.nGlobalCells);
      EXPECT_EQ(got.header.nGlobalFaces, ref.header.nGlobalFaces);
      EXPECT_EQ(got.header.nGlobalNodes, ref.header.nGlobalNodes);
      ASSERT_EQ(got.header.patches.size(), ref.header.patches.size());
      for (std::size_t p = 0; p < ref.header.patches.size(); ++p)
        EXPECT_EQ(got.header.patches[p].name, ref.header.patches[p].name);
      EXPECT_EQ(got.partition.edgeCut, ref.partition.edgeCut);
      EXPECT_EQ(got.partition.cells, ref.partition.cells);
      EXPECT_EQ(got.partition.haloCells, ref.partition.haloCells);
      EXPECT_EQ(got.partition.neighbours, ref.partition.neighbours);
      EXPECT_EQ(got.report.minVolume, ref.report.minVolume);
      EXPECT_EQ(got.report.maxClosure, ref.report.maxClosure);
      const std::int64_t built = comm.sum(static_cast<std::int64_t>(got.zones.size()));
      EXPECT_EQ(built, parts);
      for (const fv::Zone& z : got.zones) {
        const fv::Zone& r = ref.zones[static_cast<std::size_t>(z.zoneId)];
        EXPECT_EQ(z.nCells, r.nCells) << "zone " << z.zoneId;
        EXPECT_EQ(z.nHaloCells, r.nHaloCells) << "zone " << z.zoneId;
        EXPECT_EQ(z.nFaces, r.nFaces) << "zone " << z.zoneId;
        EXPECT_EQ(z.nNodes, r.nNodes) << "zone " << z.zoneId;
        const auto a = fv::testing::zone_dataset_bytes(z), b = fv::testing::zone_dataset_bytes(r);
        for (const auto& [name, bytes] : b) {
          const auto it = a.find(name);
          ASSERT_NE(it, a.end()) << name;
          EXPECT_TRUE(it->second == bytes) << "zone " << z.zoneId << ": " << name << " differs";
        }
      }
    }
  }
}

/// Every shared mesh (../shared/meshes; skipped when absent): the distributed prepare with the
/// serial partition gives the serial zones, and with PT-Scotch the serial mesh UUID. On two
/// processes only (the generated meshes above run on 1, 2 and 3): CI's time.
class DistPrepareShared : public ::testing::TestWithParam<std::string> {};

TEST_P(DistPrepareShared, ZonesAndUuidEqualTheSerialOnes) {
  FV_REQUIRE_SHARED_MESH(path, GetParam());
  const Comm comm;
  if (comm.size() != 2) GTEST_SKIP() << "the shared meshes run on two processes";
  const fv::Mesh mesh = fv::read_mesh(path);
  const int parts = static_cast<int>(std::min<fv::idx_t>(4, mesh.nCells()));
  const fv::PrepareOptions po = options(parts, "");
  const fv::PreparedZones ref = serial(mesh, po);
  const fv::DistPreparedZones got =
      fv::prepare_zones_distributed(comm, mesh, po, fv::DistPartitioner::Metis);
  EXPECT_EQ(got.header.meshUuid, ref.header.meshUuid);
  EXPECT_EQ(comm.sum(static_cast<std::int64_t>(got.zones.size())), parts);
  for (const fv::Zone& z : got.zones)
    EXPECT_TRUE(fv::testing::zone_dataset_bytes(z) ==
                fv::testing::zone_dataset_bytes(ref.zones[static_cast<std::size_t>(z.zoneId)]))
        << GetParam() << " zone " << z.zoneId;
  const fv::DistPreparedZones scotch =
      fv::prepare_zones_distributed(comm, mesh, po, fv::DistPartitioner::PtScotch);
  EXPECT_EQ(scotch.header.meshUuid, ref.header.meshUuid);
  EXPECT_EQ(comm.sum(static_cast<std::int64_t>(scotch.zones.size())), parts);
  std::int64_t owned = 0;
  for (const fv::Zone& z : scotch.zones)
    owned += z.nCells;
  EXPECT_EQ(comm.sum(owned), mesh.nCells());
}

std::vector<std::string> shared_names() {
  std::vector<std::string> names = fv::testing::shared_mesh_list();
  if (names.empty()) names.push_back("none"); // one skipped instance when ../shared is absent
  return names;
}

INSTANTIATE_TEST_SUITE_P(Meshes, DistPrepareShared, ::testing::ValuesIn(shared_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n;
                           for (char ch : i.param)
                             n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return n;
                         });

TEST(DistPrepare, FileEqualsTheSerialFileAndPtScotchFilePassesCheck) {
  const Comm comm;
  const std::string dir = on_root(comm, [] { return fv::testing::scratch_dir(); });
  fv::GenOptions g{fv::MeshFamily::Channel, fv::GenCells::Mixed, {14, 6, 4}};
  g.perturb = 0.2;
  g.shuffle = true;
  // From a CGNS/HDF5 file: the METIS run reads it in slices (the volume elements and
  // coordinates by ranges), the PT-Scotch run reads it whole and cuts it.
  const std::string cgnsPath = dir + "/mesh.cgns";
  if (comm.rank() == 0) fv::write_cgns(fv::generate_mesh(g), cgnsPath);
  comm.barrier();
  const fv::Mesh mesh = fv::read_mesh(cgnsPath);
  const fv::PrepareOptions po = options(4, "");
  const std::string serialPath = dir + "/serial.zones.h5", metisPath = dir + "/metis.zones.h5",
                    scotchPath = dir + "/scotch.zones.h5";
  std::string uuid;
  if (comm.rank() == 0) {
    fv::Mesh copy = mesh;
    fv::ValidationReport r = fv::validate_mesh(copy, {});
    uuid = fv::prepare_zone_file(std::move(copy), std::move(r.faces), po, serialPath, "cmd")
               .header.meshUuid;
  }
  uuid = comm.broadcast(uuid, 0);
  fv::MeshSlice slice = fv::read_mesh_slice(cgnsPath, {}, comm.rank(), comm.size());
  EXPECT_TRUE(slice.partialRead);
  const fv::PrepareSummary m = fv::prepare_zone_file_distributed(
      comm, std::move(slice), po, fv::DistPartitioner::Metis, metisPath, "cmd");
  const fv::PrepareSummary s = fv::prepare_zone_file_distributed(
      comm, mesh, po, fv::DistPartitioner::PtScotch, scotchPath, "cmd");
  EXPECT_EQ(m.header.meshUuid, uuid);
  EXPECT_EQ(s.header.meshUuid, uuid);
  if (comm.rank() == 0) {
    EXPECT_TRUE(contents(metisPath) == contents(serialPath));
    for (const std::string& p : {metisPath, scotchPath}) {
      std::ostringstream out;
      EXPECT_EQ(fv::run_zone_check(p, {}, &out), 0) << out.str();
      EXPECT_EQ(fv::open_zone_file(p).header().meshUuid, uuid);
    }
  }
}

TEST(DistPrepare, ThreadedPtScotchIsRefusedWithoutThreadMultiple) {
  // This executable initialises MPI as fvprep does (MPI_THREAD_FUNNELED): Scotch threads, which
  // call MPI themselves, are refused on every rank with one line, before any Scotch call.
  const Comm comm;
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  ASSERT_LT(level, MPI_THREAD_MULTIPLE);
  // a chain of 10 vertices per rank, global ids
  const fv::idx_t local = 10;
  const fv::gidx_t total = fv::gidx_t{local} * comm.size(), first = fv::gidx_t{local} * comm.rank();
  std::vector<fv::gidx_t> vtxdist;
  for (int r = 0; r <= comm.size(); ++r)
    vtxdist.push_back(fv::gidx_t{local} * r);
  std::vector<fv::idx_t> counts;
  for (fv::gidx_t v = first; v < first + local; ++v)
    counts.push_back((v > 0) + (v + 1 < total));
  fv::Csr rows = fv::Csr::from_counts(counts);
  for (fv::idx_t i = 0; i < local; ++i) {
    const fv::gidx_t v = first + i;
    fv::idx_t* out = rows.row(i);
    if (v > 0) *out++ = static_cast<fv::idx_t>(v - 1);
    if (v + 1 < total) *out = static_cast<fv::idx_t>(v + 1);
  }
  fv::PtScotchTuning tuning;
  tuning.threads = 2;
  const std::string got =
      error_of([&] { fv::partition_cells_ptscotch(comm, vtxdist, rows, 2, {}, tuning); });
  EXPECT_NE(got.find("needs MPI_THREAD_MULTIPLE"), std::string::npos) << got;
  EXPECT_EQ(got.find('\n'), std::string::npos) << got;
  // one thread (the default) runs
  tuning.threads = 1;
  const auto part = fv::partition_cells_ptscotch(comm, vtxdist, rows, 2, {}, tuning);
  EXPECT_EQ(part.size(), static_cast<std::size_t>(local));
}

TEST(DistPrepare, BadInputFailsOnEveryRankWithTheSerialErrorAndNoFile) {
  const Comm comm;
  const std::string dir = on_root(comm, [] { return fv::testing::scratch_dir(); });
  fv::testing::BoxSpec spec;
  spec.nx = 5, spec.ny = 4, spec.nz = 3;
  spec.shuffle = true;
  // an inverted cell, a boundary face missing (no default patch), a node out of range
  std::vector<std::function<void(fv::Mesh&)>> breaks = {
      [](fv::Mesh& m) { std::swap(m.cellNodes.row(7)[0], m.cellNodes.row(7)[4]); },
      [](fv::Mesh& m) {
        m.bfaceNodes = fv::Csr::from_counts(
            std::vector<fv::idx_t>(static_cast<std::size_t>(m.nBoundaryFaces() - 1), 4));
        fv::Mesh ref = fv::testing::make_box_mesh([] {
          fv::testing::BoxSpec s;
          s.nx = 5, s.ny = 4, s.nz = 3;
          s.shuffle = true;
          return s;
        }());
        for (fv::idx_t b = 0; b + 1 < ref.nBoundaryFaces(); ++b)
          std::copy_n(ref.bfaceNodes.row(b + 1), 4, m.bfaceNodes.row(b));
        m.bfacePatch.erase(m.bfacePatch.begin());
        m.bfaceFileId.erase(m.bfaceFileId.begin());
      },
      [](fv::Mesh& m) { m.cellNodes.row(3)[2] = m.nNodes() + 5; },
  };
  for (std::size_t i = 0; i < breaks.size(); ++i) {
    SCOPED_TRACE("break " + std::to_string(i));
    fv::Mesh mesh = fv::testing::make_box_mesh(spec);
    breaks[i](mesh);
    const std::string expected = error_of([&] { serial(mesh, options(3, "")); });
    ASSERT_FALSE(expected.empty());
    const std::string path = dir + "/bad.zones.h5";
    const std::string got = error_of([&] {
      fv::prepare_zone_file_distributed(comm, mesh, options(3, ""), fv::DistPartitioner::PtScotch,
                                        path, "cmd");
    });
    EXPECT_EQ(got, expected);
    comm.barrier();
    if (comm.rank() == 0) {
      EXPECT_FALSE(std::filesystem::exists(path));
      for (const auto& e : std::filesystem::directory_iterator(dir))
        EXPECT_EQ(e.path().filename().string().find("bad.zones"), std::string::npos) << e.path();
    }
  }
}

} // namespace
