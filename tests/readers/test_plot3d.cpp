// Plot3D reader (formats/plot3d_reader.cpp): layouts and storages, gluing of blocks (and of a
// block with itself), the BC side file, malformed files, the NASA TMR NACA 0012 C-grid
// rebuilt from its SU2 copy, and the fvprep command line.
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"
#include "prep/validate.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/readers/plot3d_writers.hpp"
#include "tests/readers/quad_grid.hpp"
#include "tests/testing/testing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/wait.h>

namespace {

using fv::Mesh;
using fv::testing::P3dBlock;
using fv::testing::P3dLayout;
using fv::testing::P3dStorage;

Mesh read(const std::string& path, const std::string& bcFile = "") {
  fv::ReadOptions o;
  o.bcFile = bcFile;
  return fv::read_mesh(path, o);
}

/// Interior faces of a validated mesh.
fv::idx_t interior_faces(const Mesh& m) {
  const fv::ValidationReport r = fv::validate_mesh(m);
  return r.faces.nFaces() - r.faces.nBoundaryFaces();
}

/// The fv::Error message of reading `path` ("" when it reads).
std::string error_of(const std::string& path, const std::string& bcFile = "") {
  try {
    read(path, bcFile);
  } catch (const fv::Error& e) {
    return e.what();
  }
  return "";
}

std::vector<P3dBlock> two_boxes() {
  return {fv::testing::p3d_box(3, 3, 3, 0), fv::testing::p3d_box(3, 3, 3, 2)};
}

TEST(Plot3d, TwoBlocksAreGlued) {
  const std::string f = fv::testing::scratch_dir() + "/two.x";
  fv::testing::write_plot3d(f, two_boxes(), {});
  const Mesh m = read(f);
  EXPECT_EQ(m.nCells(), 16);
  EXPECT_EQ(m.nNodes(), 45);
  EXPECT_EQ(m.nBoundaryFaces(), 40);
  EXPECT_EQ(interior_faces(m), 28);
  EXPECT_EQ(m.fileZones, (std::vector<std::string>{"block1", "block2"}));
  EXPECT_EQ(m.format, "Plot3D (ASCII, multi-block 3D)");
  EXPECT_EQ(fv::testing::patch_table(m).at("block2_imax").second, 4);
  EXPECT_EQ(fv::testing::patch_table(m).count("block1_imax"), 0u); // the interface
}

TEST(Plot3d, StoragesGiveIdenticalMeshes) {
  const std::string dir = fv::testing::scratch_dir();
  std::vector<P3dBlock> blocks = two_boxes();
  blocks[1].iblank.assign(27, 1);
  const Mesh ref = read((fv::testing::write_plot3d(dir + "/ref.x", blocks, {}), dir + "/ref.x"));
  int n = 0;
  for (P3dStorage s : {P3dStorage::Ascii, P3dStorage::Fortran, P3dStorage::Raw})
    for (bool f32 : {false, true})
      for (bool ib : {false, true}) {
        if (s == P3dStorage::Ascii && f32) continue;
        const std::string f = dir + "/v" + std::to_string(n++) + ".xyz";
        fv::testing::write_plot3d(f, blocks, {s, 3, true, ib, f32});
        const Mesh m = read(f);
        SCOPED_TRACE(m.format);
        EXPECT_EQ(m.xyz, ref.xyz);
        EXPECT_EQ(m.cellNodes.indices().to_vector(), ref.cellNodes.indices().to_vector());
        EXPECT_EQ(m.bfaceNodes.indices().to_vector(), ref.bfaceNodes.indices().to_vector());
        EXPECT_EQ(m.format.find("iblank") != std::string::npos, ib);
        EXPECT_NE(m.format.find(s == P3dStorage::Ascii     ? "ASCII"
                                : s == P3dStorage::Fortran ? "Fortran unformatted"
                                                           : "raw binary"),
                  std::string::npos);
        if (s != P3dStorage::Ascii) {
          EXPECT_NE(m.format.find(f32 ? "float32" : "float64"), std::string::npos);
        }
      }
}

TEST(Plot3d, FortranExponentsAndCommas) {
  const std::string dir = fv::testing::scratch_dir();
  fv::testing::write_plot3d(dir + "/ref.x", two_boxes(), {});
  std::string text = fv::testing::plot3d_bytes(two_boxes(), {});
  for (char& c : text)
    c = c == 'e' ? 'D' : c == ' ' ? ',' : c;
  fv::testing::write_text(dir + "/fortran.fmt", text);
  EXPECT_EQ(read(dir + "/fortran.fmt").xyz, read(dir + "/ref.x").xyz);
}

TEST(Plot3d, SingleBlockWithoutBlockCount) {
  const std::string dir = fv::testing::scratch_dir();
  for (P3dStorage s : {P3dStorage::Ascii, P3dStorage::Fortran, P3dStorage::Raw}) {
    const std::string f = dir + "/one" + std::to_string(static_cast<int>(s)) + ".p3d";
    fv::testing::write_plot3d(f, {fv::testing::p3d_box(4, 3, 2)}, {s, 3, false});
    const Mesh m = read(f);
    EXPECT_EQ(m.nCells(), 6);
    EXPECT_NE(m.format.find("single-block 3D"), std::string::npos) << m.format;
    EXPECT_EQ(fv::testing::patch_table(m).at("imin").second, 2);
  }
}

TEST(Plot3d, TwoDimensionalGridsAreExtruded) {
  const std::string dir = fv::testing::scratch_dir();
  const std::vector<P3dBlock> flat = {fv::testing::p3d_box(4, 3, 1),
                                      fv::testing::p3d_box(3, 3, 1, 3)};
  fv::testing::write_plot3d(dir + "/a.p2dfmt", flat, {P3dStorage::Ascii, 2});
  fv::testing::write_plot3d(dir + "/b.x", flat, {P3dStorage::Fortran, 2});
  fv::testing::write_plot3d(dir + "/c.x", flat, {P3dStorage::Raw, 3}); // 3D file, nk = 1
  const Mesh a = read(dir + "/a.p2dfmt");
  EXPECT_EQ(a.nCells(), 6 + 4);
  EXPECT_EQ(a.nNodes(), 2 * (12 + 9 - 3));
  EXPECT_EQ(interior_faces(a), 7 + 4 + 2); // in the 4x3 and 3x3 blocks, and the interface
  EXPECT_EQ(fv::testing::patch_table(a).at("symmetry").second, 2 * 10);
  EXPECT_NE(a.format.find("multi-block 2D"), std::string::npos) << a.format;
  for (const char* other : {"/b.x", "/c.x"}) {
    const Mesh m = read(dir + other);
    EXPECT_EQ(m.xyz, a.xyz) << other;
    EXPECT_EQ(m.cellNodes.indices().to_vector(), a.cellNodes.indices().to_vector()) << other;
  }
}

/// A 2D O-grid: an annulus of ni x nj vertices whose first and last i lines coincide.
P3dBlock ring(int ni, int nj) {
  P3dBlock b;
  b.nv = {ni, nj, 1};
  for (int j = 0; j < nj; ++j)
    for (int i = 0; i < ni; ++i) {
      const double t = 2 * M_PI * (i == ni - 1 ? 0 : i) / (ni - 1), r = 1 + j;
      b.x.push_back(r * std::cos(t));
      b.y.push_back(r * std::sin(t));
    }
  return b;
}

TEST(Plot3d, BlockIsGluedToItself) {
  const std::string f = fv::testing::scratch_dir() + "/ring.p2d";
  fv::testing::write_plot3d(f, {ring(17, 4)}, {P3dStorage::Ascii, 2, false});
  const Mesh m = read(f);
  EXPECT_EQ(m.nCells(), 16 * 3);
  EXPECT_EQ(m.nNodes(), 2 * 16 * 4);
  const auto p = fv::testing::patch_table(m);
  EXPECT_EQ(p.count("imin"), 0u); // the seam is interior
  EXPECT_EQ(p.at("jmin").second, 16);
  EXPECT_EQ(p.at("jmax").second, 16);
  EXPECT_EQ(interior_faces(m), 16 * 3 + 16 * 2); // radial faces (with the seam) + rings
}

TEST(Plot3d, BcSideFile) {
  const std::string dir = fv::testing::scratch_dir();
  fv::testing::write_plot3d(dir + "/grid.x", two_boxes(), {});
  fv::testing::write_text(dir + "/grid.bc", "# patch bc_type block side irange jrange krange\n"
                                            "walls  BCWall     1 jmin * * *\n"
                                            "walls  BCWall     2 jmin 1:3 1 *   # same patch\n"
                                            "inlet  BCInflow   1 imin 1 * *\n"
                                            "part   BCOutflow  2 imax * * *\n"
                                            "rest   BCFarfield 2 imax * 2:3 *\n");
  const auto p = fv::testing::patch_table(read(dir + "/grid.x")); // GRID.bc next to it
  EXPECT_EQ(p.at("walls"), std::make_pair(std::string("BCWall"), 8));
  EXPECT_EQ(p.at("inlet"), std::make_pair(std::string("BCInflow"), 4));
  EXPECT_EQ(p.at("part").second, 2); // the later line takes the faces at j 2:3
  EXPECT_EQ(p.at("rest").second, 2);
  EXPECT_EQ(p.at("block1_jmax").second, 4); // the rest: one patch per block side
  EXPECT_EQ(p.count("block1_imax"), 0u);
  // an explicit file wins; a file that does not exist is an error
  fv::testing::write_text(dir + "/other.bc", "all BCWall 1 kmin * * *\n");
  EXPECT_EQ(fv::testing::patch_table(read(dir + "/grid.x", dir + "/other.bc")).at("all").second, 4);
  EXPECT_NE(error_of(dir + "/grid.x", dir + "/none.bc").find("none.bc"), std::string::npos);
}

TEST(Plot3d, MalformedBcFilesGiveOneLine) {
  const std::string dir = fv::testing::scratch_dir();
  fv::testing::write_plot3d(dir + "/grid.x", two_boxes(), {});
  const std::pair<const char*, const char*> cases[] = {
      {"w BCWall 3 imin * * *\n", "grid.bc:1: block 3 does not exist"},
      {"w BCWall 1 left * * *\n", "grid.bc:1: side 'left'"},
      {"\nw BCWall 1 imin * *\n", "grid.bc:2: 6 fields; expected 7"},
      {"w BCWall 1 imin * 1:9 *\n", "grid.bc:1: jrange 1:9 lies outside block 1"},
      {"w BCWall 1 imax 1 * *\n", "grid.bc:1: side imax of block 1 is i = 3"},
      {"w BCWall 1 imin a:b * *\n", "grid.bc:1: irange 'a:b'"},
  };
  for (const auto& [text, needle] : cases) {
    fv::testing::write_text(dir + "/grid.bc", text);
    const std::string e = error_of(dir + "/grid.x");
    EXPECT_NE(e.find(needle), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(Plot3d, IblankHolesAreKeptWithAWarning) {
  const std::string f = fv::testing::scratch_dir() + "/ib.x";
  std::vector<P3dBlock> b = {fv::testing::p3d_box(3, 3, 3)};
  b[0].iblank.assign(27, 1);
  b[0].iblank[13] = 0;
  b[0].iblank[0] = -2; // an interface to block 2 in Plot3D's convention: not a hole
  fv::testing::write_plot3d(f, b, {P3dStorage::Fortran, 3, false, true});
  const Mesh m = read(f);
  EXPECT_EQ(m.nCells(), 8);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("1 nodes have iblank 0"), std::string::npos) << m.warnings[0];
}

/// The bytes of `s` with `n` bytes written over at `at`.
std::string patched(std::string s, std::size_t at, const void* v, std::size_t n) {
  std::memcpy(s.data() + at, v, n);
  return s;
}

TEST(Plot3d, MalformedFilesGiveOneLine) {
  const std::string dir = fv::testing::scratch_dir();
  const std::vector<P3dBlock> blocks = two_boxes();
  const std::string text = fv::testing::plot3d_bytes(blocks, {});
  const std::string fort = fv::testing::plot3d_bytes(blocks, {P3dStorage::Fortran});
  const std::string raw = fv::testing::plot3d_bytes(blocks, {P3dStorage::Raw});
  std::vector<P3dBlock> bad = blocks;
  bad[1].y[5] = std::numeric_limits<double>::quiet_NaN();
  const std::int32_t neg = -3, huge = 1 << 30, wrong = 99;
  std::int32_t be = 4;
  std::reverse(reinterpret_cast<char*>(&be), reinterpret_cast<char*>(&be) + 4);
  std::string bigEndian = fort;
  for (std::size_t at : {std::size_t{0}, std::size_t{8}})
    bigEndian = patched(bigEndian, at, &be, 4);
  const std::pair<std::string, std::string> cases[] = {
      {text.substr(0, text.size() * 3 / 4),
       "block 2 of 2 (3 x 3 x 3, multi-block 3D) is truncated"},
      {text + " 1.0 2.0\n", "2 numbers after the last of 2 blocks"},
      {fort.substr(0, fort.size() - 100), "Fortran record 4 (block 2) at byte"},
      {patched(fort, 16, &neg, 4), "block 1 of 2: dimension i is -3"},
      {patched(fort, 24, &huge, 4), "block 1 of 2 (3 x 3 x 1073741824): too many nodes"},
      {patched(fort, fort.size() - 4, &wrong, 4), "end marker 99 does not match"},
      {raw.substr(0, raw.size() - 8), "is truncated"},
      {patched(raw, 4, &neg, 4), "not a Plot3D grid"},
      {fv::testing::plot3d_bytes(bad, {P3dStorage::Raw}), "block 2: y of node (3,2,1) is nan"},
      {fv::testing::plot3d_bytes(bad, {}), "block 2: y of node (3,2,1) is nan"},
      {bigEndian, "big-endian"},
      {"", "empty Plot3D file"},
      {"x 3 3\n1.0\n", "not a Plot3D grid"},
      {"1\n3 3 1\n1 2 3 4 5 6 7 8 9\n", "block 1 of 1 (3 x 3 x 1, multi-block 3D) is truncated"},
      {[] {
         std::string t = "1\n1 3 3\n";
         for (int k = 0; k < 27; ++k)
           t += "0.5 ";
         return t;
       }(),
       "block 1 of 1 has 1 vertex in direction i (at least 2 needed)"},
  };
  int n = 0;
  for (const auto& [bytes, needle] : cases) {
    const std::string f = dir + "/bad" + std::to_string(n++) + ".x";
    fv::testing::write_text(f, bytes);
    const std::string e = error_of(f);
    EXPECT_NE(e, "") << "case " << n;
    EXPECT_NE(e.find(f + ": "), std::string::npos) << e;
    EXPECT_NE(e.find(needle), std::string::npos) << "case " << n << ": " << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

// ---- the NASA TMR NACA 0012 C-grid (225 x 65), rebuilt from its SU2 copy

/// The 2D quads of an SU2 mesh read by fvprep: the bottom of each extruded hexahedron.
std::vector<std::array<fv::idx_t, 4>> bottom_quads(const Mesh& m) {
  const fv::idx_t nn2 = m.nNodes() / 2;
  std::vector<std::array<fv::idx_t, 4>> q;
  for (fv::idx_t c = 0; c < m.nCells(); ++c) {
    const auto row = m.cellNodes.row(c);
    std::array<fv::idx_t, 4> quad{};
    for (int k = 0; k < 4; ++k) {
      quad[static_cast<std::size_t>(k)] = row[k];
      EXPECT_LT(row[k], nn2);
    }
    q.push_back(quad);
  }
  return q;
}

/// Sorted (centroid, volume) of every cell, from validation's geometry.
std::vector<std::array<double, 4>> cell_signatures(const Mesh& m) {
  const fv::ValidationReport r = fv::validate_mesh(m);
  std::vector<std::array<double, 4>> s;
  for (fv::idx_t c = 0; c < m.nCells(); ++c) {
    const double* x = &r.geometry.cells.centroid[3 * static_cast<std::size_t>(c)];
    s.push_back({x[0], x[1], x[2], r.geometry.cells.volume[static_cast<std::size_t>(c)]});
  }
  std::sort(s.begin(), s.end());
  return s;
}

std::vector<std::array<double, 3>> sorted_nodes(const Mesh& m) {
  std::vector<std::array<double, 3>> s;
  for (fv::idx_t v = 0; v < m.nNodes(); ++v)
    s.push_back({m.xyz[3 * v], m.xyz[3 * v + 1], m.xyz[3 * v + 2]});
  std::sort(s.begin(), s.end());
  return s;
}

/// Near to `rel` relative to the scale (1: the chord).
bool near(double a, double b, double scale, double rel = 1e-12) {
  return std::fabs(a - b) <= rel * std::max({std::fabs(a), std::fabs(b), scale});
}

TEST(Plot3d, NacaCGridMatchesItsSu2Copy) {
  FV_REQUIRE_SHARED_MESH(su2Path, "su2/naca0012_turb_225x65.su2");
  const Mesh su2 = fv::read_mesh(su2Path);
  fv::testing::QuadGrid g = fv::testing::structure_quads(bottom_quads(su2));
  ASSERT_EQ(g.ni, 225);
  ASSERT_EQ(g.nj, 65);
  // the walk starts at a far-field corner: j = 1 must be the wall and wake, as in the original
  std::vector<fv::idx_t> flipped(g.node.size());
  for (int j = 0; j < g.nj; ++j)
    for (int i = 0; i < g.ni; ++i)
      flipped[static_cast<std::size_t>(i + g.ni * j)] =
          g.node[static_cast<std::size_t>(i + g.ni * (g.nj - 1 - j))];
  P3dBlock blk;
  blk.nv = {g.ni, g.nj, 1};
  for (fv::idx_t v : flipped) {
    blk.x.push_back(su2.xyz[3 * static_cast<std::size_t>(v)]);
    blk.y.push_back(su2.xyz[3 * static_cast<std::size_t>(v) + 1]);
  }
  // the wake cut: j = 1 nodes duplicated on both sides (49 of them, trailing edge included)
  int shared = 0;
  for (int i = 0; i < g.ni; ++i)
    shared +=
        flipped[static_cast<std::size_t>(i)] == flipped[static_cast<std::size_t>(g.ni - 1 - i)] &&
        i < g.ni / 2;
  EXPECT_EQ(shared, 49);
  EXPECT_EQ(flipped[48], flipped[176]); // trailing edge

  const std::string dir = fv::testing::scratch_dir();
  fv::testing::write_plot3d(dir + "/naca.p2dfmt", {blk}, {P3dStorage::Ascii, 2, false});
  fv::testing::write_plot3d(dir + "/naca.x", {blk}, {P3dStorage::Fortran, 2, false});
  fv::testing::write_text(dir + "/naca.bc", "airfoil  BCWall      1 jmin 49:177 *\n"
                                            "farfield BCFarfield  1 jmax * *\n"
                                            "farfield BCFarfield  1 imin * *\n"
                                            "farfield BCFarfield  1 imax * *\n");
  for (const char* name : {"/naca.p2dfmt", "/naca.x"}) {
    SCOPED_TRACE(name);
    const Mesh p3d = fv::read_mesh(dir + name);
    ASSERT_EQ(p3d.nCells(), su2.nCells());
    ASSERT_EQ(p3d.nNodes(), su2.nNodes()); // the wake cut glued
    EXPECT_EQ(p3d.nBoundaryFaces(), su2.nBoundaryFaces());
    const auto n1 = sorted_nodes(su2), n2 = sorted_nodes(p3d);
    for (std::size_t v = 0; v < n1.size(); ++v)
      for (int d = 0; d < 3; ++d)
        ASSERT_TRUE(near(n1[v][d], n2[v][d], 1.0)) << "node " << v;
    const auto c1 = cell_signatures(su2), c2 = cell_signatures(p3d);
    double vmax = 0;
    for (const auto& c : c1)
      vmax = std::max(vmax, c[3]);
    for (std::size_t c = 0; c < c1.size(); ++c) {
      for (int d = 0; d < 3; ++d)
        ASSERT_TRUE(near(c1[c][d], c2[c][d], 1.0)) << "cell " << c;
      ASSERT_TRUE(near(c1[c][3], c2[c][3], 0.0))
          << "cell " << c << ": " << c1[c][3] << " vs " << c2[c][3];
    }
    const auto ps = fv::testing::patch_table(su2), pp = fv::testing::patch_table(p3d);
    EXPECT_EQ(pp.at("airfoil"), std::make_pair(std::string("BCWall"), ps.at("airfoil").second));
    EXPECT_EQ(pp.at("farfield").second, ps.at("farfield").second);
    EXPECT_EQ(pp.size(), ps.size());
    // the wall faces are the same faces: compare their node sets as coordinates
    auto wall = [](const Mesh& m) {
      const auto pt = std::find_if(m.patches.begin(), m.patches.end(),
                                   [](const fv::Patch& p) { return p.name == "airfoil"; }) -
                      m.patches.begin();
      std::vector<std::array<double, 3>> c;
      for (fv::idx_t f = 0; f < m.nBoundaryFaces(); ++f) {
        if (m.bfacePatch[static_cast<std::size_t>(f)] != pt) continue;
        std::array<double, 3> s{0, 0, 0};
        for (fv::idx_t k = 0; k < 4; ++k)
          for (int d = 0; d < 3; ++d)
            s[d] += m.xyz[3 * static_cast<std::size_t>(m.bfaceNodes.row(f)[k]) + d] / 4;
        c.push_back(s);
      }
      std::sort(c.begin(), c.end());
      return c;
    };
    const auto w1 = wall(su2), w2 = wall(p3d);
    ASSERT_EQ(w1.size(), 128u);
    ASSERT_EQ(w1.size(), w2.size());
    for (std::size_t f = 0; f < w1.size(); ++f)
      for (int d = 0; d < 3; ++d)
        ASSERT_TRUE(near(w1[f][d], w2[f][d], 1.0)) << "wall face " << f;
  }
  // without a BC file: one patch per block side, the wake cut interior
  std::remove((dir + "/naca.bc").c_str());
  const auto p = fv::testing::patch_table(fv::read_mesh(dir + "/naca.x"));
  EXPECT_EQ(p.at("jmin").second, 128);
  EXPECT_EQ(p.at("imin").second + p.at("imax").second + p.at("jmax").second, 352);
}

// ---- fvprep

/// Runs fvprep; its exit code, stdout and stderr (merged) in `out`.
int fvprep(const std::string& dir, const std::string& args, std::string& out) {
  const std::string log = dir + "/fvprep.log";
  const int st = std::system((std::string(FVPREP_EXE) + " " + args + " >" + log + " 2>&1").c_str());
  std::ifstream f(log);
  std::stringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return WEXITSTATUS(st);
}

TEST(Plot3d, FvprepInfoPrepareCheck) {
  const std::string dir = fv::testing::scratch_dir();
  fv::testing::write_plot3d(dir + "/grid.x", two_boxes(), {P3dStorage::Fortran});
  fv::testing::write_text(dir + "/walls.bc",
                          "wall BCWall 1 jmin * * *\nwall BCWall 2 jmin * * *\n");
  std::string out;
  ASSERT_EQ(fvprep(dir, "info " + dir + "/grid.x --bc " + dir + "/walls.bc", out), 0) << out;
  EXPECT_NE(out.find("Plot3D (Fortran unformatted float64, multi-block 3D)"), std::string::npos)
      << out;
  EXPECT_NE(out.find("28 interior, 40 boundary"), std::string::npos) << out;
  EXPECT_NE(out.find("wall"), std::string::npos) << out;
  ASSERT_EQ(fvprep(dir,
                   dir + "/grid.x --bc " + dir + "/walls.bc -o " + dir + "/z.zones.h5 --parts 2",
                   out),
            0)
      << out;
  ASSERT_EQ(fvprep(dir, "check " + dir + "/z.zones.h5", out), 0) << out;
  EXPECT_NE(fvprep(dir, "info " + dir + "/grid.x --bc " + dir + "/missing.bc", out), 0);
  EXPECT_NE(out.find("missing.bc"), std::string::npos) << out;
}

} // namespace
