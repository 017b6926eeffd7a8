#include "global_mesh_checks.hpp"

#include "prep/connectivity.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

namespace fv::testing {

void check_global_mesh(const Mesh& mesh, const GlobalMesh& g) {
  const idx_t nc = g.nCells(), nf = g.nFaces(), nb = g.nBoundaryFaces();
  ASSERT_EQ(nc, mesh.nCells());
  EXPECT_GE(nb, mesh.nBoundaryFaces()); // plus default-patch faces
  EXPECT_LE(g.nNodes(), mesh.nNodes()); // dangling nodes are dropped

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
  // The dual graph (built with the cell order, before the faces exist) is the faces' one.
  EXPECT_EQ(g.cellCells, build_cell_cells(g.cellFaces, g.owner, g.neighbour));

  // Geometry: closed cells, volume = volume enclosed by the boundary, weights sum to 1.
  const FaceGeometry faceGeom = compute_face_geometry(g.xyz.data(), g.faceNodes);
  double vol = 0, enclosed = 0, surface = 0;
  for (idx_t c = 0; c < nc; ++c) {
    double ssum[3] = {0, 0, 0}, smag = 0;
    for (idx_t k = g.cellFaces.begin(c); k < g.cellFaces.end(c); ++k) {
      const idx_t f = g.cellFaces.indices()[k];
      const double* s = &faceGeom.area[3 * f];
      for (int d = 0; d < 3; ++d)
        ssum[d] += g.cellFaceSign[k] * s[d];
      smag += std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    }
    EXPECT_LT(std::sqrt(ssum[0] * ssum[0] + ssum[1] * ssum[1] + ssum[2] * ssum[2]), 1e-12 * smag);
    vol += g.cellGeom.volume[c];
  }
  for (idx_t f = 0; f < nb; ++f) {
    const double* s = &faceGeom.area[3 * f];
    const double* x = &faceGeom.centroid[3 * f];
    enclosed += (x[0] * s[0] + x[1] * s[1] + x[2] * s[2]) / 3.0;
    surface += std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  }
  EXPECT_NEAR(vol, enclosed, 1e-12 * std::abs(vol));
  (void)surface;
  std::vector<gidx_t> nodes(static_cast<std::size_t>(g.nNodes()));
  std::iota(nodes.begin(), nodes.end(), gidx_t{0});
  const NodeRowWeights weights = node_row_weights(g, nodes.data(), g.nNodes());
  EXPECT_EQ(weights.rows, g.nodeCells);
  for (idx_t v = 0; v < g.nNodes(); ++v) {
    double s = 0;
    for (idx_t k = g.nodeCells.begin(v); k < g.nodeCells.end(v); ++k) {
      EXPECT_GT(weights.inverseDistance[k], 0.0);
      s += weights.inverseDistance[k];
    }
    EXPECT_NEAR(s, 1.0, 1e-14);
  }
}

} // namespace fv::testing
