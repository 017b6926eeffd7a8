// Zones on generated boxes: per-zone invariants, cross-zone consistency, global ids independent
// of the partitioning, bad part vectors.
#include "box_mesh.hpp"
#include "zone_checks.hpp"

#include "common/error.hpp"
#include "formats/mesh_uuid.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/prepare.hpp"
#include "prep/zone_check.hpp"
#include "prep/zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <thread>

namespace fv {
namespace {

using testing::BoxCells;
using testing::BoxSpec;
using testing::make_box_mesh;

// Part of each cell (file order) by slabs of its node-average x, or a 2-D checkerboard of
// x/y slabs that gives every zone several neighbours and corner-only contacts.
std::vector<idx_t> slab_parts(const Mesh& m, int nParts, bool checker) {
  std::vector<idx_t> part(static_cast<std::size_t>(m.nCells()));
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (idx_t v = 0; v < m.nNodes(); ++v)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], m.xyz[3 * v + d]);
      hi[d] = std::max(hi[d], m.xyz[3 * v + d]);
    }
  for (idx_t c = 0; c < m.nCells(); ++c) {
    double x[3] = {0, 0, 0};
    const idx_t n = m.cellNodes.size(c);
    for (idx_t k = 0; k < n; ++k)
      for (int d = 0; d < 3; ++d)
        x[d] += m.xyz[3 * m.cellNodes.row(c)[k] + d] / n;
    auto slab = [&](int d, int ns) {
      return std::min(ns - 1, static_cast<int>(ns * (x[d] - lo[d]) / (hi[d] - lo[d])));
    };
    part[c] = checker ? (slab(0, nParts) + slab(1, 2) * 7) % nParts : slab(0, nParts);
  }
  return part;
}

struct Case {
  BoxCells cells;
  int nParts;
  bool checker;
};

class ZonesOnBoxes : public ::testing::TestWithParam<Case> {};

TEST_P(ZonesOnBoxes, ZoneInvariantsAndConsistency) {
  const Case c = GetParam();
  BoxSpec spec;
  spec.cells = c.cells;
  spec.nx = 8, spec.ny = 5, spec.nz = 4;
  spec.shuffle = true;
  spec.jitter = 0.1;
  const Mesh mesh = make_box_mesh(spec);
  const PrepOptions opts;
  PrepReport report;
  const GlobalMesh g = build_global_mesh(mesh, opts, &report);
  const std::vector<idx_t> part = slab_parts(mesh, c.nParts, c.checker);
  const std::vector<Zone> zones = build_zones(g, part, c.nParts, opts, &report);
  ASSERT_EQ(zones.size(), static_cast<std::size_t>(c.nParts));
  for (const Zone& z : zones) {
    SCOPED_TRACE("zone " + std::to_string(z.zoneId));
    testing::check_zone(z);
  }
  testing::check_zone_set(zones, g.nCells(), g.nNodes());

  // Faces: every global face in some zone; interface faces in exactly two.
  std::map<gidx_t, int> faceZones;
  for (const Zone& z : zones)
    for (idx_t f = 0; f < z.nFaces; ++f)
      ++faceZones[z.faceGlobalId[f]];
  EXPECT_EQ(static_cast<idx_t>(faceZones.size()), g.nFaces());
  for (const Zone& z : zones)
    for (idx_t f = 0; f < z.nFaces; ++f)
      EXPECT_EQ(faceZones[z.faceGlobalId[f]], z.faceNeighbour[f] >= z.nCells ? 2 : 1);

  // The report printer mentions every zone.
  std::ostringstream os;
  print_prep_report(os, report);
  EXPECT_NE(os.str().find("zone " + std::to_string(c.nParts - 1) + ":"), std::string::npos)
      << os.str();
  EXPECT_NE(os.str().find("bandwidth"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ZonesOnBoxes,
    ::testing::Values(Case{BoxCells::Hex, 1, false}, Case{BoxCells::Hex, 3, false},
                      Case{BoxCells::Hex, 4, true}, Case{BoxCells::Tet, 1, false},
                      Case{BoxCells::Tet, 5, true}, Case{BoxCells::Prism, 3, true},
                      Case{BoxCells::Mixed, 4, true}));

TEST(Zones, ThreadsThatBuildZonesFitTheMemoryLeft) {
  const std::uint64_t gib = 1ull << 30;
  // unknown memory or zone size: one thread per zone up to the threads
  EXPECT_EQ(zone_build_threads(16, 64, 0, 2 * gib), 16);
  EXPECT_EQ(zone_build_threads(16, 64, 100 * gib, 0), 16);
  EXPECT_EQ(zone_build_threads(16, 4, 100 * gib, gib), 4);
  // plenty of memory: the threads
  EXPECT_EQ(zone_build_threads(64, 64, 400 * gib, 2 * gib), 64);
  // 58 GiB left at 2 GiB a zone: 29 zones in memory, so 28 threads
  EXPECT_EQ(zone_build_threads(64, 64, 58 * gib, 2 * gib), 28);
  // not even two zones fit: one thread all the same
  EXPECT_EQ(zone_build_threads(64, 64, gib, 2 * gib), 1);
  EXPECT_EQ(zone_build_threads(0, 64, 0, 0), 1);
}

TEST(Zones, GlobalIdsDoNotDependOnThePartitioning) {
  BoxSpec spec;
  spec.cells = BoxCells::Tet;
  spec.nx = 5, spec.ny = 4, spec.nz = 3;
  spec.shuffle = true;
  const Mesh mesh = make_box_mesh(spec);
  const PrepOptions opts;
  const GlobalMesh g = build_global_mesh(mesh, opts);
  auto centroids = [&](const std::vector<Zone>& zones) {
    std::map<gidx_t, std::vector<double>> m;
    for (const Zone& z : zones)
      for (idx_t c = 0; c < z.nCells; ++c)
        m[z.cellGlobalId[c]] = {z.cellCentroid[3 * c], z.cellCentroid[3 * c + 1],
                                z.cellCentroid[3 * c + 2]};
    return m;
  };
  auto nodes = [&](const std::vector<Zone>& zones) {
    std::map<gidx_t, std::vector<double>> m;
    for (const Zone& z : zones)
      for (idx_t v = 0; v < z.nNodes; ++v)
        m[z.nodeGlobalId[v]] = {z.nodeXyz[3 * v], z.nodeXyz[3 * v + 1], z.nodeXyz[3 * v + 2]};
    return m;
  };
  const auto one =
      build_zones(g, std::vector<idx_t>(static_cast<std::size_t>(mesh.nCells()), 0), 1, opts);
  const auto four = build_zones(g, slab_parts(mesh, 4, true), 4, opts);
  EXPECT_EQ(centroids(one), centroids(four));
  EXPECT_EQ(nodes(one), nodes(four));
  const ZoneFileHeader h = make_zone_header(mesh, g, 4);
  EXPECT_EQ(h.nZones, 4);
  EXPECT_EQ(h.nGlobalCells, mesh.nCells());
  EXPECT_EQ(h.nGlobalNodes, mesh.nNodes());
  EXPECT_EQ(h.nGlobalFaces, g.nFaces());
  EXPECT_EQ(h.patches.size(), mesh.patches.size());
  EXPECT_EQ(h.meshUuid.size(), 36u);
  EXPECT_EQ(h.meshUuid, make_zone_header(mesh, build_global_mesh(mesh, opts), 1).meshUuid);
}

// Compares every schema array of two zones (visit_zone_arrays()), entry by entry.
struct SameArrays {
  const Zone& other;
  template <class T>
  void compare(const char* name, const Array<T>& a) const {
    bool found = false;
    visit_zone_arrays(other, Lookup<T>{name, a, found});
    EXPECT_TRUE(found) << name;
  }
  template <class T>
  struct Lookup {
    const char* name;
    const Array<T>& a;
    bool& found;
    void array(const ArrayInfo& i, const Array<T>& b) const { check(i.name, b); }
    void optional_array(const ArrayInfo& i, const Array<T>& b) const { check(i.name, b); }
    template <class U>
    void array(const ArrayInfo&, const Array<U>&) const {}
    template <class U>
    void optional_array(const ArrayInfo&, const Array<U>&) const {}
    void csr(const CsrInfo&, const Csr&) const {}
    void check(const char* n, const Array<T>& b) const {
      if (std::string(n) != name) return;
      found = true;
      ASSERT_EQ(a.size(), b.size()) << name;
      for (std::size_t k = 0; k < a.size(); ++k)
        ASSERT_EQ(a[k], b[k]) << name << " entry " << k;
    }
  };
  template <class T>
  void array(const ArrayInfo& i, const Array<T>& a) const {
    compare(i.name, a);
  }
  template <class T>
  void optional_array(const ArrayInfo& i, const Array<T>& a) const {
    compare(i.name, a);
  }
  void csr(const CsrInfo& i, const Csr& a) const {
    bool found = false;
    visit_zone_arrays(other, CsrLookup{i.name, a, found});
    EXPECT_TRUE(found) << i.name;
  }
  struct CsrLookup {
    const char* name;
    const Csr& a;
    bool& found;
    template <class U>
    void array(const ArrayInfo&, const Array<U>&) const {}
    template <class U>
    void optional_array(const ArrayInfo&, const Array<U>&) const {}
    void csr(const CsrInfo& i, const Csr& b) const {
      if (std::string(i.name) != name) return;
      found = true;
      ASSERT_EQ(a.rows(), b.rows()) << name;
      ASSERT_EQ(a.nnz(), b.nnz()) << name;
      EXPECT_TRUE(std::equal(a.offsets().begin(), a.offsets().end(), b.offsets().begin())) << name;
      EXPECT_TRUE(std::equal(a.indices().begin(), a.indices().end(), b.indices().begin())) << name;
    }
  };
};

// The only zone of a one-part prepare is built outside the zone pipeline's parallel region, so
// its per-face and per-node loops run on the OpenMP threads (prep/parallel_work.hpp): the zone
// must be the same for any thread count. The box is large enough for those loops to take
// threads (over 200000 faces and nodes).
TEST(Zones, OnlyZoneIsTheSameOnAnyThreadCount) {
#if defined(_OPENMP)
  BoxSpec spec;
  spec.cells = BoxCells::Hex;
  spec.nx = 60, spec.ny = 60, spec.nz = 57;
  spec.jitter = 0.2;
  spec.shuffle = true;
  const Mesh mesh = make_box_mesh(spec);
  const PrepOptions opts;
  const GlobalMesh g = build_global_mesh(mesh, opts);
  ASSERT_GT(g.nFaces(), 200000);
  ASSERT_GT(g.nNodes(), 200000);
  const std::vector<idx_t> part(static_cast<std::size_t>(mesh.nCells()), 0);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::vector<Zone> serial = build_zones(g, part, 1, opts);
  omp_set_num_threads(std::max(threads, 3));
  const std::vector<Zone> threaded = build_zones(g, part, 1, opts);
  omp_set_num_threads(threads);
  ASSERT_EQ(serial.size(), 1u);
  ASSERT_EQ(threaded.size(), 1u);
  visit_zone_arrays(serial[0], SameArrays{threaded[0]});
#else
  GTEST_SKIP() << "built without OpenMP";
#endif
}

TEST(Zones, WrittenZoneFilePassesFvprepCheck) {
  BoxSpec spec;
  spec.cells = BoxCells::Prism;
  spec.nx = 6, spec.ny = 4, spec.nz = 3;
  spec.shuffle = true;
  spec.jitter = 0.1;
  const Mesh mesh = make_box_mesh(spec);
  const PrepOptions opts;
  const GlobalMesh g = build_global_mesh(mesh, opts);
  const int nParts = 3;
  const auto zones = build_zones(g, slab_parts(mesh, nParts, true), nParts, opts);
  ZoneFileHeader h = make_zone_header(mesh, g, nParts);
  EXPECT_EQ(h.meshUuid, mesh_uuid(zones, h.nGlobalCells, h.nGlobalNodes));
  const std::string path = fv::testing::scratch_dir() + "/box.zones.h5";
  write_zone_file(path, h, zones);
  std::ostringstream out;
  EXPECT_EQ(run_zone_check(path, ZoneCheckOptions{}, &out), 0) << out.str();
}

TEST(Zones, PrepareZoneFileStreamsZonesIntoACheckedFile) {
  BoxSpec spec;
  spec.cells = BoxCells::Mixed;
  spec.nx = 6, spec.ny = 4, spec.nz = 3;
  spec.shuffle = true;
  const Mesh mesh = make_box_mesh(spec);
  PrepareOptions po;
  po.parts = 3;
  const std::string path = fv::testing::scratch_dir() + "/mixed.zones.h5";
  const PrepareSummary s = prepare_zone_file(Mesh(mesh), build_faces(mesh), po, path, "fvprep box");
  EXPECT_EQ(s.header.commandLine, "fvprep box");
  EXPECT_NE(s.header.options.find("renumber=rcm; parts=3"), std::string::npos) << s.header.options;
  EXPECT_EQ(s.report.zones.size(), 3u);
  EXPECT_EQ(s.partition.nParts, 3);
  EXPECT_GT(s.dataBytes, 0u);
  std::ostringstream out;
  EXPECT_EQ(run_zone_check(path, ZoneCheckOptions{}, &out), 0) << out.str();
  // The in-memory variant gives the same zones.
  const PreparedZones mem = prepare_zones(mesh, build_faces(mesh), po);
  ASSERT_EQ(mem.zones.size(), 3u);
  EXPECT_EQ(mem.header.meshUuid, s.header.meshUuid);
  for (const Zone& z : mem.zones)
    EXPECT_EQ(z.nCells, s.report.zones[z.zoneId].nCells);
}

TEST(Zones, ContiguousHyperplanesAreAtMostTwoRuns) {
  BoxSpec spec;
  spec.cells = BoxCells::Tet;
  spec.nx = 6, spec.ny = 5, spec.nz = 4;
  spec.shuffle = true;
  const Mesh mesh = make_box_mesh(spec);
  PrepOptions opts;
  PrepReport plain, contiguous;
  const GlobalMesh g = build_global_mesh(mesh, opts);
  const auto part = slab_parts(mesh, 3, false);
  build_zones(g, part, 3, opts, &plain);
  opts.contiguousHyperplanes = true;
  const auto zones = build_zones(g, part, 3, opts, &contiguous);
  for (const Zone& z : zones) {
    testing::check_zone(z);
    // Same number of hyperplanes as without the reordering (the sweep DAG is unchanged).
    EXPECT_EQ(z.hyperplanes.rows(), plain.zones[z.zoneId].hyperplanes.count);
    for (idx_t h = 0; h < z.hyperplanes.rows(); ++h) {
      int runs = 0;
      for (idx_t k = z.hyperplanes.begin(h); k < z.hyperplanes.end(h); ++k)
        runs += k == z.hyperplanes.begin(h) ||
                z.hyperplanes.indices()[k] != z.hyperplanes.indices()[k - 1] + 1;
      EXPECT_LE(runs, 2) << "zone " << z.zoneId << " hyperplane " << h;
    }
  }
}

TEST(Zones, NoRenumberingKeepsFileOrderInsideZones) {
  BoxSpec spec;
  spec.nx = 4, spec.ny = 3, spec.nz = 2;
  const Mesh mesh = make_box_mesh(spec);
  PrepOptions opts;
  opts.renumber = Renumber::None;
  const auto zones =
      build_zones(mesh, std::vector<idx_t>(static_cast<std::size_t>(mesh.nCells()), 0), 1, opts);
  ASSERT_EQ(zones.size(), 1u);
  for (idx_t c = 0; c < zones[0].nCells; ++c)
    EXPECT_EQ(zones[0].cellGlobalId[c], c);
  testing::check_zone(zones[0]);
}

TEST(Zones, BadPartVectorsAreErrors) {
  BoxSpec spec;
  spec.nx = 3, spec.ny = 2, spec.nz = 1;
  const Mesh mesh = make_box_mesh(spec);
  const PrepOptions opts;
  const GlobalMesh g = build_global_mesh(mesh, opts);
  std::vector<idx_t> part(static_cast<std::size_t>(mesh.nCells()), 0);
  EXPECT_THROW(build_zones(g, std::vector<idx_t>(2, 0), 1, opts), Error);
  part[1] = 5;
  EXPECT_THROW(build_zones(g, part, 2, opts), Error);
  part[1] = 0;
  try {
    build_zones(g, part, 2, opts);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("part 1 of 2 has no cells"), std::string::npos)
        << e.what();
  }
}

/// The pipeline tests' case: a 16x4x4 box in 8 slabs, and the zone ids 0..7 in order.
struct SlabCase {
  static constexpr int nParts = 8;
  Mesh m;
  GlobalMesh g;
  std::vector<idx_t> part;
  std::vector<int> all;
  SlabCase() {
    BoxSpec spec;
    spec.nx = 16, spec.ny = 4, spec.nz = 4;
    m = make_box_mesh(spec);
    g = build_global_mesh(m, PrepOptions{});
    part = slab_parts(m, nParts, false);
    all.resize(nParts);
    std::iota(all.begin(), all.end(), 0);
  }
};

// The sink sees the zones in order, one call at a time; an error stops the pipeline and the
// lowest failing zone is reported.
TEST(ZonePipeline, SinkGetsZonesInOrderAndItsErrorStopsTheBuild) {
  const SlabCase sc;
  const GlobalMesh& g = sc.g;
  const int nParts = SlabCase::nParts;
  const std::vector<idx_t>& part = sc.part;
  std::vector<int> seen;
  build_zones_each(g, part, nParts, PrepOptions{}, [&](Zone&& z) { seen.push_back(z.zoneId); });
  EXPECT_EQ(seen, sc.all);

  seen.clear();
  try {
    build_zones_each(g, part, nParts, PrepOptions{}, [&](Zone&& z) {
      if (z.zoneId == 3) FV_THROW("sink refuses zone 3");
      seen.push_back(z.zoneId);
    });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sink refuses zone 3"), std::string::npos) << e.what();
  }
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2}));
}

// A streaming sink's tails: each zone's prepare (the checksums of its bytes) runs once, after
// its sink call and before its write; the writes (the zones' file writes) run one at a time, in
// zone order, while other zones are built; an error in a prepare or a write stops the pipeline
// like a sink's, and no write runs twice or before its prepare.
TEST(ZonePipeline, TailsPrepareThenWriteOneAtATimeInZoneOrder) {
  const SlabCase sc;
  const GlobalMesh& g = sc.g;
  const int nParts = SlabCase::nParts;
  const std::vector<idx_t>& part = sc.part;
  for (const auto& [failPrepareAt, failWriteAt] : {std::pair<int, int>{-1, -1}, {-1, 5}, {4, -1}}) {
    std::mutex mutex;
    std::vector<int> sunk, prepared, written;
    std::atomic<int> inWrite{0}, mostInWrite{0};
    auto sink = [&](Zone&& z) -> ZoneTail {
      const int id = z.zoneId;
      {
        std::lock_guard<std::mutex> lock(mutex);
        sunk.push_back(id);
      }
      auto prepare = [&, id] {
        std::this_thread::sleep_for(std::chrono::milliseconds(3 * (id % 3))); // out of order
        {
          std::lock_guard<std::mutex> lock(mutex);
          EXPECT_NE(std::find(sunk.begin(), sunk.end(), id), sunk.end()) << "prepare before sink";
          EXPECT_EQ(std::count(prepared.begin(), prepared.end(), id), 0) << "prepared twice";
          prepared.push_back(id);
        }
        if (id == failPrepareAt) FV_THROW("prepare of zone " << id << " fails");
      };
      auto write = [&, id] {
        const int now = ++inWrite;
        int most = mostInWrite.load();
        while (now > most && !mostInWrite.compare_exchange_weak(most, now)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2)); // let others overlap
        {
          std::lock_guard<std::mutex> lock(mutex);
          EXPECT_NE(std::find(prepared.begin(), prepared.end(), id), prepared.end())
              << "zone " << id << " written before its prepare";
          written.push_back(id);
        }
        --inWrite;
        if (id == failWriteAt) FV_THROW("write of zone " << id << " fails");
      };
      return ZoneTail{prepare, write};
    };
    std::string error;
    try {
      build_zones_streamed(g, part, nParts, PrepOptions{}, sink);
    } catch (const Error& e) {
      error = e.what();
    }
    EXPECT_EQ(mostInWrite.load(), 1);
    for (std::size_t i = 0; i < written.size(); ++i)
      EXPECT_EQ(written[i], static_cast<int>(i)); // in order, no repeats
    if (failPrepareAt < 0 && failWriteAt < 0) {
      EXPECT_EQ(error, "");
      EXPECT_EQ(sunk, sc.all);
      std::sort(prepared.begin(), prepared.end());
      EXPECT_EQ(prepared, sc.all);
      EXPECT_EQ(written, sc.all);
    } else if (failWriteAt >= 0) {
      EXPECT_NE(error.find("write of zone 5 fails"), std::string::npos) << error;
      EXPECT_LE(written.size(), static_cast<std::size_t>(failWriteAt + 1));
    } else {
      EXPECT_NE(error.find("prepare of zone 4 fails"), std::string::npos) << error;
      EXPECT_LE(written.size(), static_cast<std::size_t>(failPrepareAt)); // not zone 4 onwards
    }
  }
}

// A tail with only a write, as before prepares existed, and one with only a prepare.
TEST(ZonePipeline, TailsWithOnePart) {
  const SlabCase sc;
  for (const bool writeOnly : {true, false}) {
    std::mutex mutex;
    std::vector<int> ran;
    auto sink = [&](Zone&& z) -> ZoneTail {
      const int id = z.zoneId;
      auto work = [&, id] {
        std::lock_guard<std::mutex> lock(mutex);
        ran.push_back(id);
      };
      return writeOnly ? ZoneTail{{}, work} : ZoneTail{work, {}};
    };
    build_zones_streamed(sc.g, sc.part, SlabCase::nParts, PrepOptions{}, sink);
    if (!writeOnly) std::sort(ran.begin(), ran.end());
    EXPECT_EQ(ran, sc.all) << (writeOnly ? "write only" : "prepare only");
  }
}

} // namespace
} // namespace fv
