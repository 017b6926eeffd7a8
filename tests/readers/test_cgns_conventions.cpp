// CGNS conventions on small files written here with the cg_* API.
#include "formats/mesh_reader.hpp"
#include "prep/validate.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <cmath>
#include <map>

namespace {

using fv::idx_t;

using fv::testing::BcStyle;
using fv::testing::Box;

double total_volume(const fv::Mesh& m) {
  const auto r = fv::validate_mesh(m);
  double v = 0;
  for (double x : r.geometry.cells.volume)
    v += x;
  return v;
}

void expect_box(const fv::Mesh& m, const char* prefix, const char* bcType) {
  EXPECT_EQ(m.nCells(), 8);
  EXPECT_EQ(m.nNodes(), 27);
  EXPECT_EQ(m.nBoundaryFaces(), 24);
  const auto t = fv::testing::patch_table(m);
  ASSERT_EQ(t.size(), 6u);
  for (int s = 0; s < 6; ++s) {
    const std::string n = std::string(prefix) + Box::side_name(s);
    ASSERT_TRUE(t.count(n)) << n;
    EXPECT_EQ(t.at(n).second, 4) << n;
    if (bcType) {
      EXPECT_EQ(t.at(n).first, bcType) << n;
    }
  }
  EXPECT_NEAR(total_volume(m), 8.0, 1e-12);
}

TEST(CgnsConventions, PointListVertex) {
  const std::string f = fv::testing::scratch_dir() + "/v.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::PointListVertex);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.format, "CGNS/HDF5");
  expect_box(m, "bc_", "BCWall");
}

TEST(CgnsConventions, PointRangeFaceCenterInAdf) {
  const std::string f = fv::testing::scratch_dir() + "/r.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::PointRangeFace, false, /*adf=*/true);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.format, "CGNS/ADF");
  expect_box(m, "bc_", "BCInflow");
  // boundary faces keep their CGNS element ids (after the 8 cells)
  EXPECT_EQ(*std::min_element(m.bfaceFileId.begin(), m.bfaceFileId.end()), 9);
  EXPECT_EQ(m.cellFileId.front(), 1);
}

TEST(CgnsConventions, ElementList) {
  const std::string f = fv::testing::scratch_dir() + "/e.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::ElementList);
  expect_box(fv::read_mesh(f), "bc_", "BCOutflow");
}

TEST(CgnsConventions, FamilySpecifiedResolvedThroughFamilyBC) {
  const std::string f = fv::testing::scratch_dir() + "/f.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::FamilySpecified);
  const fv::Mesh m = fv::read_mesh(f);
  expect_box(m, "bc_", nullptr);
  const auto t = fv::testing::patch_table(m);
  EXPECT_EQ(t.at("bc_xmin").first, "BCInflowSubsonic");
  EXPECT_EQ(t.at("bc_zmax").first, "BCWallViscous");
}

TEST(CgnsConventions, SectionsWithoutBcBecomePatches) {
  const std::string f = fv::testing::scratch_dir() + "/n.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::None);
  expect_box(fv::read_mesh(f), "", nullptr);
}

TEST(CgnsConventions, MixedSections) {
  const std::string f = fv::testing::scratch_dir() + "/m.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::PointRangeFace, /*mixed=*/true);
  expect_box(fv::read_mesh(f), "bc_", "BCInflow");
}

TEST(CgnsConventions, NgonNface) {
  const std::string f = fv::testing::scratch_dir() + "/p.cgns";
  fv::testing::write_box_ngon_cgns(f, Box{});
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nCells(), 8);
  for (auto t : m.cellType)
    EXPECT_EQ(t, fv::CellType::Polyhedron);
  EXPECT_EQ(m.polyCellFaces.rows(), 8);
  EXPECT_EQ(m.polyFaceNodes.rows(), 36); // 3 * 3 * 4 = 36 distinct faces of a 2x2x2 box
  EXPECT_EQ(m.nBoundaryFaces(), 24);
  const auto t = fv::testing::patch_table(m);
  for (int s = 0; s < 6; ++s)
    EXPECT_EQ(t.at(std::string("bc_") + Box::side_name(s)).second, 4);
  EXPECT_NEAR(total_volume(m), 8.0, 1e-12);
}

TEST(CgnsConventions, TwoZonesMergedByCoordinates) {
  const std::string f = fv::testing::scratch_dir() + "/z.cgns";
  fv::testing::write_two_zone_cgns(f, false);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nCells(), 16);
  EXPECT_EQ(m.nNodes(), 2 * 27 - 9);
  EXPECT_EQ(m.nBoundaryFaces(), 2 * 24 - 8); // the interface sections became interior faces
  EXPECT_EQ(m.fileZones.size(), 2u);
  EXPECT_NEAR(total_volume(m), 16.0, 1e-12);
  // one zone only
  fv::ReadOptions o;
  o.zone = "right";
  const fv::Mesh r = fv::read_mesh(f, o);
  EXPECT_EQ(r.nCells(), 8);
  EXPECT_EQ(fv::testing::patch_table(r).count("iface2"), 1u);
}

TEST(CgnsConventions, TwoZonesMergedByConnectivity) {
  const std::string f = fv::testing::scratch_dir() + "/c.cgns";
  fv::testing::write_two_zone_cgns(f, true);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nNodes(), 2 * 27 - 9);
  EXPECT_EQ(m.nBoundaryFaces(), 2 * 24 - 8);
  EXPECT_NEAR(total_volume(m), 16.0, 1e-12);
}

TEST(CgnsConventions, TwoDimensionalBaseIsExtruded) {
  const std::string f = fv::testing::scratch_dir() + "/2d.cgns";
  fv::testing::write_2d_cgns(f, 4, 3);
  fv::ReadOptions o;
  o.extrudeThickness = 0.1;
  const fv::Mesh m = fv::read_mesh(f, o);
  EXPECT_EQ(m.nCells(), 12);
  for (auto t : m.cellType)
    EXPECT_EQ(t, fv::CellType::Hex);
  EXPECT_EQ(m.nNodes(), 2 * 20);
  const auto t = fv::testing::patch_table(m);
  EXPECT_EQ(t.at("symmetry"), std::make_pair(std::string("BCSymmetryPlane"), 24));
  EXPECT_EQ(t.at("south"), std::make_pair(std::string("BCWall"), 4));
  EXPECT_EQ(t.at("north"), std::make_pair(std::string("BCFarfield"), 4));
  EXPECT_EQ(t.at("east").second, 3);                     // section without BC
  EXPECT_NEAR(total_volume(m), 2.0 * 0.75 * 0.1, 1e-12); // cells were clockwise in the file
}

TEST(CgnsConventions, ZoneAndBaseSelectionErrors) {
  const std::string f = fv::testing::scratch_dir() + "/z.cgns";
  fv::testing::write_two_zone_cgns(f, false);
  fv::ReadOptions o;
  o.zone = "nope";
  try {
    fv::read_mesh(f, o);
    FAIL() << "expected an error";
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("'left'"), std::string::npos) << e.what();
  }
}

} // namespace

namespace {

TEST(CgnsConventions, HigherOrderCornersAndIgnoredSectionsWarn) {
  const std::string f = fv::testing::scratch_dir() + "/ho.cgns";
  fv::testing::write_box_higher_order_cgns(f, Box{});
  const fv::Mesh m = fv::read_mesh(f);
  expect_box(m, "", nullptr);
  auto has = [&](const char* s) {
    for (const auto& w : m.warnings)
      if (w.find(s) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("HEXA_27 elements are read as their corner nodes"));
  EXPECT_TRUE(has("QUAD_9 elements are read as their corner nodes"));
  EXPECT_TRUE(has("BAR_2 elements (dimension 1) are ignored"));
  EXPECT_TRUE(has("NODE elements (dimension 0) are ignored"));
}

} // namespace

namespace {

TEST(CgnsConventions, VertexBcsWithoutBoundaryElementsPatchTheCellFaces) {
  const std::string f = fv::testing::scratch_dir() + "/vn.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::PointListVertex, false, false,
                              /*sideSections=*/false);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nBoundaryFaces(), 0);
  ASSERT_EQ(m.nodeSetPatches.size(), 6u);
  const fv::ValidationReport r = fv::validate_mesh(m);
  std::map<std::string, int> perPatch;
  for (idx_t p : r.faces.patch)
    if (p >= 0) ++perPatch[r.faces.patches.at(static_cast<std::size_t>(p)).name];
  ASSERT_EQ(perPatch.size(), 6u); // faces along box edges go to one of the two sets only
  for (int s = 0; s < 6; ++s)
    EXPECT_EQ(perPatch[std::string("bc_") + Box::side_name(s)], 4) << Box::side_name(s);
  EXPECT_EQ(r.faces.patches.size(), 6u); // no scratch patch left behind
}

TEST(CgnsConventions, VertexBcsMissingASideIsAnError) {
  const std::string f = fv::testing::scratch_dir() + "/vm.cgns";
  fv::testing::write_box_cgns(f, Box{}, BcStyle::PointListVertex, false, false, false);
  fv::Mesh m = fv::read_mesh(f);
  m.nodeSetPatches.pop_back(); // drop zmax
  EXPECT_THROW(fv::validate_mesh(m), fv::Error);
  fv::ValidateOptions o;
  o.defaultPatch = "rest";
  const fv::ValidationReport r = fv::validate_mesh(m, o);
  int rest = 0;
  for (idx_t p : r.faces.patch)
    if (p >= 0 && r.faces.patches[static_cast<std::size_t>(p)].name == "rest") ++rest;
  EXPECT_EQ(rest, 4);
}

} // namespace

TEST(CgnsConventions, StructuredBlocksGluedByOneToOne) {
  for (bool bothSides : {false, true}) {
    SCOPED_TRACE(bothSides ? "interface written from both zones" : "from one zone");
    const std::string f = fv::testing::scratch_dir() + "/s.cgns";
    fv::testing::write_structured_cgns(f, bothSides);
    const fv::Mesh m = fv::read_mesh(f);
    EXPECT_EQ(m.nCells(), 16);
    for (auto t : m.cellType)
      EXPECT_EQ(t, fv::CellType::Hex);
    EXPECT_EQ(m.nNodes(), 2 * 27 - 9);
    EXPECT_EQ(m.nBoundaryFaces(), 40); // the 4 interface faces of each block are interior
    EXPECT_EQ(m.fileZones.size(), 2u);
    const auto t = fv::testing::patch_table(m);
    EXPECT_EQ(t.at("inlet"), std::make_pair(std::string("BCInflow"), 4));
    EXPECT_EQ(t.at("outlet"), std::make_pair(std::string("BCOutflow"), 4));
    EXPECT_EQ(t.at("floor"), std::make_pair(std::string("BCWall"), 8));
    EXPECT_EQ(t.at("left").second + t.at("right").second, 40 - 16); // sides without a BC
    // the left-handed block is mirrored: every volume positive, the sum exact
    EXPECT_NEAR(total_volume(m), 16.0, 1e-12);
  }
}

TEST(CgnsConventions, StructuredTwoDimensionalSelfConnectedRing) {
  const std::string f = fv::testing::scratch_dir() + "/ring.cgns";
  fv::testing::write_structured_ring_cgns(f, 9, 3);
  fv::ReadOptions o;
  o.extrudeThickness = 0.5;
  const fv::Mesh m = fv::read_mesh(f, o);
  EXPECT_EQ(m.format, "CGNS/ADF");
  EXPECT_EQ(m.nCells(), 16);
  EXPECT_EQ(m.nNodes(), 2 * (27 - 3)); // the cut's 3 node pairs are glued
  EXPECT_EQ(m.nBoundaryFaces(), 2 * 16 + 8 + 8);
  const auto t = fv::testing::patch_table(m);
  EXPECT_EQ(t.at("wall"), std::make_pair(std::string("BCWallInviscid"), 8));
  EXPECT_EQ(t.at("farfield"), std::make_pair(std::string("BCFarfield"), 8));
  EXPECT_EQ(t.at("symmetry").second, 32);
  EXPECT_EQ(t.count("ring"), 0u); // no face left on the cut
  // two regular octagons of circumradius 3 and 1
  EXPECT_NEAR(total_volume(m), 2 * std::sqrt(2.0) * (9 - 1) * 0.5, 1e-12);
}

TEST(CgnsConventions, HybridStructuredAndUnstructuredZonesGlued) {
  const std::string f = fv::testing::scratch_dir() + "/hybrid.cgns";
  fv::testing::write_hybrid_cgns(f);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nCells(), 16);
  EXPECT_EQ(m.nNodes(), 2 * 27 - 9);
  EXPECT_EQ(m.nBoundaryFaces(), 40); // both zones' x = 2 faces are interior
  const auto t = fv::testing::patch_table(m);
  EXPECT_EQ(t.at("inlet"), std::make_pair(std::string("BCInflow"), 4));
  EXPECT_EQ(t.count("iface"), 0u);
  EXPECT_EQ(t.at("block").second, 24 - 4 - 4); // the block's faces without a BC
  EXPECT_NEAR(total_volume(m), 16.0, 1e-12);
}

TEST(CgnsConventions, MixedSectionsWithoutElementStartOffset) {
  // files written before CGNS 3.4 have no ElementStartOffset; Debian's CGNS 3.4 fails on them
  // in cg_poly_elements_read ("ADF 54"): the reader walks the connectivity itself
  for (bool adf : {false, true}) {
    const std::string f = fv::testing::scratch_dir() + (adf ? "/old.adf.cgns" : "/old.cgns");
    fv::testing::write_box_cgns(f, Box{}, BcStyle::PointRangeFace, /*mixed=*/true, adf);
    fv::testing::strip_element_start_offsets(f);
    const fv::Mesh m = fv::read_mesh(f);
    expect_box(m, "bc_", "BCInflow");
  }
}
