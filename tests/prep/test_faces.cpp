// Faces and geometry on generated boxes: every face once, orientation, patches, closure,
// volumes, and one-line errors on broken boundary descriptions.
#include "box_mesh.hpp"

#include "common/cell_shapes.hpp"
#include "common/error.hpp"
#include "prep/connectivity.hpp"
#include "prep/faces.hpp"
#include "prep/geometry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace fv {
namespace {

using testing::BoxCells;
using testing::BoxSpec;
using testing::make_box_mesh;

struct Case {
  BoxCells cells;
  bool shuffle;
  double jitter;
};

class FacesOnBoxes : public ::testing::TestWithParam<Case> {};

TEST_P(FacesOnBoxes, EveryFaceOnceWithConsistentGeometry) {
  const Case c = GetParam();
  BoxSpec spec;
  spec.cells = c.cells;
  spec.nx = 5, spec.ny = 4, spec.nz = 3;
  spec.lx = 2.0, spec.ly = 1.5, spec.lz = 0.75;
  spec.shuffle = c.shuffle;
  spec.jitter = c.jitter;
  spec.seed = 7;
  const Mesh mesh = make_box_mesh(spec);
  const FaceSet fs = build_faces(mesh);
  if (c.cells == BoxCells::Mixed) { // the generator really mixes shapes and reversed faces
    EXPECT_GT(std::count(mesh.cellType.begin(), mesh.cellType.end(), CellType::Pyramid), 0);
    EXPECT_GT(std::count(mesh.cellType.begin(), mesh.cellType.end(), CellType::Polyhedron), 0);
    EXPECT_GT(std::count_if(mesh.polyCellFaces.indices().begin(),
                            mesh.polyCellFaces.indices().end(), [](idx_t r) { return r < 0; }),
              0);
  }

  // Every cell face appears exactly once in cellFaces: counts per cell match the shape.
  Csr cellFaces;
  std::vector<std::int8_t> sign;
  build_cell_faces(mesh.nCells(), fs.owner, fs.neighbour, cellFaces, sign);
  for (idx_t cc = 0; cc < mesh.nCells(); ++cc)
    EXPECT_EQ(cellFaces.size(cc), mesh.cellType[cc] == CellType::Polyhedron
                                      ? mesh.polyCellFaces.size(mesh.polyCell[cc])
                                      : cell_face_count(mesh.cellType[cc]));
  EXPECT_EQ(fs.nBoundaryFaces(), mesh.nBoundaryFaces());
  std::vector<int> bfaceSeen(static_cast<std::size_t>(mesh.nBoundaryFaces()), 0);
  for (idx_t f = 0; f < fs.nFaces(); ++f) {
    if (fs.neighbour[f] == kNone) {
      ASSERT_GE(fs.bface[f], 0);
      ++bfaceSeen[fs.bface[f]];
      EXPECT_EQ(fs.patch[f], mesh.bfacePatch[fs.bface[f]]);
    } else {
      EXPECT_LT(fs.owner[f], fs.neighbour[f]);
      EXPECT_EQ(fs.patch[f], -1);
      EXPECT_EQ(fs.bface[f], -1);
    }
  }
  for (int s : bfaceSeen)
    EXPECT_EQ(s, 1);

  const Geometry g = compute_geometry(mesh, fs);
  EXPECT_NO_THROW(verify_cell_geometry(mesh, g.cells, 1e-12));
  double vol = 0, enclosed = 0;
  for (idx_t cc = 0; cc < mesh.nCells(); ++cc) {
    EXPECT_GT(g.cells.volume[cc], 0.0);
    EXPECT_LT(g.cells.closure[cc], 1e-12);
    vol += g.cells.volume[cc];
  }
  for (idx_t f = 0; f < fs.nFaces(); ++f) {
    const double* s = &g.faces.area[3 * f];
    const double* x = &g.faces.centroid[3 * f];
    const double* xo = &g.cells.centroid[3 * fs.owner[f]];
    // Normal points away from the owner (cells here are convex or nearly so).
    EXPECT_GT(s[0] * (x[0] - xo[0]) + s[1] * (x[1] - xo[1]) + s[2] * (x[2] - xo[2]), 0.0);
    if (fs.neighbour[f] == kNone) {
      enclosed += (x[0] * s[0] + x[1] * s[1] + x[2] * s[2]) / 3.0;
      // Outward on the box side of its patch: xmin -> -x, xmax -> +x, ...
      const int d = fs.patch[f] / 2;
      const double outward = fs.patch[f] % 2 ? 1.0 : -1.0;
      EXPECT_GT(outward * s[d], 0.0);
    }
  }
  const double box = spec.lx * spec.ly * spec.lz;
  EXPECT_NEAR(vol, enclosed, 1e-13 * box);
  EXPECT_NEAR(vol, box, 1e-12 * box);
}

INSTANTIATE_TEST_SUITE_P(Shapes, FacesOnBoxes,
                         ::testing::Values(Case{BoxCells::Hex, false, 0.0},
                                           Case{BoxCells::Hex, true, 0.2},
                                           Case{BoxCells::Tet, true, 0.2},
                                           Case{BoxCells::Prism, true, 0.2},
                                           Case{BoxCells::Mixed, true, 0.2}));

TEST(Geometry, ExactCentroidsAndVolumesFarFromOrigin) {
  BoxSpec spec;
  spec.nx = spec.ny = spec.nz = 2;
  spec.origin[0] = 1.0e6;
  spec.origin[1] = -3.0e5;
  spec.lx = spec.ly = spec.lz = 1e-3;
  for (BoxCells cells : {BoxCells::Hex, BoxCells::Tet, BoxCells::Prism}) {
    spec.cells = cells;
    const Mesh mesh = make_box_mesh(spec);
    const FaceSet fs = build_faces(mesh);
    const Geometry g = compute_geometry(mesh, fs);
    double vol = 0, mx = 0;
    for (idx_t c = 0; c < mesh.nCells(); ++c) {
      vol += g.cells.volume[c];
      mx += g.cells.volume[c] * (g.cells.centroid[3 * c] - spec.origin[0]);
      // Each cell's centroid equals the average of its corners for these affine shapes...
      // ...only for tets; for hexes/prisms of a uniform box it is also the node average.
      double avg[3] = {0, 0, 0};
      const idx_t n = mesh.cellNodes.size(c);
      for (idx_t k = 0; k < n; ++k)
        for (int d = 0; d < 3; ++d)
          avg[d] += mesh.xyz[3 * mesh.cellNodes.row(c)[k] + d] / n;
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(g.cells.centroid[3 * c + d], avg[d], 1e-14 * 1e6);
    }
    // The box as the rounded coordinates describe it.
    double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    for (idx_t n = 0; n < mesh.nNodes(); ++n)
      for (int d = 0; d < 3; ++d) {
        lo[d] = std::min(lo[d], mesh.xyz[3 * n + d]);
        hi[d] = std::max(hi[d], mesh.xyz[3 * n + d]);
      }
    const double box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    EXPECT_NEAR(vol, box, 1e-12 * box);
    EXPECT_NEAR(mx / vol, 0.5 * (hi[0] + lo[0]) - spec.origin[0], 4e-10); // ulps of 1e6
  }
}

// ---- errors: one line, naming the mesh and file ids.
std::string error_of(const Mesh& m, const FaceOptions& o = {}) {
  try {
    build_faces(m, o);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

Mesh small_box() {
  BoxSpec spec;
  spec.nx = 2, spec.ny = 2, spec.nz = 1;
  return make_box_mesh(spec);
}

Mesh with_bfaces(const Mesh& m, const std::vector<std::vector<idx_t>>& rows,
                 const std::vector<idx_t>& patch) {
  Mesh r;
  r.xyz = m.xyz;
  r.cellType = m.cellType;
  r.cellNodes = m.cellNodes.clone();
  r.patches = m.patches;
  r.cellFileId = m.cellFileId;
  r.path = m.path;
  std::vector<idx_t> counts;
  for (auto& row : rows)
    counts.push_back(static_cast<idx_t>(row.size()));
  r.bfaceNodes = Csr::from_counts(counts);
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::copy(rows[i].begin(), rows[i].end(), r.bfaceNodes.row(static_cast<idx_t>(i)));
  r.bfacePatch = patch;
  for (std::size_t i = 0; i < rows.size(); ++i)
    r.bfaceFileId.push_back(100 + static_cast<gidx_t>(i));
  return r;
}

std::vector<std::vector<idx_t>> rows_of(const Csr& c) {
  std::vector<std::vector<idx_t>> r;
  for (idx_t i = 0; i < c.rows(); ++i)
    r.emplace_back(c.row(i), c.row(i) + c.size(i));
  return r;
}

TEST(FaceErrors, UncoveredBoundaryFaceAndDefaultPatch) {
  const Mesh m = small_box();
  auto rows = rows_of(m.bfaceNodes);
  auto patch = m.bfacePatch;
  rows.pop_back();
  patch.pop_back();
  const Mesh broken = with_bfaces(m, rows, patch);
  const std::string e = error_of(broken);
  EXPECT_NE(e.find("generated-box"), std::string::npos) << e;
  EXPECT_NE(e.find("no boundary patch covers it"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);

  FaceOptions o;
  o.defaultPatch = "unassigned";
  const FaceSet fs = build_faces(broken, o);
  ASSERT_EQ(fs.patches.size(), m.patches.size() + 1);
  EXPECT_EQ(fs.patches.back().name, "unassigned");
  EXPECT_EQ(fs.patches.back().bcType, "UserDefined");
  int inDefault = 0;
  for (idx_t f = 0; f < fs.nFaces(); ++f)
    inDefault += fs.patch[f] == 6;
  EXPECT_EQ(inDefault, 1);
  // The default patch is not added when every face is covered.
  EXPECT_EQ(build_faces(m, o).patches.size(), m.patches.size());
}

TEST(FaceErrors, BoundaryFaceListedTwiceOrUnmatched) {
  const Mesh m = small_box();
  auto rows = rows_of(m.bfaceNodes);
  auto patch = m.bfacePatch;
  rows.push_back(rows[0]);
  patch.push_back((patch[0] + 1) % 6);
  std::string e = error_of(with_bfaces(m, rows, patch));
  EXPECT_NE(e.find("listed in two patches"), std::string::npos) << e;

  rows = rows_of(m.bfaceNodes);
  patch = m.bfacePatch;
  rows.push_back({rows[0][0], rows[1][1], rows[2][2]});
  patch.push_back(0);
  e = error_of(with_bfaces(m, rows, patch));
  EXPECT_NE(e.find("boundary face " + std::to_string(100 + rows.size() - 1)), std::string::npos)
      << e;
  EXPECT_TRUE(e.find("matches no face") != std::string::npos ||
              e.find("is an interior face") != std::string::npos)
      << e;
}

TEST(FaceErrors, InteriorFaceListedAsBoundary) {
  const Mesh m = small_box();
  const FaceSet fs = build_faces(m);
  idx_t interior = -1;
  for (idx_t f = 0; f < fs.nFaces() && interior < 0; ++f)
    if (fs.neighbour[f] != kNone) interior = f;
  ASSERT_GE(interior, 0);
  auto rows = rows_of(m.bfaceNodes);
  auto patch = m.bfacePatch;
  rows.emplace_back(fs.faceNodes.row(interior),
                    fs.faceNodes.row(interior) + fs.faceNodes.size(interior));
  patch.push_back(2);
  const std::string e = error_of(with_bfaces(m, rows, patch));
  EXPECT_NE(e.find("is an interior face between element"), std::string::npos) << e;
}

TEST(FaceErrors, NonManifoldFace) {
  Mesh m = small_box();
  // Duplicate cell 0: each of its faces is now shared by one more cell.
  auto cells = rows_of(m.cellNodes);
  cells.push_back(cells[0]);
  m.cellType.push_back(m.cellType[0]);
  m.cellFileId.push_back(42);
  std::vector<idx_t> counts;
  for (auto& r : cells)
    counts.push_back(static_cast<idx_t>(r.size()));
  m.cellNodes = Csr::from_counts(counts);
  for (std::size_t i = 0; i < cells.size(); ++i)
    std::copy(cells[i].begin(), cells[i].end(), m.cellNodes.row(static_cast<idx_t>(i)));
  const std::string e = error_of(m);
  EXPECT_TRUE(e.find("non-manifold") != std::string::npos ||
              e.find("is an interior face") != std::string::npos)
      << e;
  EXPECT_NE(e.find("element 42"), std::string::npos) << e;
}

TEST(FaceErrors, BadInputArraysNeverCrash) {
  Mesh m = small_box();
  m.cellNodes.row(1)[3] = m.nNodes() + 5;
  const std::string e = error_of(m);
  EXPECT_NE(e.find("element 2 (hexahedron) refers to node"), std::string::npos) << e;
  Mesh m2 = small_box();
  m2.bfacePatch[0] = 17;
  EXPECT_NE(error_of(m2).find("patch index 17"), std::string::npos);
}

} // namespace
} // namespace fv
