// The renumbered global mesh: RCM, Algorithm-2 face order, first-touch nodes, connectivity and
// geometry invariants on shuffled generated boxes.
#include "box_mesh.hpp"

#include "prep/faces.hpp"
#include "prep/global_mesh.hpp"
#include "prep/rcm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace fv {
namespace {

using testing::BoxCells;
using testing::BoxSpec;
using testing::make_box_mesh;

class GlobalMeshOnBoxes : public ::testing::TestWithParam<BoxCells> {};

TEST_P(GlobalMeshOnBoxes, ConnectivityAndGeometryInvariants) {
  BoxSpec spec;
  spec.cells = GetParam();
  spec.nx = 6, spec.ny = 5, spec.nz = 4;
  spec.shuffle = true;
  spec.jitter = 0.15;
  spec.seed = 3;
  const Mesh mesh = make_box_mesh(spec);
  PrepReport report;
  const GlobalMesh g = build_global_mesh(mesh, PrepOptions{}, &report);
  const idx_t nc = g.nCells(), nf = g.nFaces(), nb = g.nBoundaryFaces();
  ASSERT_EQ(nc, mesh.nCells());
  EXPECT_EQ(nb, mesh.nBoundaryFaces());
  EXPECT_EQ(g.nNodes(), mesh.nNodes());

  // cellMesh is a permutation; cell shapes follow it.
  std::vector<idx_t> seen(static_cast<std::size_t>(nc), 0);
  for (idx_t c = 0; c < nc; ++c) {
    ++seen[g.cellMesh[c]];
    EXPECT_EQ(g.cellType[c], mesh.cellType[g.cellMesh[c]]);
  }
  for (idx_t s : seen)
    EXPECT_EQ(s, 1);

  // Each interior face in exactly two cells' cellFaces with opposite signs, boundary in one.
  std::vector<int> plus(static_cast<std::size_t>(nf), 0), minus(static_cast<std::size_t>(nf), 0);
  for (idx_t c = 0; c < nc; ++c)
    for (idx_t k = g.cellFaces.begin(c); k < g.cellFaces.end(c); ++k) {
      const idx_t f = g.cellFaces.indices()[k];
      if (k > g.cellFaces.begin(c)) {
        EXPECT_LT(g.cellFaces.indices()[k - 1], f);
      }
      if (g.cellFaceSign[k] > 0) {
        EXPECT_EQ(g.owner[f], c);
        ++plus[f];
      } else {
        EXPECT_EQ(g.neighbour[f], c);
        ++minus[f];
      }
    }
  for (idx_t f = 0; f < nf; ++f) {
    EXPECT_EQ(plus[f], 1);
    EXPECT_EQ(minus[f], f < nb ? 0 : 1);
    EXPECT_EQ(g.neighbour[f] == kNone, f < nb);
  }

  // Boundary faces by patch then owner; interior faces by (owner, neighbour), owner < neighbour.
  for (idx_t p = 0; p + 1 < static_cast<idx_t>(g.patchFaceOffsets.size()); ++p)
    for (idx_t f = g.patchFaceOffsets[p]; f < g.patchFaceOffsets[p + 1]; ++f) {
      EXPECT_EQ(g.facePatch[f], p);
      if (f > g.patchFaceOffsets[p]) {
        EXPECT_LE(g.owner[f - 1], g.owner[f]);
      }
    }
  for (idx_t f = nb; f < nf; ++f) {
    EXPECT_LT(g.owner[f], g.neighbour[f]);
    if (f > nb) {
      const bool ordered = g.owner[f - 1] < g.owner[f] ||
                           (g.owner[f - 1] == g.owner[f] && g.neighbour[f - 1] < g.neighbour[f]);
      EXPECT_TRUE(ordered) << "face " << f;
    }
  }

  // Nodes by first touch in cell order.
  idx_t next = 0;
  std::vector<char> touched(static_cast<std::size_t>(g.nNodes()), 0);
  for (idx_t k = 0; k < g.cellNodes.nnz(); ++k) {
    const idx_t v = g.cellNodes.indices()[k];
    if (!touched[v]) {
      EXPECT_EQ(v, next);
      ++next;
      touched[v] = 1;
    }
  }
  EXPECT_EQ(g.nodeCells, g.cellNodes.transpose(g.nNodes()));

  // Geometry: closed cells, volume = volume enclosed by the boundary, weights sum to 1.
  double vol = 0, enclosed = 0, surface = 0;
  for (idx_t c = 0; c < nc; ++c) {
    double ssum[3] = {0, 0, 0}, smag = 0;
    for (idx_t k = g.cellFaces.begin(c); k < g.cellFaces.end(c); ++k) {
      const idx_t f = g.cellFaces.indices()[k];
      const double* s = &g.faceGeom.area[3 * f];
      for (int d = 0; d < 3; ++d)
        ssum[d] += g.cellFaceSign[k] * s[d];
      smag += std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    }
    EXPECT_LT(std::sqrt(ssum[0] * ssum[0] + ssum[1] * ssum[1] + ssum[2] * ssum[2]), 1e-12 * smag);
    vol += g.cellGeom.volume[c];
  }
  for (idx_t f = 0; f < nb; ++f) {
    const double* s = &g.faceGeom.area[3 * f];
    const double* x = &g.faceGeom.centroid[3 * f];
    enclosed += (x[0] * s[0] + x[1] * s[1] + x[2] * s[2]) / 3.0;
    surface += std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  }
  EXPECT_NEAR(vol, enclosed, 1e-13);
  EXPECT_NEAR(vol, 1.0, 1e-12);
  EXPECT_NEAR(surface, 6.0, 1e-12);
  for (idx_t v = 0; v < g.nNodes(); ++v) {
    double s = 0;
    for (idx_t k = g.nodeCells.begin(v); k < g.nodeCells.end(v); ++k) {
      EXPECT_GT(g.nodeCellWeight[k], 0.0);
      s += g.nodeCellWeight[k];
    }
    EXPECT_NEAR(s, 1.0, 1e-14);
  }

  // Same cells, same volumes as the geometry of the file's numbering.
  const FaceSet fs = build_faces(mesh);
  const Geometry ref = compute_geometry(mesh, fs);
  for (idx_t c = 0; c < nc; ++c)
    EXPECT_NEAR(g.cellGeom.volume[c], ref.cells.volume[g.cellMesh[c]], 1e-15);
  EXPECT_LT(report.after.bandwidth, report.before.bandwidth);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GlobalMeshOnBoxes,
                         ::testing::Values(BoxCells::Hex, BoxCells::Tet, BoxCells::Prism));

TEST(Rcm, ReducesBandwidthOfShuffledMeshByOrdersOfMagnitude) {
  BoxSpec spec;
  spec.nx = 300, spec.ny = 8, spec.nz = 8;
  spec.lx = 30.0;
  spec.shuffle = true;
  const Mesh mesh = make_box_mesh(spec);
  PrepReport report;
  build_global_mesh(mesh, PrepOptions{}, &report);
  EXPECT_GT(report.before.bandwidth, 100 * report.after.bandwidth)
      << report.before.bandwidth << " -> " << report.after.bandwidth;
  EXPECT_GT(report.before.profile, 100 * report.after.profile)
      << report.before.profile << " -> " << report.after.profile;
  PrepOptions none;
  none.renumber = Renumber::None;
  PrepReport r2;
  const GlobalMesh g = build_global_mesh(mesh, none, &r2);
  EXPECT_EQ(r2.before.bandwidth, r2.after.bandwidth);
  for (idx_t c = 0; c < g.nCells(); ++c)
    EXPECT_EQ(g.cellMesh[c], c);
}

TEST(Rcm, OrdersEveryComponent) {
  // Two disconnected chains 0-2-4 and 1-3.
  Csr adj(Array<idx_t>{0, 1, 2, 4, 5, 6}, Array<idx_t>{2, 3, 0, 4, 1, 2});
  const std::vector<idx_t> order = rcm_order(adj);
  ASSERT_EQ(order.size(), 5u);
  const std::vector<idx_t> inv = invert_permutation(order);
  const Csr p = permute_adjacency(adj, order);
  // In RCM order each chain is contiguous: every edge joins consecutive ids.
  for (idx_t i = 0; i < p.rows(); ++i)
    for (idx_t k = p.begin(i); k < p.end(i); ++k)
      EXPECT_EQ(std::abs(p.indices()[k] - i), 1);
  (void)inv;
}

TEST(GlobalMeshErrors, InvertedCellIsNamed) {
  BoxSpec spec;
  spec.nx = 2, spec.ny = 2, spec.nz = 2;
  Mesh mesh = make_box_mesh(spec);
  // Mirror cell 3 (swap bottom and top quads): inverted hexahedron.
  idx_t* r = mesh.cellNodes.row(3);
  for (int k = 0; k < 4; ++k)
    std::swap(r[k], r[k + 4]);
  try {
    build_global_mesh(mesh, PrepOptions{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("generated-box"), std::string::npos) << msg;
    EXPECT_NE(msg.find("element 4"), std::string::npos) << msg;
  }
}

} // namespace
} // namespace fv
