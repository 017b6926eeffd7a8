// The zone file on real zones: generated meshes -> build_global_mesh -> METIS -> build_zones ->
// write -> fvprep check, for 1, 2, 7 and 64 parts.
#include "formats/mesh_reader.hpp"
#include "formats/mesh_uuid.hpp"
#include "formats/zone_file_layout.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/zone_check.hpp"
#include "prep/zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <hdf5.h>

#include <algorithm>
#include <sstream>

namespace {

struct Prepared {
  fv::Mesh mesh;
  fv::GlobalMesh global;
};

Prepared prepare(fv::GenCells cells) {
  fv::GenOptions g;
  g.family = fv::MeshFamily::Channel;
  g.cells = cells;
  g.n = {12, 6, 4};
  g.perturb = 0.2;
  g.shuffle = true;
  Prepared p;
  p.mesh = fv::generate_mesh(g);
  p.global = fv::build_global_mesh(p.mesh, fv::PrepOptions{});
  return p;
}

/// METIS on the renumbered dual graph, returned in fv::Mesh cell order (build_zones' input).
std::vector<fv::idx_t> mesh_order_parts(const fv::GlobalMesh& g, int nParts) {
  const std::vector<fv::idx_t> part = fv::partition_cells(g.cellCells, nParts);
  std::vector<fv::idx_t> byMesh(part.size());
  for (std::size_t c = 0; c < part.size(); ++c)
    byMesh[g.cellMesh[c]] = part[c];
  return byMesh;
}

class ZonePipeline : public ::testing::TestWithParam<fv::GenCells> {};

TEST_P(ZonePipeline, PartsPassCheckCoverTheMeshOnceAndShareOneUuid) {
  const Prepared p = prepare(GetParam());
  const fv::GlobalMesh& g = p.global;
  const std::string dir = fv::testing::scratch_dir();
  std::string uuid;
  for (int parts : {1, 2, 7, 64}) {
    const std::vector<fv::Zone> zones =
        fv::build_zones(g, mesh_order_parts(g, parts), parts, fv::PrepOptions{});
    fv::ZoneFileHeader h = fv::make_zone_header(p.mesh, g, parts);
    h.commandLine = "test --parts " + std::to_string(parts);
    const std::string path = dir + "/p" + std::to_string(parts) + ".zones.h5";
    fv::write_zone_file(path, h, zones);

    std::ostringstream out;
    EXPECT_EQ(fv::run_zone_check(path, {}, &out), 0) << parts << " parts:\n" << out.str();

    // owned cells: every global cell exactly once, whatever the part count
    std::vector<int> owned(static_cast<std::size_t>(g.nCells()), 0);
    const fv::ZoneFile f = fv::open_zone_file(path);
    std::vector<fv::Zone> mapped;
    for (int z = 0; z < parts; ++z) {
      mapped.push_back(fv::map_zone(f, z));
      const fv::Zone& zone = mapped.back();
      EXPECT_GT(zone.nCells, 0);
      for (fv::idx_t c = 0; c < zone.nCells; ++c)
        ++owned[zone.cellGlobalId[c]];
    }
    EXPECT_TRUE(std::all_of(owned.begin(), owned.end(), [](int n) { return n == 1; }));

    // the UUID depends on the mesh only, and the zones reproduce it
    if (uuid.empty()) uuid = f.header().meshUuid;
    EXPECT_EQ(f.header().meshUuid, uuid) << parts << " parts";
    EXPECT_EQ(fv::mesh_uuid(mapped, g.nCells(), g.nNodes()), uuid) << parts << " parts";
  }
}

// mixed unstructured and multi-block structured meshes of other tools: prepare + check
TEST(ZonePipelineShared, RealMixedMeshesPassCheck) {
  for (const auto& [rel, parts] :
       {std::pair<std::string, int>{"cgns/static_mixer_cfx_mixed.cgns", 7},
        {"cgns/pipe_starcd_mixed.cgns", 64},
        {"cgns/multiblock_5blocks_structured.cgns", 4},
        {"cgns/constricting_channel_structured_12blocks.cgns", 8}}) {
    FV_REQUIRE_SHARED_MESH(path, rel);
    const fv::Mesh mesh = fv::read_mesh(path);
    const fv::GlobalMesh g = fv::build_global_mesh(mesh, fv::PrepOptions{});
    const std::vector<fv::Zone> zones =
        fv::build_zones(g, mesh_order_parts(g, parts), parts, fv::PrepOptions{});
    const std::string out = fv::testing::scratch_dir() + "/real.zones.h5";
    fv::write_zone_file(out, fv::make_zone_header(mesh, g, parts), zones);
    std::ostringstream log;
    EXPECT_EQ(fv::run_zone_check(out, {}, &log), 0) << rel << ":\n" << log.str();
  }
}

INSTANTIATE_TEST_SUITE_P(Cells, ZonePipeline,
                         ::testing::Values(fv::GenCells::Hex, fv::GenCells::Mixed),
                         [](const auto& param) { return std::string(fv::to_string(param.param)); });

} // namespace

namespace {

// fvprep's wall distance through the whole pipeline: a generated channel (flat walls at
// y = 0 and y = 1) with --walls on both, 3 zones: every cell's stored distance, halo cells
// included, is min(y, 1 - y) of its centroid; the zone file passes the check; a zone file
// without the dataset (written before it existed) still opens, with an empty array.
TEST(ZonePipelineWallDistance, StoredPerCellAndOptional) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Box;
  o.cells = fv::GenCells::Mixed;
  o.n = {6, 8, 4};
  o.extent = {2, 1, 1};
  const fv::Mesh mesh = fv::generate_mesh(o);
  fv::PrepOptions po;
  po.walls = {"ymin", "ymax"};
  const fv::GlobalMesh g = fv::build_global_mesh(mesh, po);
  ASSERT_EQ(g.wallDistance.size(), static_cast<std::size_t>(g.nCells()));
  const int parts = 3;
  const std::vector<fv::Zone> zones = fv::build_zones(
      g, fv::parts_in_mesh_order(g, fv::partition_cells(g.cellCells, parts, {})), parts, po);
  const std::string path = fv::testing::scratch_dir() + "/walls.zones.h5";
  fv::write_zone_file(path, fv::make_zone_header(mesh, g, parts), zones);
  std::ostringstream log;
  EXPECT_EQ(fv::run_zone_check(path, {}, &log), 0) << log.str();
  {
    const fv::ZoneFile f = fv::open_zone_file(path);
    for (int zi = 0; zi < parts; ++zi) {
      const fv::Zone z = fv::map_zone(f, zi);
      ASSERT_EQ(z.cellWallDistance.size(), static_cast<std::size_t>(z.nTotalCells()));
      for (fv::idx_t c = 0; c < z.nTotalCells(); ++c) {
        const double y = z.cellCentroid[3 * c + 1];
        EXPECT_NEAR(z.cellWallDistance[c], std::min(y, 1 - y), 1e-12) << "zone " << zi;
      }
    }
  } // closes the file
  // a name that is no patch is a usage error naming the patches
  fv::PrepOptions bad;
  bad.walls = {"wing"};
  try {
    (void)fv::build_global_mesh(mesh, bad);
    FAIL() << "no error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'wing'"), std::string::npos) << e.what();
  }
  // the box's patches are not viscous walls by type: no distance, no dataset content
  const fv::GlobalMesh none = fv::build_global_mesh(mesh, fv::PrepOptions{});
  EXPECT_TRUE(none.wallDistance.empty());
  // an older file: the dataset removed from every zone group
  {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    for (int zi = 0; zi < parts; ++zi) {
      const std::string ds = "/" + fv::zonefile::zone_group_name(zi) + "/cells/wallDistance";
      ASSERT_GE(H5Ldelete(file, ds.c_str(), H5P_DEFAULT), 0) << ds;
    }
    H5Fclose(file);
  }
  const fv::ZoneFile old = fv::open_zone_file(path);
  const fv::Zone z0 = fv::map_zone(old, 0);
  EXPECT_TRUE(z0.cellWallDistance.empty());
  EXPECT_GT(z0.nCells, 0);
}

} // namespace
