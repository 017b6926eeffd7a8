// Every shared real mesh imports and validates, with counts verified independently:
//  - CGNS: zone sizes, section element ranges and MIXED element-type census from cgnslist and a
//    throwaway cg_* dump (cg_zone_read / cg_section_read / cg_poly_elements_read), cross-checked
//    with h5dump of ElementRange after adf2hdf; boundary faces = element ids after the volume
//    section (minus zone-interface sections for the Pointwise multi-zone file); 2D files: cells
//    = quads, nodes = 2 x 2D nodes, boundary faces = 2 x quads + BAR_2 edges.
//  - structured CGNS: cells = sum of (ni-1)(nj-1)(nk-1) over the blocks (cg_zone_read);
//    nodes and boundary faces by a throwaway program that merges every block's nodes and
//    side-face centres by quantised coordinates (faces seen once are boundary faces), an
//    independent route from the reader's 1-to-1 transforms.
//  - SU2: the NELEM / NPOIN / MARKER_ELEMS header lines (grep), element types by awk census;
//    2D files as for CGNS (one extruded layer).
#include "formats/mesh_reader.hpp"
#include "prep/validate.hpp"
#include "tests/testing/testing.hpp"

#include <array>
#include <map>

namespace {

using fv::idx_t;

struct Expected {
  const char* file;
  std::int64_t cells, nodes, bfaces;
  std::map<fv::CellType, std::int64_t> types;
  std::map<std::string, std::int64_t> patchFaces; ///< a few patches checked by name
  std::string format;
};

using fv::CellType;

const std::vector<Expected>& expected() {
  static const std::vector<Expected> e = {
      {"cgns/bend_coarse_mixed.cgns",
       1288,
       1259,
       620,
       {{CellType::Tet, 154},
        {CellType::Pyramid, 333},
        {CellType::Prism, 31},
        {CellType::Hex, 770}},
       {{"INLET_2D", 35},
        {"OUTLET_2D", 25},
        {"SYMMETRY_2D", 210},
        {"WALL1_2D", 101},
        {"WALL2_2D", 249}},
       "CGNS/ADF"},
      {"cgns/bump3d_pointwise_hex_multizone.cgns",
       12,
       54 - 12,
       3 * 16 - 8,
       {{CellType::Hex, 12}},
       {{"bc-inflow", 2}, {"bc-outflow", 2}, {"bc-symm-z1", 12}, {"bc-symm-top", 6}},
       "CGNS/ADF"},
      {"cgns/bump_2d_quads.cgns",
       3520,
       2 * 3649,
       2 * 3520 + 256,
       {{CellType::Hex, 3520}},
       {{"bump", 40}, {"inlet", 40}, {"upper", 88}, {"symmetry", 7040}},
       "CGNS/ADF"},
      {"cgns/constricting_channel_structured_12blocks.cgns",
       11264,
       13005,
       3328,
       {{CellType::Hex, 11264}},
       {{"entree", 256}, {"sortie", 256}, {"sym1", 704}, {"paroi1", 704}},
       "CGNS/HDF5"},
      {"cgns/cylinder3D_tets_adf.cgns",
       27591,
       5696,
       31699 - 27591,
       {{CellType::Tet, 27591}},
       {{"BC1_on_OUT", 128},
        {"BC1_on_WALL", 512},
        {"BC1_on_IN", 128},
        {"BC1_on_CYLINDER_DOWN", 1040},
        {"BC1_on_CYLINDER_UP", 1040},
        {"BC1_on_SIDE", 1260}},
       "CGNS/ADF"},
      {"cgns/multiblock_5blocks_structured.cgns",
       1809,
       2232,
       780,
       {{CellType::Hex, 1809}},
       {},
       "CGNS/ADF"},
      {"cgns/pipe_starcd_mixed.cgns",
       1584,
       2106,
       960,
       {{CellType::Hex, 1584}},
       {{"PipeWall", 832}, {"PipeInlet", 64}, {"PipeOutlet", 64}},
       "CGNS/ADF"},
      {"cgns/static_mixer_cfx_mixed.cgns",
       13761,
       2786,
       15391 - 13761,
       {{CellType::Tet, 13761}},
       {{"StaticMixer Default", 1582}, {"in1", 14}, {"in2", 14}, {"out", 20}},
       "CGNS/ADF"},
      {"cgns/wedge_2d_quads.cgns",
       3626,
       2 * 3750,
       2 * 3626 + 246,
       {{CellType::Hex, 3626}},
       {{"inlet", 49}, {"lower", 74}, {"outlet", 49}, {"upper", 74}},
       "CGNS/HDF5"},
      {"su2/cylinder_lam.su2",
       22200,
       2 * 22400,
       2 * 22200 + 200 + 200,
       {{CellType::Hex, 22200}},
       {{"cylinder", 200}, {"farfield", 200}},
       "SU2"},
      {"su2/flatplate_turb_137x97.su2",
       13056,
       2 * 13289,
       2 * 13056 + 136 + 96 + 96 + 24 + 112,
       {{CellType::Hex, 13056}},
       {{"farfield", 136}, {"inlet", 96}, {"outlet", 96}, {"symmetry", 24}, {"wall", 112}},
       "SU2"},
      {"su2/mesh_brick_hex_ffd.su2",
       14079,
       16000,
       2 * 361 + 4 * 741,
       {{CellType::Hex, 14079}},
       {{"x_m", 361}, {"z_p", 741}},
       "SU2"},
      {"su2/mesh_brick_prism_ffd.su2",
       29640,
       16800,
       2 * 380 + 2 * 780 + 2 * 1482,
       {{CellType::Prism, 29640}},
       {{"x_m", 380}, {"y_p", 780}, {"z_m", 1482}},
       "SU2"},
      {"su2/mesh_brick_pyra_ffd.su2",
       72625,
       14030,
       2 * 722 + 3 * 1482 + 741,
       {{CellType::Tet, 71884}, {CellType::Pyramid, 741}},
       {{"z_m", 741}, {"z_p", 1482}},
       "SU2"},
      {"su2/naca0012_inv_su2.su2",
       10216,
       2 * 5233,
       2 * 10216 + 200 + 50,
       {{CellType::Prism, 10216}},
       {{"airfoil", 200}, {"farfield", 50}},
       "SU2"},
      {"su2/naca0012_turb_225x65.su2",
       14336,
       2 * 14576,
       2 * 14336 + 128 + 352,
       {{CellType::Hex, 14336}},
       {{"airfoil", 128}, {"farfield", 352}},
       "SU2"},
      {"su2/mesh_brick_tets_ffd.su2",
       59156,
       11703,
       2 * 722 + 4 * 1482,
       {{CellType::Tet, 59156}},
       {{"x_p", 722}, {"y_m", 1482}},
       "SU2"},
  };
  return e;
}

TEST(SharedMeshes, EveryListedMeshHasExpectations) {
  const auto files = fv::testing::shared_mesh_list();
  if (files.empty()) GTEST_SKIP() << "../shared/meshes not available";
  for (const auto& f : files) {
    bool found = false;
    for (const auto& e : expected())
      found |= f == e.file;
    EXPECT_TRUE(found) << f << " has no expected counts in this test";
  }
}

class SharedMesh : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SharedMesh, ImportsAndValidates) {
  const Expected& e = expected()[GetParam()];
  FV_REQUIRE_SHARED_MESH(path, e.file);
  const fv::Mesh m = fv::read_mesh(path);
  EXPECT_EQ(m.format, e.format);
  EXPECT_EQ(m.nCells(), e.cells);
  EXPECT_EQ(m.nNodes(), e.nodes);
  EXPECT_EQ(m.nBoundaryFaces(), e.bfaces);
  std::map<CellType, std::int64_t> types;
  for (CellType t : m.cellType)
    ++types[t];
  EXPECT_EQ(types, e.types);
  std::map<std::string, std::int64_t> perPatch;
  for (idx_t p : m.bfacePatch)
    ++perPatch[m.patches.at(static_cast<std::size_t>(p)).name];
  for (const auto& [name, n] : e.patchFaces)
    EXPECT_EQ(perPatch[name], n) << "patch " << name;
  ASSERT_EQ(m.cellFileId.size(), static_cast<std::size_t>(m.nCells()));
  ASSERT_EQ(m.bfaceFileId.size(), static_cast<std::size_t>(m.nBoundaryFaces()));
  // validation: every face matched, every cell positive and closed
  const fv::ValidationReport r = fv::validate_mesh(m);
  EXPECT_EQ(r.faces.nBoundaryFaces(), e.bfaces);
  double total = 0;
  for (double v : r.geometry.cells.volume)
    total += v;
  EXPECT_GT(total, 0);
}

INSTANTIATE_TEST_SUITE_P(All, SharedMesh, ::testing::Range<std::size_t>(0, expected().size()),
                         [](const auto& tpi) {
                           std::string n = expected()[tpi.param].file;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(SharedMeshes, BumpMultizoneBcTypesComeFromFamilies) {
  FV_REQUIRE_SHARED_MESH(path, "cgns/bump3d_pointwise_hex_multizone.cgns");
  const fv::Mesh m = fv::read_mesh(path);
  std::map<std::string, std::string> bc;
  for (const auto& p : m.patches)
    bc[p.name] = p.bcType;
  EXPECT_EQ(bc["bc-inflow"], "BCInflowSupersonic");
  EXPECT_EQ(bc["bc-outflow"], "BCOutflowSupersonic");
  EXPECT_EQ(bc["bc-symm-wall"], "BCSymmetryPlane");
  EXPECT_EQ(m.fileZones.size(), 3u);
}

TEST(SharedMeshes, TwoDimensionalMeshExtrudesWithDefaultThickness) {
  FV_REQUIRE_SHARED_MESH(path, "cgns/wedge_2d_quads.cgns");
  fv::ReadOptions o;
  o.extrudeThickness = 0.5;
  const fv::Mesh m = fv::read_mesh(path, o);
  double zmax = 0;
  for (idx_t i = 0; i < m.nNodes(); ++i)
    zmax = std::max(zmax, m.xyz[3 * i + 2]);
  EXPECT_DOUBLE_EQ(zmax, 0.5);
  const fv::Mesh d = fv::read_mesh(path);
  zmax = 0;
  for (idx_t i = 0; i < d.nNodes(); ++i)
    zmax = std::max(zmax, d.xyz[3 * i + 2]);
  EXPECT_NEAR(zmax, fv::kDefaultExtrudeFraction * 1.5, 1e-12); // x extent 1.5 is the largest
  // the thickness and direction the mesh records (through the CGNS reader's child process too)
  EXPECT_EQ(m.extrusion.thickness, 0.5);
  EXPECT_NEAR(d.extrusion.thickness, fv::kDefaultExtrudeFraction * 1.5, 1e-12);
  EXPECT_EQ(d.extrusion.direction, (std::array<double, 3>{0, 0, 1}));
}

} // namespace
