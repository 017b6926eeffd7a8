// OpenFOAM polyMesh directories written here: a hand-written tetrahedron and polyhedron, meshes
// written from fv::Mesh by a test-only polyMesh writer (ASCII / binary, faceList /
// faceCompactList, 32- / 64-bit labels), 2D cases with empty patches, round trips of SU2 and
// generated meshes, and malformed inputs.
#include "common/error.hpp"
#include "formats/mesh_reader.hpp"
#include "prep/faces.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/validate.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;
using fv::CellType;
using fv::idx_t;
using fv::testing::Box;

// ---------------------------------------------------------------- test-only polyMesh writer

/// How write_polymesh() writes the files.
struct FoamStyle {
  bool binary = false;
  bool compact = false; ///< faces as faceCompactList (offsets + point labels)
  bool label64 = false; ///< binary: 64-bit labels
  /// OpenFOAM type of each patch by name; others from the BC type (BCWall -> wall,
  /// BCSymmetryPlane -> symmetryPlane, else patch).
  std::map<std::string, std::string> types;
};

std::string header(const FoamStyle& s, const char* cls, const char* object,
                   const std::string& note = {}) {
  std::ostringstream os;
  os << "/*--------------------------------*- C++ -*----------------------------------*\\\n"
        "  =========                 |\n"
        "  \\\\      /  F ield         | OpenFOAM: The Open Source CFD Toolbox\n"
        "   \\\\    /   O peration     | Version:  v2312\n"
        "    \\\\  /    A nd           | Website:  www.openfoam.com\n"
        "     \\\\/     M anipulation  |\n"
        "\\*---------------------------------------------------------------------------*/\n"
        "FoamFile\n{\n    version     2.0;\n    format      "
     << (s.binary ? "binary" : "ascii") << ";\n";
  if (s.binary) os << "    arch        \"LSB;label=" << (s.label64 ? 64 : 32) << ";scalar=64\";\n";
  os << "    class       " << cls << ";\n";
  if (!note.empty()) os << "    note        \"" << note << "\";\n";
  os << "    location    \"constant/polyMesh\";\n    object      " << object << ";\n}\n"
     << "// * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * //\n\n";
  return os.str();
}

const char* kFooter =
    "\n\n// ************************************************************************* //\n";

/// A labelList body: ASCII `N\n(\n...\n)` or binary `N\n(raw)`.
void label_list(std::ostringstream& os, const FoamStyle& s, const std::vector<idx_t>& v,
                bool inlineAscii = false) {
  if (s.binary) {
    os << "\n" << v.size() << "\n";
    if (v.empty()) return;
    os << "(";
    for (idx_t x : v) {
      if (s.label64) {
        const std::int64_t y = x;
        os.write(reinterpret_cast<const char*>(&y), 8);
      } else {
        os.write(reinterpret_cast<const char*>(&x), 4);
      }
    }
    os << ")";
    return;
  }
  os << v.size() << (inlineAscii ? "(" : "\n(\n");
  for (std::size_t i = 0; i < v.size(); ++i)
    os << v[i] << (inlineAscii ? (i + 1 < v.size() ? " " : "") : "\n");
  os << ")";
}

/// Writes mesh m as DIR/constant/polyMesh: faces from prep's build_faces() (right-hand normal
/// from owner to neighbour, as OpenFOAM wants), interior faces first, then the boundary faces
/// patch by patch. Cells keep their indices. Returns the polyMesh directory.
std::string write_polymesh(const std::string& caseDir, const fv::Mesh& m, const FoamStyle& s = {}) {
  const fv::FaceSet fs = fv::build_faces(m);
  std::vector<idx_t> order;
  for (idx_t f = 0; f < fs.nFaces(); ++f)
    if (fs.neighbour[f] != fv::kNone) order.push_back(f);
  const std::size_t nInternal = order.size();
  std::vector<std::size_t> start, count;
  for (std::size_t p = 0; p < fs.patches.size(); ++p) {
    start.push_back(order.size());
    for (idx_t f = 0; f < fs.nFaces(); ++f)
      if (fs.neighbour[f] == fv::kNone && fs.patch[f] == static_cast<idx_t>(p)) order.push_back(f);
    count.push_back(order.size() - start.back());
  }
  const fs::path dir = fs::path(caseDir) / "constant" / "polyMesh";
  fs::create_directories(dir);
  auto write = [&](const char* name, const std::string& text) {
    std::ofstream f(dir / name, std::ios::binary);
    f << text;
  };
  { // points
    std::ostringstream os;
    os.precision(17);
    os << header(s, "vectorField", "points");
    const std::size_t n = m.xyz.size() / 3;
    if (s.binary) {
      os << "\n" << n << "\n(";
      os.write(reinterpret_cast<const char*>(m.xyz.data()),
               static_cast<std::streamsize>(8 * m.xyz.size()));
      os << ")";
    } else {
      os << n << "\n(\n";
      for (std::size_t i = 0; i < n; ++i)
        os << "(" << m.xyz[3 * i] << " " << m.xyz[3 * i + 1] << " " << m.xyz[3 * i + 2] << ")\n";
      os << ")";
    }
    write("points", os.str() + kFooter);
  }
  { // faces
    std::ostringstream os;
    os << header(s, s.compact ? "faceCompactList" : "faceList", "faces");
    if (s.compact) {
      std::vector<idx_t> off{0}, conn;
      for (idx_t f : order) {
        conn.insert(conn.end(), fs.faceNodes.row(f), fs.faceNodes.row(f) + fs.faceNodes.size(f));
        off.push_back(static_cast<idx_t>(conn.size()));
      }
      label_list(os, s, off);
      os << "\n\n";
      label_list(os, s, conn);
    } else {
      os << order.size() << "\n(\n";
      for (idx_t f : order) {
        label_list(
            os, s,
            std::vector<idx_t>(fs.faceNodes.row(f), fs.faceNodes.row(f) + fs.faceNodes.size(f)),
            true);
        os << "\n";
      }
      os << ")";
    }
    write("faces", os.str() + kFooter);
  }
  const std::string note =
      "nPoints:" + std::to_string(m.nNodes()) + "  nCells:" + std::to_string(m.nCells()) +
      "  nFaces:" + std::to_string(order.size()) + "  nInternalFaces:" + std::to_string(nInternal);
  { // owner, neighbour
    std::vector<idx_t> own, nei;
    for (idx_t f : order) {
      own.push_back(fs.owner[f]);
      if (fs.neighbour[f] != fv::kNone) nei.push_back(fs.neighbour[f]);
    }
    std::ostringstream o1, o2;
    o1 << header(s, "labelList", "owner", note);
    label_list(o1, s, own);
    write("owner", o1.str() + kFooter);
    o2 << header(s, "labelList", "neighbour", note);
    label_list(o2, s, nei);
    write("neighbour", o2.str() + kFooter);
  }
  { // boundary (always text, as OpenFOAM writes it)
    std::ostringstream os;
    os << header(s, "polyBoundaryMesh", "boundary") << fs.patches.size() << "\n(\n";
    for (std::size_t p = 0; p < fs.patches.size(); ++p) {
      const fv::Patch& pt = fs.patches[p];
      std::string type = pt.bcType == "BCWall"            ? "wall"
                         : pt.bcType == "BCSymmetryPlane" ? "symmetryPlane"
                                                          : "patch";
      if (s.types.count(pt.name)) type = s.types.at(pt.name);
      os << "    " << pt.name << "\n    {\n        type            " << type << ";\n";
      if (type == "wall" || type == "empty" || type == "symmetryPlane")
        os << "        inGroups        List<word> 1(" << type << ");\n";
      os << "        nFaces          " << count[p] << ";\n        startFace       " << start[p]
         << ";\n    }\n";
    }
    os << ")";
    write("boundary", os.str() + kFooter);
  }
  return dir.string();
}

// ---------------------------------------------------------------- helpers

fv::Mesh su2_box_mesh(const Box& box, const std::string& dir) {
  const std::string f = dir + "/box.su2";
  fv::testing::write_text(f, fv::testing::su2_box(box));
  return fv::read_mesh(f);
}

/// Volumes of every cell by prep's validation (which also checks closure and positivity).
std::vector<double> volumes(const fv::Mesh& m) {
  return fv::validate_mesh(m).geometry.cells.volume;
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v)
    s += x;
  return s;
}

std::map<CellType, int> type_counts(const fv::Mesh& m) {
  std::map<CellType, int> t;
  for (CellType c : m.cellType)
    ++t[c];
  return t;
}

/// read_mesh() must throw an fv::Error whose message contains every needle.
void expect_error(const std::string& path, std::initializer_list<const char*> needles) {
  try {
    fv::read_mesh(path);
    ADD_FAILURE() << "no error for " << path;
  } catch (const fv::Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    for (const char* n : needles)
      EXPECT_NE(msg.find(n), std::string::npos) << "'" << n << "' not in: " << msg;
  }
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  fv::testing::write_text(p.string(), text);
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A unit tetrahedron written by hand: outward faces of cell 0, the uniform shorthand for the
// owners, an empty neighbour list, comments everywhere.
const char* kTetPoints = "/* points */\nFoamFile\n{\n    version 2.0;\n    format ascii;\n"
                         "    class vectorField;\n    object points;\n}\n"
                         "// the four corners\n4\n(\n(0 0 0) // origin\n(1 0 0)\n(0 1 0)\n"
                         "/* apex */ (0 0 1)\n)\n// end\n";
const char* kTetFaces = "FoamFile { version 2.0; format ascii; class faceList; object faces; }\n"
                        "4 ( 3(0 2 1) 3(0 1 3)\n 3(1 2 3) 3(0 3 2) )\n";
const char* kTetOwner = "FoamFile { version 2.0; format ascii; class labelList; note "
                        "\"nPoints: 4 nCells: 1 nFaces: 4 nInternalFaces: 0\"; object owner; }\n"
                        "4{0}\n";
const char* kTetNeighbour =
    "FoamFile { version 2.0; format ascii; class labelList; object neighbour; }\n0()\n";
const char* kTetBoundary =
    "FoamFile { version 2.0; format ascii; class polyBoundaryMesh; object boundary; }\n"
    "1\n(\n    walls\n    {\n        type wall;\n        inGroups List<word> 1(wall);\n"
    "        nFaces 4;\n        startFace 0;\n    }\n)\n";

fs::path write_tet(const std::string& scratch) {
  const fs::path d = fs::path(scratch) / "tet" / "constant" / "polyMesh";
  write_file(d / "points", kTetPoints);
  write_file(d / "faces", kTetFaces);
  write_file(d / "owner", kTetOwner);
  write_file(d / "neighbour", kTetNeighbour);
  write_file(d / "boundary", kTetBoundary);
  return d;
}

// ---------------------------------------------------------------- tests

TEST(PolyMesh, HandWrittenTetrahedron) {
  const fs::path d = write_tet(fv::testing::scratch_dir());
  for (const fs::path& p : {d, d.parent_path().parent_path(), d / "boundary"}) {
    const fv::Mesh m = fv::read_mesh(p.string());
    EXPECT_EQ(m.format, "OpenFOAM polyMesh (ASCII)");
    EXPECT_EQ(m.path, d.string());
    ASSERT_EQ(m.nCells(), 1);
    EXPECT_EQ(m.cellType[0], CellType::Tet);
    EXPECT_EQ(m.nNodes(), 4);
    EXPECT_EQ(m.nBoundaryFaces(), 4);
    const auto t = fv::testing::patch_table(m);
    EXPECT_EQ(t.at("walls"), std::make_pair(std::string("BCWall"), 4));
    EXPECT_NEAR(sum(volumes(m)), 1.0 / 6.0, 1e-15);
  }
  // a case with an empty CASE.foam file, as ParaView opens it
  const fs::path foam = d.parent_path().parent_path() / "tet.foam";
  write_file(foam, "");
  EXPECT_EQ(fv::read_mesh(foam.string()).nCells(), 1);
}

TEST(PolyMesh, HexBlockWithPatches) {
  const std::string dir = fv::testing::scratch_dir();
  const fv::Mesh src = su2_box_mesh(Box{2, 2, 2, 0}, dir);
  FoamStyle s;
  s.types = {{"xmin", "patch"},         {"xmax", "patch"},    {"ymin", "wall"},
             {"ymax", "symmetryPlane"}, {"zmin", "symmetry"}, {"zmax", "wall"}};
  write_polymesh(dir + "/case", src, s);
  const fv::Mesh m = fv::read_mesh(dir + "/case");
  EXPECT_EQ(m.nCells(), 8);
  EXPECT_EQ(type_counts(m)[CellType::Hex], 8);
  EXPECT_EQ(m.nNodes(), 27);
  EXPECT_EQ(m.nBoundaryFaces(), 24);
  EXPECT_TRUE(m.polyCell.empty());
  const auto t = fv::testing::patch_table(m);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t.at("xmin"), std::make_pair(std::string("UserDefined"), 4));
  EXPECT_EQ(t.at("ymin"), std::make_pair(std::string("BCWall"), 4));
  EXPECT_EQ(t.at("ymax"), std::make_pair(std::string("BCSymmetryPlane"), 4));
  EXPECT_EQ(t.at("zmin"), std::make_pair(std::string("BCSymmetryPlane"), 4));
  EXPECT_EQ(t.at("zmax"), std::make_pair(std::string("BCWall"), 4));
  const auto v = volumes(m);
  for (double x : v)
    EXPECT_NEAR(x, 1.0, 1e-12);
  // same cells (as node sets) as the SU2 source, cell by cell
  for (idx_t c = 0; c < m.nCells(); ++c) {
    std::vector<idx_t> a(m.cellNodes.row(c), m.cellNodes.row(c) + 8),
        b(src.cellNodes.row(c), src.cellNodes.row(c) + 8);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << "cell " << c;
  }
  EXPECT_EQ(m.cellFileId[5], 5); // OpenFOAM cell labels are 0-based
}

TEST(PolyMesh, BinaryAndCompactFacesReadAsAscii) {
  const std::string dir = fv::testing::scratch_dir();
  const fv::GenOptions g{fv::MeshFamily::Channel, fv::GenCells::Mixed, {8, 3, 2}};
  const fv::Mesh src = fv::generate_mesh(g);
  write_polymesh(dir + "/ascii", src);
  const fv::Mesh a = fv::read_mesh(dir + "/ascii");
  for (int k = 0; k < 4; ++k) {
    FoamStyle s;
    s.binary = k != 1;
    s.compact = k >= 1;
    s.label64 = k == 3;
    const std::string c = dir + "/style" + std::to_string(k);
    write_polymesh(c, src, s);
    const fv::Mesh b = fv::read_mesh(c);
    EXPECT_EQ(b.format, s.binary ? "OpenFOAM polyMesh (binary)" : "OpenFOAM polyMesh (ASCII)");
    EXPECT_EQ(b.xyz, a.xyz) << k;
    EXPECT_EQ(b.cellType, a.cellType) << k;
    EXPECT_TRUE(b.cellNodes == a.cellNodes) << k;
    EXPECT_TRUE(b.bfaceNodes == a.bfaceNodes) << k;
    EXPECT_EQ(b.bfacePatch, a.bfacePatch) << k;
    ASSERT_EQ(b.patches.size(), a.patches.size());
    for (std::size_t p = 0; p < a.patches.size(); ++p)
      EXPECT_EQ(b.patches[p].name, a.patches[p].name);
  }
}

TEST(PolyMesh, RoundTripOfGeneratedMeshesKeepsShapesAndVolumes) {
  const std::string dir = fv::testing::scratch_dir();
  for (fv::GenCells kind : {fv::GenCells::Hex, fv::GenCells::Tet, fv::GenCells::Prism,
                            fv::GenCells::Pyramid, fv::GenCells::Mixed}) {
    fv::GenOptions g{fv::MeshFamily::Channel, kind, {8, 3, 2}};
    g.perturb = 0.2;
    g.shuffle = true;
    const fv::Mesh src = fv::generate_mesh(g);
    const std::string c = dir + "/" + fv::to_string(kind);
    write_polymesh(c, src);
    const fv::Mesh m = fv::read_mesh(c);
    SCOPED_TRACE(fv::to_string(kind));
    EXPECT_EQ(m.nCells(), src.nCells());
    EXPECT_EQ(m.nNodes(), src.nNodes());
    EXPECT_EQ(m.nBoundaryFaces(), src.nBoundaryFaces());
    EXPECT_EQ(type_counts(m), type_counts(src));
    // BCWall and BCSymmetryPlane come back, the other types were written as `patch`
    auto expected = fv::testing::patch_table(src);
    for (auto& [name, tc] : expected)
      if (tc.first != "BCWall" && tc.first != "BCSymmetryPlane") tc.first = "UserDefined";
    EXPECT_EQ(fv::testing::patch_table(m), expected);
    const auto vm = volumes(m), vs = volumes(src);
    ASSERT_EQ(vm.size(), vs.size());
    for (std::size_t i = 0; i < vm.size(); ++i) {
      EXPECT_GT(vm[i], 0.0);
      EXPECT_NEAR(vm[i], vs[i], 1e-12 * std::max(1.0, vs[i])) << "cell " << i;
    }
  }
}

TEST(PolyMesh, TwoDimensionalCaseKeepsOneCellLayer) {
  // a 3 x 2 quad mesh one cell thick (z in [0, 0.5]); the z sides are OpenFOAM's empty patches
  const std::string dir = fv::testing::scratch_dir();
  fv::GenOptions g{fv::MeshFamily::Box, fv::GenCells::Hex, {3, 2, 1}};
  g.extent = {3, 2, 0.5};
  fv::Mesh src = fv::generate_mesh(g);
  FoamStyle s;
  s.types = {{"zmin", "empty"}, {"zmax", "empty"}, {"ymin", "wall"}};
  write_polymesh(dir + "/case2d", src, s);
  const fv::Mesh m = fv::read_mesh(dir + "/case2d");
  EXPECT_EQ(m.nCells(), 6);
  EXPECT_EQ(m.nNodes(), 24);
  const auto t = fv::testing::patch_table(m);
  EXPECT_EQ(t.at("zmin"), std::make_pair(std::string("BCSymmetryPlane"), 6));
  EXPECT_EQ(t.at("zmax"), std::make_pair(std::string("BCSymmetryPlane"), 6));
  EXPECT_EQ(t.at("ymin"), std::make_pair(std::string("BCWall"), 3));
  EXPECT_EQ(t.at("xmin").second, 2);
  EXPECT_NEAR(sum(volumes(m)), 3.0, 1e-12);
  ASSERT_FALSE(m.warnings.empty());
  EXPECT_NE(m.warnings[0].find("empty patch 'zmin'"), std::string::npos) << m.warnings[0];
  // a triangle mesh (prisms), as from a 2D OpenFOAM case meshed with triangles
  g.cells = fv::GenCells::Prism;
  write_polymesh(dir + "/prisms2d", fv::generate_mesh(g), s);
  const fv::Mesh p = fv::read_mesh(dir + "/prisms2d");
  EXPECT_EQ(type_counts(p)[CellType::Prism], 12);
  EXPECT_NEAR(sum(volumes(p)), 3.0, 1e-12);
}

TEST(PolyMesh, GeneralPolyhedronIsKept) {
  // a unit cube whose top is split into two triangles: 7 faces, not a standard shape
  const fs::path d = fs::path(fv::testing::scratch_dir()) / "poly";
  write_file(d / "points", "8((0 0 0)(1 0 0)(1 1 0)(0 1 0)(0 0 1)(1 0 1)(1 1 1)(0 1 1))");
  write_file(d / "faces", "7(4(0 3 2 1) 4(0 1 5 4) 4(1 2 6 5) 4(2 3 7 6) 4(0 4 7 3) 3(4 5 6) "
                          "3(4 6 7))");
  write_file(d / "owner", "7{0}");
  write_file(d / "neighbour", "0()");
  write_file(d / "boundary", "2(sides{type patch; nFaces 5; startFace 0;} "
                             "top{type wall; nFaces 2; startFace 5;})");
  const fv::Mesh m = fv::read_mesh(d.string());
  ASSERT_EQ(m.nCells(), 1);
  EXPECT_EQ(m.cellType[0], CellType::Polyhedron);
  EXPECT_EQ(m.polyCellFaces.size(0), 7);
  EXPECT_EQ(m.cellNodes.size(0), 8);
  EXPECT_NEAR(sum(volumes(m)), 1.0, 1e-14);
  EXPECT_EQ(fv::testing::patch_table(m).at("top"), std::make_pair(std::string("BCWall"), 2));
  // a hexahedron whose faces do not close (one face reversed) stays a polyhedron, which
  // validation then rejects as open
  write_file(d / "faces", "6(4(0 3 2 1) 4(0 1 5 4) 4(1 2 6 5) 4(2 3 7 6) 4(0 4 7 3) 4(7 6 5 4))");
  write_file(d / "owner", "6{0}");
  write_file(d / "boundary", "1(all{type patch; nFaces 6; startFace 0;})");
  const fv::Mesh bad = fv::read_mesh(d.string());
  EXPECT_EQ(bad.cellType[0], CellType::Polyhedron);
  try {
    fv::validate_mesh(bad);
    ADD_FAILURE() << "no error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("element 0 (polyhedron) is not closed"), std::string::npos)
        << e.what();
  }
}

TEST(PolyMesh, MalformedInputsNameTheFile) {
  const std::string scratch = fv::testing::scratch_dir();
  const fs::path d = write_tet(scratch);
  const std::string ds = d.string();
  auto reset = [&] { write_tet(scratch); };

  // missing file
  fs::remove(d / "neighbour");
  expect_error(ds, {(ds + "/neighbour: no such file").c_str()});
  write_file(d / "neighbour.gz", "");
  expect_error(ds, {"neighbour.gz: compressed"});
  fs::remove(d / "neighbour.gz");
  reset();

  // truncated lists
  std::string pts = kTetPoints;
  write_file(d / "points", pts.substr(0, pts.find("(0 1 0)") + 4));
  expect_error(ds, {(ds + "/points:").c_str(), "end of file", "truncated"});
  reset();
  write_file(d / "faces", "FoamFile{format ascii; class faceList;}\n4 ( 3(0 2 1) 3(0 1 3)\n");
  expect_error(ds, {(ds + "/faces:").c_str(), "truncated"});
  write_file(d / "faces", "4 ( 3(0 2 1) 3(0 1 3) )");
  expect_error(ds, {(ds + "/faces:1:").c_str(), "face list ends after 2 of its 4 faces"});
  reset();

  // out-of-range point and cell labels
  write_file(d / "faces", "4 ( 3(0 2 1) 3(0 1 3) 3(1 2 99) 3(0 3 2) )");
  expect_error(ds, {(ds + "/faces: face 2 refers to point 99, outside 0..3").c_str()});
  reset();
  std::string own = kTetOwner;
  write_file(d / "owner", own.replace(own.find("4{0}"), 4, "4(0 0 0 7)"));
  expect_error(ds, {(ds + "/owner: face 3 has owner cell 7, outside 0..0").c_str()});
  reset();

  // a cell with too few faces (cell 0 keeps 3 of the tetrahedron's faces)
  write_file(d / "owner", "4(0 0 0 1)");
  expect_error(ds, {(ds + "/owner: cell 0 has 3 faces").c_str()});
  reset();

  // boundary problems
  std::string bnd = kTetBoundary;
  write_file(d / "boundary", bnd.replace(bnd.find("type wall"), 9, "type cyclic"));
  expect_error(
      ds, {(ds + "/boundary: patch 'walls' of type cyclic: cyclic patches not supported").c_str()});
  bnd = kTetBoundary;
  write_file(d / "boundary", bnd.replace(bnd.find("nFaces 4"), 8, "nFaces 3"));
  expect_error(ds, {(ds + "/boundary: boundary face 3 (owner cell 0) is in no patch").c_str()});
  bnd = kTetBoundary;
  write_file(d / "boundary", bnd.substr(0, bnd.find("startFace")));
  expect_error(ds, {(ds + "/boundary:").c_str(), "patch 'walls'", "truncated"});
  reset();

  // binary with label sizes other than its header says
  {
    const std::string dir = scratch + "/bin";
    FoamStyle s;
    s.binary = true;
    const std::string pm = write_polymesh(dir, su2_box_mesh(Box{1, 1, 1, 0}, scratch), s);
    std::string ownBin = read_text(fs::path(pm) / "owner");
    ownBin.replace(ownBin.find("label=32"), 8, "label=64");
    write_file(fs::path(pm) / "owner", ownBin);
    expect_error(dir, {(pm + "/owner:").c_str(), "arch"});
  }

  // a directory without a polyMesh, a header in an unknown format
  expect_error(scratch, {(scratch + ": no OpenFOAM mesh: neither a polyMesh directory").c_str()});
  fs::create_directories(scratch + "/processor0/constant/polyMesh");
  expect_error(scratch, {(scratch + ": a decomposed OpenFOAM case").c_str()});
  write_file(d / "points", "FoamFile { format text; }\n4((0 0 0)(1 0 0)(0 1 0)(0 0 1))");
  expect_error(ds, {(ds + "/points:1: FoamFile format 'text'").c_str()});
}

TEST(PolyMesh, FvprepInfoReadsACaseDirectory) {
  const std::string scratch = fv::testing::scratch_dir();
  const fs::path d = write_tet(scratch);
  const std::string out = scratch + "/out.txt", err = scratch + "/err.txt";
  auto run = [&](const std::string& args) {
    const int st =
        std::system((std::string(FVPREP_EXE) + " " + args + " >" + out + " 2>" + err).c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  EXPECT_EQ(run("info " + (fs::path(scratch) / "tet").string()), 0) << read_text(err);
  EXPECT_NE(read_text(out).find("tetrahedron"), std::string::npos) << read_text(out);
  fs::remove(d / "owner");
  EXPECT_EQ(run("info " + (fs::path(scratch) / "tet").string()), 1);
  EXPECT_NE(read_text(err).find("fvprep: error: " + (d / "owner").string() + ": no such file"),
            std::string::npos)
      << read_text(err);
}

// ------------------------------------------- meshes made by OpenFOAM itself, against checkMesh

/// OpenFOAM's tutorials (Debian package openfoam-examples), or $FV_OPENFOAM_TUTORIALS.
std::string openfoam_tutorials() {
  const char* env = std::getenv("FV_OPENFOAM_TUTORIALS");
  return env ? env : "/usr/share/doc/openfoam-examples/examples";
}

bool on_path(const std::string& exe) {
  return std::system(("command -v " + exe + " >/dev/null 2>&1").c_str()) == 0;
}

/// What checkMesh printed about a case: cell count, cells per shape, total volume.
struct CheckMesh {
  long cells = -1;
  std::map<std::string, long> shapes; ///< "hexahedra", "prisms", "tet wedges", "polyhedra", ...
  double volume = -1;
};

CheckMesh parse_checkmesh(const std::string& log) {
  CheckMesh c;
  std::istringstream in(log);
  std::string line;
  bool inShapes = false;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    std::string key = colon == std::string::npos ? "" : line.substr(0, colon);
    key.erase(0, key.find_first_not_of(' '));
    if (key == "cells") c.cells = std::stol(line.substr(colon + 1));
    // "Overall number of cells of each type:", then "    hexahedra:     7747" lines up to the
    // polyhedra breakdown or an empty line
    if (line.find("Breakdown of polyhedra") != std::string::npos || line.empty()) inShapes = false;
    if (inShapes && colon != std::string::npos) c.shapes[key] = std::stol(line.substr(colon + 1));
    if (line.find("Overall number of cells of each type") != std::string::npos) inShapes = true;
    const auto tv = line.find("Total volume = ");
    if (tv != std::string::npos) c.volume = std::stod(line.substr(tv + 15));
  }
  return c;
}

/// Copies tutorial `rel` to `dir`, runs `commands` there (OpenFOAM's environment set), then
/// checkMesh; returns checkMesh's figures.
CheckMesh mesh_tutorial(const std::string& rel, const std::string& dir,
                        const std::string& commands) {
  fs::copy(openfoam_tutorials() + "/" + rel, dir,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const std::string cmd = "cd " + dir + " && export WM_PROJECT_DIR=/usr/share/openfoam && (" +
                          commands + ") >log.mesh 2>&1 && checkMesh >log.checkMesh 2>&1";
  const int st = std::system(cmd.c_str());
  EXPECT_EQ(st, 0) << cmd << "\n" << read_text(fs::path(dir) / "log.mesh");
  return parse_checkmesh(read_text(fs::path(dir) / "log.checkMesh"));
}

/// A polyMesh that OpenFOAM's blockMesh or snappyHexMesh wrote reads with the cell count, the
/// cells per shape and the total volume that OpenFOAM's checkMesh reports.
TEST(PolyMesh, OpenFoamTutorialMeshesMatchCheckMesh) {
  if (!on_path("blockMesh") || !on_path("snappyHexMesh") || !on_path("checkMesh") ||
      !fs::exists(openfoam_tutorials()))
    GTEST_SKIP() << "OpenFOAM (Debian openfoam, openfoam-examples) not installed";
  const std::string scratch = fv::testing::scratch_dir();
  struct Case {
    const char* tutorial;
    const char* commands;
  };
  const Case cases[] = {
      {"incompressible/simpleFoam/pitzDaily", "blockMesh"}, // 2D hexahedra, empty patches
      {"mesh/snappyHexMesh/iglooWithFridges/.", "blockMesh && snappyHexMesh -overwrite"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.tutorial);
    const std::string dir = scratch + "/" + fs::path(c.tutorial).parent_path().filename().string() +
                            std::to_string(&c - cases);
    const CheckMesh ref = mesh_tutorial(c.tutorial, dir, c.commands);
    ASSERT_GT(ref.cells, 0) << read_text(fs::path(dir) / "log.checkMesh");
    ASSERT_GT(ref.volume, 0);
    const fv::Mesh m = fv::read_mesh(dir);
    EXPECT_EQ(m.nCells(), ref.cells);
    // checkMesh prints 6 significant digits
    EXPECT_NEAR(sum(volumes(m)), ref.volume, 1e-5 * ref.volume);
    // shapes: fvkit keeps what is not a tet, pyramid, prism or hexahedron as a polyhedron
    // (checkMesh's "tet wedges" and "wedges" among them)
    const auto counts = type_counts(m);
    auto n = [&](CellType t) { return counts.count(t) ? counts.at(t) : 0; };
    auto r = [&](const char* k) { return ref.shapes.count(k) ? ref.shapes.at(k) : 0L; };
    EXPECT_EQ(n(CellType::Hex), r("hexahedra"));
    EXPECT_EQ(n(CellType::Prism), r("prisms"));
    EXPECT_EQ(n(CellType::Pyramid), r("pyramids"));
    EXPECT_EQ(n(CellType::Tet), r("tetrahedra"));
    EXPECT_EQ(n(CellType::Polyhedron), r("polyhedra") + r("tet wedges") + r("wedges"));
  }
}

} // namespace
