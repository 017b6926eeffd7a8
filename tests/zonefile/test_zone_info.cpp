#include "formats/mesh_uuid.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/zone_check.hpp"
#include "prep/zone_info.hpp"
#include "synthetic_zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace {

using namespace fv::testing;

std::string write3(const std::string& dir) {
  auto h = strip_header(9, 3);
  h.commandLine = "fvprep strip.cgns --parts 3 -o \"s.zones.h5\"";
  const std::string path = dir + "/i.zones.h5";
  fv::write_zone_file(path, h, strip_zones({2, 3, 4}));
  return path;
}

TEST(ZoneInfo, TextSummaryAndZoneTable) {
  const std::string path = write3(scratch_dir());
  std::ostringstream os;
  fv::print_zone_info(path, false, &os);
  const std::string s = os.str();
  EXPECT_NE(s.find("9 cells, 46 faces, 40 nodes in 3 zones (4 halo cells in total)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("BCWall"), std::string::npos);
  EXPECT_NE(s.find("version " + std::to_string(fv::kZoneFormatVersion)), std::string::npos);
  // wall faces: 4 per cell
  EXPECT_NE(s.find("36 faces"), std::string::npos) << s;
  // one table line per zone after the header line
  const auto table = s.substr(s.find("  zone "));
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 1 + 3) << table;
}

TEST(ZoneInfo, JsonHasHeaderPatchesAndZones) {
  const std::string path = write3(scratch_dir());
  std::ostringstream os;
  fv::print_zone_info(path, true, &os);
  const std::string s = os.str();
  EXPECT_EQ(s.front(), '{');
  EXPECT_EQ(std::count(s.begin(), s.end(), '{'), std::count(s.begin(), s.end(), '}'));
  EXPECT_NE(s.find("\"nZones\": 3"), std::string::npos) << s;
  EXPECT_NE(s.find("\"commandLine\": \"fvprep strip.cgns --parts 3 -o \\\"s.zones.h5\\\"\""),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("{\"name\": \"inlet\", \"bcType\": \"BCInflow\", \"faces\": 1}"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("{\"zone\": 2, \"cells\": 4, \"interiorCells\": 3, \"haloCells\": 1"),
            std::string::npos)
      << s;
}

// Issue 50, item 5: info (text and JSON) and check say whether the mesh is an extruded 2D
// one, with the thickness and the direction fvrun's 2D defaults come from.
TEST(ZoneInfo, InfoAndCheckPrintTheExtrusion) {
  const std::string dir = scratch_dir();
  auto h = strip_header(9, 3);
  h.meshUuid = fv::mesh_uuid(strip_zones({2, 3, 4}), h.nGlobalCells, h.nGlobalNodes);
  const std::string solid = dir + "/solid.zones.h5", flat = dir + "/flat.zones.h5";
  fv::write_zone_file(solid, h, strip_zones({2, 3, 4}));
  h.extrusion = {0.25, {0, 1, 0}};
  fv::write_zone_file(flat, h, strip_zones({2, 3, 4}));
  auto info = [](const std::string& path, bool json) {
    std::ostringstream os;
    fv::print_zone_info(path, json, &os);
    return os.str();
  };
  auto check = [](const std::string& path) {
    std::ostringstream os;
    EXPECT_EQ(fv::run_zone_check(path, {}, &os), 0) << os.str();
    return os.str();
  };
  const std::string said = "2D mesh extruded by 0.25 along (0, 1, 0)";
  EXPECT_NE(info(flat, false).find("extrusion    " + said), std::string::npos) << info(flat, false);
  EXPECT_NE(info(solid, false).find("extrusion    none (a 3D mesh)"), std::string::npos);
  EXPECT_NE(info(flat, true).find("\"extrusion\": {\"thickness\": 0.25, \"direction\": [0, 1, 0]}"),
            std::string::npos)
      << info(flat, true);
  EXPECT_NE(info(solid, true).find("\"extrusion\": null"), std::string::npos);
  EXPECT_NE(check(flat).find("; " + said + ")"), std::string::npos) << check(flat);
  EXPECT_EQ(check(solid).find("extruded"), std::string::npos) << check(solid);
}

} // namespace
