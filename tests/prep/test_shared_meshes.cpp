// The whole prep core on every real mesh of ../shared/meshes (skipped when absent): global
// invariants, then zones from a METIS partition with every per-zone and cross-zone property.
#include "global_mesh_checks.hpp"
#include "zone_checks.hpp"

#include "formats/mesh_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/partition.hpp"
#include "prep/zone_check.hpp"
#include "prep/zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace fv {
namespace {

class SharedMeshes : public ::testing::TestWithParam<std::string> {};

TEST_P(SharedMeshes, GlobalMeshAndZones) {
  FV_REQUIRE_SHARED_MESH(path, GetParam());
  const Mesh mesh = read_mesh(path);
  PrepReport report;
  const PrepOptions opts;
  const GlobalMesh g = build_global_mesh(mesh, opts, &report);
  testing::check_global_mesh(mesh, g);
  {
    // fvprep's order inside a zone (RCM) is never worse than the file's order.
    PrepReport one;
    build_zones(g, std::vector<idx_t>(static_cast<std::size_t>(g.nCells()), 0), 1, opts, &one);
    EXPECT_LE(one.zones.at(0).bandwidth.bandwidth, report.before.bandwidth + 1) << GetParam();
  }

  const int nParts = static_cast<int>(std::min<idx_t>(4, g.nCells()));
  const std::vector<idx_t> partNew = partition_cells(g.cellCells, nParts);
  const std::vector<idx_t> part = parts_in_mesh_order(g, partNew);
  const std::vector<Zone> zones = build_zones(g, part, nParts, opts, &report);
  for (const Zone& z : zones) {
    SCOPED_TRACE(GetParam() + " zone " + std::to_string(z.zoneId));
    testing::check_zone(z);
  }
  testing::check_zone_set(zones, g.nCells(), g.nNodes());

  // The zone file writer and `fvprep check` accept them.
  const std::string out = fv::testing::scratch_dir() + "/mesh.zones.h5";
  write_zone_file(out, make_zone_header(mesh, g, nParts), zones);
  std::ostringstream log;
  EXPECT_EQ(run_zone_check(out, ZoneCheckOptions{}, &log), 0) << log.str();
}

std::vector<std::string> mesh_names() {
  std::vector<std::string> names = fv::testing::shared_mesh_list();
  if (names.empty()) names.push_back("none"); // one skipped instance when ../shared is absent
  return names;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(All, SharedMeshes, ::testing::ValuesIn(mesh_names()), test_name);

} // namespace
} // namespace fv
