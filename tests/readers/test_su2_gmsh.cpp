// SU2 (2D/3D) and Gmsh (2.2/4.1, ASCII/binary) files written here.
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"
#include "prep/validate.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace {

using fv::idx_t;

using fv::testing::Box;

std::map<std::string, int> faces_per_patch(const fv::Mesh& m) {
  std::map<std::string, int> t;
  for (idx_t p : m.bfacePatch)
    ++t[m.patches.at(static_cast<std::size_t>(p)).name];
  return t;
}

double total_volume(const fv::Mesh& m) {
  const auto r = fv::validate_mesh(m);
  double v = 0;
  for (double x : r.geometry.cells.volume)
    v += x;
  return v;
}

TEST(Su2, Box3dWithTrailingFfdSection) {
  const std::string f = fv::testing::scratch_dir() + "/box.su2";
  Box box{3, 2, 2, 0};
  fv::testing::write_text(f, fv::testing::su2_box(box));
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.format, "SU2");
  EXPECT_EQ(m.nCells(), 12);
  EXPECT_EQ(m.nNodes(), 36);
  const auto t = faces_per_patch(m);
  EXPECT_EQ(t.at("xmin"), 4);
  EXPECT_EQ(t.at("ymax"), 6);
  EXPECT_EQ(t.at("zmin"), 6);
  EXPECT_EQ(m.cellFileId[5], 5); // SU2 numbers elements from 0
  EXPECT_NEAR(total_volume(m), 12.0, 1e-12);
}

TEST(Su2, MultiZoneFilesMergeOrGiveOneZone) {
  // two conformal boxes side by side (x in [0, 3] and [3, 6]) as IZONE 1 and 2; each lists its
  // x = 3 side as a marker: merged, those faces are interior
  const std::string f = fv::testing::scratch_dir() + "/two.su2";
  const Box a{3, 2, 2, 0}, b{3, 2, 2, 3};
  fv::testing::write_text(f, "NZONE= 2\nIZONE= 1\n" + fv::testing::su2_box(a) + "IZONE= 2\n" +
                                 fv::testing::su2_box(b));
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nCells(), 24);
  EXPECT_EQ(m.nNodes(), 2 * 36 - 9);
  EXPECT_EQ(m.fileZones.size(), 2u);
  auto t = faces_per_patch(m);
  EXPECT_EQ(t.at("xmin"), 4);
  EXPECT_EQ(t.at("xmax"), 4);
  EXPECT_EQ(t.at("ymax"), 12);
  EXPECT_EQ(t.at("zmin"), 12);
  EXPECT_EQ(m.nBoundaryFaces(), 2 * 4 + 2 * 12 + 2 * 12); // the 6 x 2 x 2 box's sides
  EXPECT_NEAR(total_volume(m), 24.0, 1e-12);
  // --zone 2: the second box alone, with its x = 3 side as a boundary again
  fv::ReadOptions o;
  o.zone = "2";
  const fv::Mesh two = fv::read_mesh(f, o);
  EXPECT_EQ(two.nCells(), 12);
  EXPECT_EQ(two.nNodes(), 36);
  EXPECT_EQ(faces_per_patch(two).at("xmin"), 4);
  double xmin = 1e300;
  for (std::size_t i = 0; i < two.xyz.size(); i += 3)
    xmin = std::min(xmin, two.xyz[i]);
  EXPECT_EQ(xmin, 3.0);
  // a zone that is not there, and a header that promises more zones than the file holds
  o.zone = "3";
  try {
    fv::read_mesh(f, o);
    FAIL() << "no error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("numbered 1..2"), std::string::npos) << e.what();
  }
  fv::testing::write_text(f, "NZONE= 3\nIZONE= 1\n" + fv::testing::su2_box(a) + "IZONE= 2\n" +
                                 fv::testing::su2_box(b));
  try {
    fv::read_mesh(f);
    FAIL() << "no error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("NZONE= 3 but 2 zone(s)"), std::string::npos) << e.what();
  }
}

TEST(Su2, TwoDimensionalIsExtruded) {
  const std::string f = fv::testing::scratch_dir() + "/plane.su2";
  fv::testing::write_text(f, fv::testing::su2_box(Box{3, 2, 1, 0}, /*twoD=*/true));
  fv::ReadOptions o;
  o.extrudeThickness = 2.0;
  const fv::Mesh m = fv::read_mesh(f, o);
  EXPECT_EQ(m.nCells(), 6);
  const auto t = faces_per_patch(m);
  EXPECT_EQ(t.at("symmetry"), 12);
  EXPECT_EQ(t.at("lower"), 3);
  EXPECT_EQ(t.at("left"), 2);
  EXPECT_NEAR(total_volume(m), 6.0 * 2.0, 1e-12);
  // the mesh says how it was made (for the zone file and fvrun's 2D defaults)
  EXPECT_EQ(m.extrusion.thickness, 2.0);
  EXPECT_EQ(m.extrusion.direction, (std::array<double, 3>{0, 0, 1}));
}

TEST(Su2, PrismsFromVtkWedgeOrderArePositive) {
  // one VTK wedge: (0,1,2) bottom triangle with normal pointing away from (3,4,5)
  const std::string f = fv::testing::scratch_dir() + "/wedge.su2";
  fv::testing::write_text(f, "NDIME= 3\nNELEM= 1\n13 0 2 1 3 5 4 0\nNPOIN= 6\n"
                             "0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 0 1\n0 1 1\n"
                             "NMARK= 1\nMARKER_TAG= all\nMARKER_ELEMS= 5\n"
                             "5 0 1 2\n5 3 4 5\n9 0 1 4 3\n9 1 2 5 4\n9 2 0 3 5\n");
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.cellType[0], fv::CellType::Prism);
  EXPECT_NEAR(total_volume(m), 0.5, 1e-12);
  EXPECT_FALSE(m.extrusion.extruded()); // a 3D mesh
}

struct GmshCase {
  double version;
  bool binary;
};

class Gmsh : public ::testing::TestWithParam<GmshCase> {};

TEST_P(Gmsh, BoxWithPhysicalNames) {
  const auto [version, binary] = GetParam();
  const std::string f = fv::testing::scratch_dir() + "/box.msh";
  Box box{2, 3, 2, 1.0};
  fv::testing::write_box_gmsh(f, box, version, binary);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.format,
            std::string(version > 3 ? "Gmsh 4.1" : "Gmsh 2.2") + (binary ? " binary" : " ASCII"));
  EXPECT_EQ(m.nCells(), 12);
  EXPECT_EQ(m.nNodes(), 36);
  const auto t = faces_per_patch(m);
  EXPECT_EQ(t.size(), 6u);
  EXPECT_EQ(t.at("xmin"), 6);
  EXPECT_EQ(t.at("ymin"), 4);
  EXPECT_EQ(t.at("zmax"), 6);
  EXPECT_NEAR(total_volume(m), 12.0, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Versions, Gmsh,
                         ::testing::Values(GmshCase{2.2, false}, GmshCase{2.2, true},
                                           GmshCase{4.1, false}, GmshCase{4.1, true}),
                         [](const auto& tpi) {
                           return std::string(tpi.param.version > 3 ? "v41" : "v22") +
                                  (tpi.param.binary ? "_binary" : "_ascii");
                         });

TEST(Gmsh2d, SurfaceOnlyMeshIsExtruded) {
  const std::string f = fv::testing::scratch_dir() + "/tri.msh";
  // two triangles (one clockwise) on the unit square, four boundary lines in two groups
  fv::testing::write_text(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n"
                             "1 1 \"wall\"\n1 2 \"far\"\n$EndPhysicalNames\n$Nodes\n4\n"
                             "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n$Elements\n6\n"
                             "1 1 2 1 1 1 2\n2 1 2 1 1 2 3\n3 1 2 2 2 3 4\n4 1 2 2 2 4 1\n"
                             "5 2 2 3 3 1 2 3\n6 2 2 3 3 1 4 3\n$EndElements\n");
  fv::ReadOptions o;
  o.extrudeThickness = 0.25;
  const fv::Mesh m = fv::read_mesh(f, o);
  EXPECT_EQ(m.nCells(), 2);
  EXPECT_EQ(m.cellType[0], fv::CellType::Prism);
  const auto t = faces_per_patch(m);
  EXPECT_EQ(t.at("wall"), 2);
  EXPECT_EQ(t.at("far"), 2);
  EXPECT_EQ(t.at("symmetry"), 4);
  EXPECT_NEAR(total_volume(m), 0.25, 1e-12);
}

} // namespace

namespace {

TEST(Gmsh2d, ElementsRepeatedForSeveralPhysicalGroupsAreReadOnce) {
  const std::string f = fv::testing::scratch_dir() + "/rep.msh";
  // edge 1 is in groups "wall" and "far" (MSH 2 lists it twice with the same tag)
  fv::testing::write_text(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n"
                             "1 1 \"wall\"\n1 2 \"far\"\n$EndPhysicalNames\n$Nodes\n4\n"
                             "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n$Elements\n6\n"
                             "1 1 2 1 1 1 2\n1 1 2 2 1 1 2\n2 1 2 1 1 2 3\n3 1 2 2 2 3 4\n"
                             "4 1 2 2 2 4 1\n5 3 2 3 3 1 2 3 4\n$EndElements\n");
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nCells(), 1);
  EXPECT_EQ(m.nBoundaryFaces(), 2 + 4);
  EXPECT_EQ(faces_per_patch(m).at("wall"), 2);
  EXPECT_EQ(std::count_if(m.warnings.begin(), m.warnings.end(),
                          [](const std::string& w) {
                            return w.find("listed more than once") != std::string::npos;
                          }),
            1);
}

} // namespace

namespace {

TEST(Su2, DanglingNodeNamedInFileNumbering) {
  const std::string f = fv::testing::scratch_dir() + "/dangling.su2";
  // one tetrahedron; node 4 (SU2 numbers nodes from 0) is used by no cell
  fv::testing::write_text(f, "NDIME= 3\nNELEM= 1\n10 0 1 2 3\nNPOIN= 5\n0 0 0\n1 0 0\n0 1 0\n"
                             "0 0 1\n5 5 5\nNMARK= 1\nMARKER_TAG= w\nMARKER_ELEMS= 4\n"
                             "5 0 2 1\n5 0 1 3\n5 1 2 3\n5 2 0 3\n");
  const fv::Mesh m = fv::read_mesh(f);
  const fv::ValidationReport r = fv::validate_mesh(m);
  EXPECT_EQ(r.danglingNodes, 1);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("node 4)"), std::string::npos) << r.warnings[0];
  EXPECT_NEAR(r.geometry.cells.volume[0], 1.0 / 6.0, 1e-15);
}

TEST(Gmsh2d, DuplicateNodesAreReportedByTag) {
  // two separate hexahedra touching at x = 1 without sharing nodes (a crack), all faces patched
  const std::string f = fv::testing::scratch_dir() + "/crack.msh";
  std::string s = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n16\n";
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i)
          s += std::to_string(101 + 8 * c + i + 2 * j + 4 * k) + " " + std::to_string(c + i) + " " +
               std::to_string(j) + " " + std::to_string(k) + "\n";
  s += "$EndNodes\n$Elements\n2\n";
  for (int c = 0; c < 2; ++c) {
    const int b = 101 + 8 * c;
    s += std::to_string(c + 1) + " 5 2 1 1 " + std::to_string(b) + " " + std::to_string(b + 1) +
         " " + std::to_string(b + 3) + " " + std::to_string(b + 2) + " " + std::to_string(b + 4) +
         " " + std::to_string(b + 5) + " " + std::to_string(b + 7) + " " + std::to_string(b + 6) +
         "\n";
  }
  s += "$EndElements\n";
  fv::testing::write_text(f, s);
  const fv::Mesh m = fv::read_mesh(f);
  fv::ValidateOptions o;
  o.defaultPatch = "walls";
  const fv::ValidationReport r = fv::validate_mesh(m, o);
  EXPECT_EQ(r.duplicateNodes, 4);
  bool named = false;
  for (const auto& w : r.warnings)
    named |= w.find("nodes 102 and 109") != std::string::npos;
  EXPECT_TRUE(named);
}

} // namespace

// Found by the libFuzzer harnesses (tests/fuzz): a marker count from the file was reserved as
// is (NMARK= 10^13: a 50 TB allocation), and a huge Gmsh node tag grew the dense tag index to
// the tag (8 GB for one node). Counts are bounded by what the file can hold; tags beyond a dense
// range of a few times the file's size are indexed sparsely.
TEST(Su2, ImpossibleMarkerCountIsRefused) {
  const std::string f = fv::testing::scratch_dir() + "/nmark.su2";
  fv::testing::write_text(f, "NDIME= 3\nNMARK= 10000000000000\n");
  try {
    fv::read_mesh(f);
    ADD_FAILURE() << "accepted";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("too short for 10000000000000 markers"), std::string::npos)
        << e.what();
  }
}

TEST(Gmsh, HugeSparseNodeTagsAreRead) {
  const std::string text = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n"
                           "1 0 0 0\n2 1 0 0\n3 0 1 0\n2000000000 0 0 1\n$EndNodes\n"
                           "$Elements\n1\n1 4 2 0 1 1 2 3 2000000000\n$EndElements\n";
  const std::string f = fv::testing::scratch_dir() + "/sparse.msh";
  fv::testing::write_text(f, text);
  const fv::Mesh m = fv::read_mesh(f);
  EXPECT_EQ(m.nCells(), 1);
  EXPECT_EQ(m.nNodes(), 4);
  const std::string twice = fv::testing::scratch_dir() + "/twice.msh";
  fv::testing::write_text(twice, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n"
                                 "2000000000 0 0 0\n2000000000 1 0 0\n$EndNodes\n");
  EXPECT_THROW(fv::read_mesh(twice), fv::Error);
}
