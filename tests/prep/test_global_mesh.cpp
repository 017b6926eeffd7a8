// The renumbered global mesh: RCM, Algorithm-2 face order, first-touch nodes, connectivity and
// geometry invariants on shuffled generated boxes.
#include "box_mesh.hpp"
#include "global_mesh_checks.hpp"

#include "prep/faces.hpp"
#include "prep/global_mesh.hpp"
#include "prep/rcm.hpp"
#include "prep/zones.hpp"

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
  testing::check_global_mesh(mesh, g);
  const idx_t nc = g.nCells(), nb = g.nBoundaryFaces();
  double vol = 0, surface = 0;
  for (idx_t c = 0; c < nc; ++c)
    vol += g.cellGeom.volume[c];
  for (idx_t f = 0; f < nb; ++f) {
    const double* s = &g.faceGeom.area[3 * f];
    surface += std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  }
  EXPECT_NEAR(vol, 1.0, 1e-12);
  EXPECT_NEAR(surface, 6.0, 1e-12);

  // Same cells, same volumes as the geometry of the file's numbering.
  const FaceSet fs = build_faces(mesh);
  const Geometry ref = compute_geometry(mesh, fs);
  for (idx_t c = 0; c < nc; ++c)
    EXPECT_NEAR(g.cellGeom.volume[c], ref.cells.volume[g.cellMesh[c]], 1e-15);
  EXPECT_LT(report.after.bandwidth, report.before.bandwidth);
}

/// fvprep's linear node weights (stored in zone files for fvrun) sum to 1 at every node and
/// interpolate a linear field exactly at every node where the correction applies; elsewhere
/// they are the inverse-distance weights.
TEST_P(GlobalMeshOnBoxes, LinearNodeWeightsAreLinearlyExact) {
  BoxSpec spec;
  spec.cells = GetParam();
  spec.nx = 6, spec.ny = 5, spec.nz = 4;
  spec.shuffle = true;
  spec.jitter = 0.15;
  spec.seed = 5;
  const GlobalMesh g = build_global_mesh(make_box_mesh(spec), PrepOptions{});
  ASSERT_EQ(g.nodeCellWeightLinear.size(), g.nodeCellWeight.size());
  idx_t corrected = 0;
  for (idx_t v = 0; v < g.nNodes(); ++v) {
    double s = 0, m[3] = {0, 0, 0}, scale = 0;
    bool same = true;
    for (idx_t k = g.nodeCells.begin(v); k < g.nodeCells.end(v); ++k) {
      const idx_t c = g.nodeCells.indices()[k];
      const double w = g.nodeCellWeightLinear[k];
      s += w;
      for (int d = 0; d < 3; ++d) {
        const double dx = g.cellGeom.centroid[3 * c + d] - g.xyz[3 * v + d];
        m[d] += w * dx;
        scale = std::max(scale, std::fabs(dx));
      }
      same = same && w == g.nodeCellWeight[k];
    }
    EXPECT_NEAR(s, 1.0, 1e-12) << "node " << v;
    if (same) continue; // kept inverse-distance (near-planar cells, or out of bounds)
    ++corrected;
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(m[d], 0.0, 1e-11 * scale) << "node " << v << ", component " << d;
  }
  EXPECT_GT(corrected, g.nNodes() / 4); // the boundary nodes, at least
}

INSTANTIATE_TEST_SUITE_P(Shapes, GlobalMeshOnBoxes,
                         ::testing::Values(BoxCells::Hex, BoxCells::Tet, BoxCells::Prism,
                                           BoxCells::Mixed));

// The global order is the Morton order (local, not banded); the bandwidth that matters to fvrun
// is the zones' own RCM order: one zone of a shuffled mesh.
TEST(Rcm, ZoneOrderReducesBandwidthOfShuffledMeshByOrdersOfMagnitude) {
  BoxSpec spec;
  spec.nx = 300, spec.ny = 8, spec.nz = 8;
  spec.lx = 30.0;
  spec.shuffle = true;
  const Mesh mesh = make_box_mesh(spec);
  PrepReport report;
  const GlobalMesh g0 = build_global_mesh(mesh, PrepOptions{}, &report);
  build_zones(g0, std::vector<idx_t>(static_cast<std::size_t>(mesh.nCells()), 0), 1, PrepOptions{},
              &report);
  const ZoneReport& z = report.zones.at(0);
  EXPECT_GT(report.before.bandwidth, 100 * z.bandwidth.bandwidth)
      << report.before.bandwidth << " -> " << z.bandwidth.bandwidth;
  EXPECT_GT(report.before.profile, 100 * z.bandwidth.profile)
      << report.before.profile << " -> " << z.bandwidth.profile;
  // The Morton order is local: its profile is far below the shuffled file's.
  EXPECT_GT(report.before.profile, 10 * report.after.profile)
      << report.before.profile << " -> " << report.after.profile;
  PrepOptions none;
  none.renumber = Renumber::None;
  PrepReport r2;
  const GlobalMesh g = build_global_mesh(mesh, none, &r2);
  EXPECT_EQ(r2.before.bandwidth, r2.after.bandwidth);
  EXPECT_EQ(r2.before.profile, r2.after.profile);
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
