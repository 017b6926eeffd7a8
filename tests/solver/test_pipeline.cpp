// The solver on zones made by the real pipeline: meshes read from ../shared/meshes or made by
// generate_mesh, zones from prep's build_zones, and a zone file round trip (what fvrun maps);
// DeviceZone on such zones: exactly the schema's device arrays, cells/wallDistance included.
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/zones.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/device_zone.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

using fv::real_t;

namespace {

fv::Zone single_zone(const fv::Mesh& mesh) {
  std::vector<fv::idx_t> part(mesh.nCells(), 0);
  std::vector<fv::Zone> zones = fv::build_zones(mesh, part, 1, fv::PrepOptions{});
  return std::move(zones.at(0));
}

std::string all_patches(const std::vector<fv::Patch>& patches, const std::string& type) {
  std::ostringstream s;
  for (const auto& p : patches)
    s << "[patch " << p.name << "]\ntype = " << type << "\n";
  return s.str();
}

real_t max_deviation(const fv::EulerSolver& s) {
  const auto& f = s.config().flow.freestream;
  const auto W = s.primitive();
  const fv::idx_t n = s.zone().nTotalCells();
  const real_t V = std::sqrt(f[1] * f[1] + f[2] * f[2] + f[3] * f[3]);
  const real_t scale[5] = {f[0], V, V, V, f[4]};
  real_t dev = 0;
  for (int k = 0; k < 5; ++k)
    for (fv::idx_t c = 0; c < s.zone().nCells; ++c)
      dev = std::max(dev, std::fabs(W[k * n + c] - f[k]) / scale[k]);
  return dev;
}

/// n entries of the device array at `p` (a ZoneView pointer), copied to the host.
template <class T>
std::vector<T> to_host(const T* p, std::size_t n) {
  std::vector<T> h(n);
  if (n > 0) fv::backend::copy_to_host(fv::active_device(), h.data(), p, n * sizeof(T));
  return h;
}

/// The SELL-32 slicing of the node -> cell relation (ZoneView::node_entry), written here
/// independently of DeviceZone's: slice starts, row lengths, and for each sliced entry its CSR
/// entry (-1: padding).
struct SliceReference {
  std::vector<fv::idx_t> start, count;
  std::vector<long long> from;
  explicit SliceReference(const fv::Csr& c) {
    const fv::idx_t S = fv::ZoneView::kNodeSlice;
    start.push_back(0);
    for (fv::idx_t s = 0; s * S < c.rows(); ++s) {
      fv::idx_t m = 0;
      for (fv::idx_t l = 0; l < S && s * S + l < c.rows(); ++l)
        m = std::max(m, c.size(s * S + l));
      start.push_back(start.back() + S * m);
    }
    from.assign(static_cast<std::size_t>(start.back()), -1);
    for (fv::idx_t n = 0; n < c.rows(); ++n) {
      count.push_back(c.size(n));
      for (fv::idx_t j = 0; j < c.size(n); ++j)
        from[static_cast<std::size_t>(start[n / S] + S * j + n % S)] = c.begin(n) + j;
    }
  }
  template <class T>
  std::vector<T> sliced(const T* v) const {
    std::vector<T> out(from.size(), T{});
    for (std::size_t e = 0; e < from.size(); ++e)
      if (from[e] >= 0) out[e] = v[from[e]];
    return out;
  }
};

/// Raw bytes of every dataset of a zone flagged `device` in the schema, by dataset name (the
/// node -> cell relation and its weights as their SELL-32 slices).
struct DeviceDatasets {
  const fv::Zone& z;
  SliceReference slices{z.nodeCells};
  std::map<std::string, std::string> bytes;
  template <class T>
  void add(const std::string& name, const T* p, std::size_t n) {
    bytes[name] = std::string(reinterpret_cast<const char*>(p), n * sizeof(T));
  }
  template <class T>
  void add(const std::string& name, const fv::Array<T>& a) {
    add(name, a.data(), a.size());
  }
  template <class T>
  void add(const std::string& name, const std::vector<T>& a) {
    add(name, a.data(), a.size());
  }
  template <class T>
  void array(const fv::ArrayInfo& info, const fv::Array<T>& a) {
    if (!info.device) return;
    if (static_cast<const void*>(&a) == &z.nodeCellWeight)
      add(std::string(info.name) + "/sliced", slices.sliced(a.data()));
    else
      add(info.name, a);
  }
  template <class T>
  void optional_array(const fv::ArrayInfo& info, const fv::Array<T>& a) {
    array(info, a);
  }
  void csr(const fv::CsrInfo& info, const fv::Csr& c) {
    if (!info.device) return;
    if (&c == &z.nodeCells) {
      add(std::string(info.name) + "/sliceStart", slices.start);
      add(std::string(info.name) + "/counts", slices.count);
      add(std::string(info.name) + "/sliced", slices.sliced(c.indices().data()));
      return;
    }
    add(std::string(info.name) + "/offsets", c.offsets());
    add(std::string(info.name) + "/indices", c.indices());
  }
};

/// Every ZoneView pointer of `dz`, read back from the device, equals the zone's dataset of its
/// name byte for byte; a dataset the zone lacks gives a null pointer. Returns the bytes seen.
std::size_t expect_device_copy_of(const fv::Zone& z, const fv::DeviceZone& dz) {
  DeviceDatasets host{z, SliceReference(z.nodeCells), {}};
  fv::visit_zone_arrays(z, host);
  std::size_t bytes = 0, members = 0;
  fv::visit_zone_view_arrays(dz.view(), [&](const char* name, const auto* p) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(p)>>;
    ++members;
    const auto it = host.bytes.find(name);
    if (it == host.bytes.end()) {
      ADD_FAILURE() << "ZoneView member " << name << " has no device dataset";
      return;
    }
    const std::string& h = it->second;
    EXPECT_EQ(p == nullptr, h.empty()) << name;
    const std::vector<T> d = to_host(p, h.size() / sizeof(T));
    EXPECT_TRUE(d.size() * sizeof(T) == h.size() &&
                (h.empty() || std::memcmp(d.data(), h.data(), h.size()) == 0))
        << name << " differs on the device";
    bytes += h.size();
  });
  EXPECT_EQ(members, host.bytes.size()) << "device datasets without a ZoneView member";
  return bytes;
}

/// The device copy of `host` at `p` equals it (a null `p` for an empty `host`).
template <class T>
bool same_on_device(const T* p, const fv::Array<T>& host) {
  return (p == nullptr) == host.empty() &&
         to_host(p, host.size()) == std::vector<T>(host.begin(), host.end());
}

/// The SELL-32 node -> cell relation and weights hold the zone's CSR entries in CSR order.
void expect_sliced_node_cells(const fv::Zone& z, const fv::ZoneView& v) {
  const fv::idx_t nn = z.nNodes, S = fv::ZoneView::kNodeSlice, ns = (nn + S - 1) / S;
  const std::vector<fv::idx_t> start = to_host(v.nodeSliceStart, static_cast<std::size_t>(ns) + 1);
  const std::vector<fv::idx_t> count = to_host(v.nodeCellCount, static_cast<std::size_t>(nn));
  ASSERT_EQ(start.front(), 0);
  const auto entries = static_cast<std::size_t>(start.back());
  const std::vector<fv::idx_t> cells = to_host(v.nodeSliceCells, entries);
  const std::vector<fv::real_t> wts = to_host(v.nodeSliceWeight, entries);
  std::size_t checked = 0;
  for (fv::idx_t n = 0; n < nn; ++n) {
    ASSERT_EQ(count[n], z.nodeCells.size(n)) << "node " << n;
    for (fv::idx_t j = 0; j < count[n]; ++j) {
      const fv::idx_t e = start[n / S] + S * j + n % S;
      ASSERT_LT(e, start[n / S + 1]) << "node " << n << " entry " << j << " outside its slice";
      fv::ZoneView host = v; // node_entry() on host copies of the slice starts
      host.nodeSliceStart = start.data();
      ASSERT_EQ(host.node_entry(n, j), e);
      EXPECT_EQ(cells[e], z.nodeCells.indices()[z.nodeCells.begin(n) + j]);
      EXPECT_EQ(wts[e], z.nodeCellWeight[z.nodeCells.begin(n) + j]);
      ++checked;
    }
  }
  EXPECT_EQ(checked, z.nodeCells.indices().size());
}

/// Each ZoneView member, member by member: catches a member bound to the wrong dataset name in
/// visit_zone_view_arrays() (which expect_device_copy_of() trusts).
void expect_members_match(const fv::Zone& z, const fv::ZoneView& v) {
  EXPECT_TRUE(same_on_device(v.cellVolume, z.cellVolume));
  EXPECT_TRUE(same_on_device(v.cellCentroid, z.cellCentroid));
  EXPECT_TRUE(same_on_device(v.cellWallDistance, z.cellWallDistance));
  EXPECT_TRUE(same_on_device(v.faceOwner, z.faceOwner));
  EXPECT_TRUE(same_on_device(v.faceNeighbour, z.faceNeighbour));
  EXPECT_TRUE(same_on_device(v.faceArea, z.faceArea));
  EXPECT_TRUE(same_on_device(v.faceCentroid, z.faceCentroid));
  EXPECT_TRUE(same_on_device(v.faceOwnerDelta, z.faceOwnerDelta));
  EXPECT_TRUE(same_on_device(v.faceNeighbourDelta, z.faceNeighbourDelta));
  EXPECT_TRUE(same_on_device(v.cellFaceOffsets, z.cellFaces.offsets()));
  EXPECT_TRUE(same_on_device(v.cellFaces, z.cellFaces.indices()));
  EXPECT_TRUE(same_on_device(v.cellFaceSign, z.cellFaceSign));
  EXPECT_TRUE(same_on_device(v.cellCellOffsets, z.cellCells.offsets()));
  EXPECT_TRUE(same_on_device(v.cellCells, z.cellCells.indices()));
  EXPECT_TRUE(same_on_device(v.faceNodeOffsets, z.faceNodes.offsets()));
  EXPECT_TRUE(same_on_device(v.faceNodes, z.faceNodes.indices()));
  expect_sliced_node_cells(z, v);
  EXPECT_EQ(v.nCells, z.nCells);
  EXPECT_EQ(v.nTotalCells, z.nTotalCells());
  EXPECT_EQ(v.nFaces, z.nFaces);
  EXPECT_EQ(v.nBoundaryFaces, z.nBoundaryFaces);
  EXPECT_EQ(v.nNodes, z.nNodes);
}

/// A generated box (y in [0, 1]) in `parts` zones through the zone file, walls at y = 0 and
/// y = 1 when `walls`.
std::vector<fv::Zone> box_zones_through_file(bool walls, int parts, const std::string& name) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Box;
  o.cells = fv::GenCells::Mixed;
  o.n = {6, 8, 4};
  o.extent = {2, 1, 1};
  const fv::Mesh mesh = fv::generate_mesh(o);
  fv::PrepOptions po;
  if (walls) po.walls = {"ymin", "ymax"};
  const fv::GlobalMesh g = fv::build_global_mesh(mesh, po);
  const std::vector<fv::Zone> zones = fv::build_zones(
      g, fv::parts_in_mesh_order(g, fv::partition_cells(g.cellCells, parts, {})), parts, po);
  const std::string path = fv::testing::scratch_dir() + "/" + name;
  fv::write_zone_file(path, fv::make_zone_header(mesh, g, parts), zones);
  const fv::ZoneFile file = fv::open_zone_file(path);
  std::vector<fv::Zone> mapped;
  for (int z = 0; z < parts; ++z)
    mapped.push_back(fv::map_zone(file, z));
  return mapped;
}

} // namespace

TEST(DeviceZone, WallDistanceOnTheDeviceWhenTheZoneFileHasIt) {
  const std::vector<fv::Zone> zones = box_zones_through_file(true, 2, "walls.zones.h5");
  for (const fv::Zone& z : zones) {
    SCOPED_TRACE("zone " + std::to_string(z.zoneId));
    ASSERT_GT(z.nHaloCells, 0);
    ASSERT_EQ(z.cellWallDistance.size(), static_cast<std::size_t>(z.nTotalCells()));
    const fv::DeviceZone dz(z);
    const fv::ZoneView& v = dz.view();
    ASSERT_NE(v.cellWallDistance, nullptr);
    const std::vector<real_t> d = to_host(v.cellWallDistance, z.cellWallDistance.size());
    for (fv::idx_t c = 0; c < z.nTotalCells(); ++c) { // halo cells included
      const real_t y = z.cellCentroid[3 * c + 1];
      ASSERT_EQ(d[c], z.cellWallDistance[c]) << "cell " << c;
      EXPECT_NEAR(d[c], std::min(y, 1 - y), 1e-12) << "cell " << c;
    }
    EXPECT_EQ(expect_device_copy_of(z, dz), dz.bytes());
    expect_members_match(z, v);
  }
}

TEST(DeviceZone, NoWallDistanceGivesANullPointer) {
  const std::vector<fv::Zone> zones = box_zones_through_file(false, 2, "nowalls.zones.h5");
  for (const fv::Zone& z : zones) {
    SCOPED_TRACE("zone " + std::to_string(z.zoneId));
    EXPECT_TRUE(z.cellWallDistance.empty());
    const fv::DeviceZone dz(z);
    EXPECT_EQ(dz.view().cellWallDistance, nullptr);
    EXPECT_NE(dz.view().cellVolume, nullptr);
    EXPECT_NE(dz.view().nodeSliceWeight, nullptr);
    // every other member is bound to its dataset, and nothing else is uploaded
    EXPECT_EQ(expect_device_copy_of(z, dz), dz.bytes());
    expect_members_match(z, dz.view());
  }
}

TEST(DeviceZone, NodeWeightsOverrideAndSizeErrorsNameTheArray) {
  fv::GenOptions o;
  o.n = {4, 3, 2};
  const fv::Mesh mesh = fv::generate_mesh(o);
  fv::PrepOptions po;
  po.walls = {"ymin"};
  std::vector<fv::Zone> zones =
      fv::build_zones(mesh, std::vector<fv::idx_t>(mesh.nCells(), 0), 1, po);
  fv::Zone& z = zones.at(0);
  ASSERT_FALSE(z.cellWallDistance.empty());
  {
    const std::vector<real_t> w(z.nodeCellWeight.size(), 0.25);
    const fv::DeviceZone dz(z, &w);
    const SliceReference slices(z.nodeCells);
    const std::vector<real_t> sliced = slices.sliced(w.data());
    EXPECT_EQ(to_host(dz.view().nodeSliceWeight, sliced.size()), sliced);
    const std::vector<real_t> shortW(3, 0.25);
    EXPECT_THROW((void)fv::DeviceZone(z, &shortW), fv::Error);
  }
  auto error_of = [&]() -> std::string {
    try {
      const fv::DeviceZone dz(z);
    } catch (const fv::Error& e) {
      return e.what();
    }
    return "";
  };
  z.cellWallDistance = fv::Array<real_t>(5, 1.0); // neither absent nor nTotalCells long
  EXPECT_NE(error_of().find("zone array cells/wallDistance has 5 entries, expected " +
                            std::to_string(z.nTotalCells())),
            std::string::npos)
      << error_of();
  z.cellWallDistance = fv::Array<real_t>();
  EXPECT_EQ(error_of(), "");
  z.faceArea = fv::Array<real_t>(3, 0.0);
  EXPECT_NE(error_of().find("zone array faces/area has 3 entries"), std::string::npos)
      << error_of();
}

TEST(Pipeline, FreeStreamOnSharedMeshes) {
  const auto meshes = fv::testing::shared_mesh_list();
  if (meshes.empty()) GTEST_SKIP() << "../shared/meshes not available";
  int ran = 0;
  for (const auto& rel : meshes) {
    SCOPED_TRACE(rel);
    const fv::Mesh mesh = fv::read_mesh(fv::testing::shared_mesh(rel));
    if (mesh.nCells() > 60000) continue; // keep the suite fast
    const fv::Zone zone = single_zone(mesh);
    const std::string text =
        "[freestream]\nmach = 0.6\naoa = 8\nsideslip = 5\n" + all_patches(mesh.patches, "farfield");
    const fv::CaseConfig cfg = fv::resolve_case(fv::IniFile::parse(text, rel), mesh.patches);
    fv::EulerSolver solver(zone, cfg);
    solver.initialise();
    for (int i = 0; i < 5; ++i)
      solver.step();
    const real_t dev = max_deviation(solver);
    EXPECT_LT(dev, 1e-12) << rel << " (" << zone.nCells << " cells)";
    std::printf("free stream on %s (%d cells): max deviation %.2e\n", rel.c_str(), zone.nCells,
                dev);
    ++ran;
  }
  EXPECT_GT(ran, 0);
}

TEST(Pipeline, GeneratedWedgeThroughZoneFile) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Wedge;
  o.cells = fv::GenCells::Mixed;
  o.n = {40, 28, 1};
  o.extent = {1.4, 1.0, 0.03};
  o.wedgeAngleDeg = 10;
  o.rampStart = 0.3;
  o.perturb = 0.1;
  o.shuffle = true;
  const fv::Mesh mesh = fv::generate_mesh(o);
  const fv::Zone memZone = single_zone(mesh);
  fv::ZoneFileHeader h;
  h.nZones = 1;
  h.nGlobalCells = memZone.nCells;
  h.nGlobalFaces = memZone.nFaces;
  h.nGlobalNodes = memZone.nNodes;
  h.patches = mesh.patches;
  const std::string path = fv::testing::scratch_dir() + "/wedge.zones.h5";
  fv::write_zone_file(path, h, {memZone});
  const fv::ZoneFile file = fv::open_zone_file(path);
  const fv::Zone fileZone = fv::map_zone(file, 0);

  const std::string text = R"(
[freestream]
mach = 2.5
lift_axis = y
[time]
integrator = ssprk3
cfl = 1.5
cfl_start = 0.5
cfl_ramp_iterations = 50
iterations = 1500
convergence = 4
[monitor]
output_interval = 500
)" + std::string(fv::testing::kSupersonicWedgePatches);
  const fv::CaseConfig cfg =
      fv::resolve_case(fv::IniFile::parse(text, "wedge.ini"), file.header().patches);
  // the mapped zone file gives bitwise the same run as the zone in memory
  std::vector<real_t> early[2];
  for (int run = 0; run < 2; ++run) {
    fv::EulerSolver solver(run == 0 ? memZone : fileZone, cfg);
    solver.initialise();
    for (int i = 0; i < 30; ++i)
      solver.step();
    early[run] = solver.conservative();
  }
  ASSERT_EQ(early[0].size(), early[1].size());
  for (std::size_t i = 0; i < early[0].size(); ++i)
    ASSERT_EQ(early[0][i], early[1][i]) << i;

  std::vector<real_t> result[2];
  {
    fv::EulerSolver solver(fileZone, cfg);
    solver.initialise();
    const fv::RunSummary s = fv::run_case(solver);
    EXPECT_TRUE(s.converged);
    result[1] = solver.primitive();
  }
  // post-shock pressure on the ramp (oblique-shock theory: M 2.5, 10 deg -> p2/p1 = 1.8639)
  const real_t p1 = cfg.flow.freestream[4];
  const real_t pi = std::acos(-1.0), theta = 10 * pi / 180, beta = 31.851 * pi / 180;
  const real_t x0 = 0.3 * 1.4;
  const fv::idx_t n = fileZone.nTotalCells();
  real_t ps = 0, vs = 0;
  for (fv::idx_t c = 0; c < fileZone.nCells; ++c) {
    const real_t x = fileZone.cellCentroid[3 * c], y = fileZone.cellCentroid[3 * c + 1];
    const real_t yb = (x - x0) * std::tan(theta), ys = (x - x0) * std::tan(beta);
    if (x > x0 + 0.3 && x < 1.3 && y > yb + 0.04 && y < ys - 0.08) {
      ps += result[1][4 * n + c] * fileZone.cellVolume[c];
      vs += fileZone.cellVolume[c];
    }
  }
  ASSERT_GT(vs, 0.0);
  std::printf("generated mixed wedge: p2/p1 = %.4f (theory 1.8639)\n", ps / vs / p1);
  EXPECT_NEAR(ps / vs / p1, 1.8639, 0.01 * 1.8639);
}
