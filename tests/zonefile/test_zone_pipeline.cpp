// The zone file on real zones: generated meshes -> build_global_mesh -> METIS -> build_zones ->
// write -> fvprep check, for 1, 2, 7 and 64 parts.
#include "formats/mesh_reader.hpp"
#include "formats/mesh_uuid.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/zone_check.hpp"
#include "prep/zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

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
