// The renumbered global mesh: RCM, Algorithm-2 face order, first-touch nodes, connectivity and
// geometry invariants on shuffled generated boxes.
#include "box_mesh.hpp"
#include "global_mesh_checks.hpp"

#include "formats/mesh_builder.hpp"
#include "prep/faces.hpp"
#include "prep/global_mesh.hpp"
#include "prep/rcm.hpp"
#include "prep/zones.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

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
  const FaceGeometry faceGeom = compute_face_geometry(g.xyz.data(), g.faceNodes);
  double vol = 0, surface = 0;
  for (idx_t c = 0; c < nc; ++c)
    vol += g.cellGeom.volume[c];
  for (idx_t f = 0; f < nb; ++f) {
    const double* s = &faceGeom.area[3 * f];
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

  // The cell geometry fvprep computes without stored face geometry is bitwise that computed
  // from stored faces (zones compute their faces with the same face_geometry()).
  const CellGeometry stored =
      compute_cell_geometry(g.xyz.data(), g.faceNodes, faceGeom, g.cellFaces, g.cellFaceSign);
  EXPECT_EQ(stored.volume, g.cellGeom.volume);
  EXPECT_EQ(stored.centroid, g.cellGeom.centroid);
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
  std::vector<gidx_t> nodes(static_cast<std::size_t>(g.nNodes()));
  std::iota(nodes.begin(), nodes.end(), gidx_t{0});
  const NodeRowWeights weights = node_row_weights(g, nodes.data(), g.nNodes());
  ASSERT_EQ(weights.linear.size(), weights.inverseDistance.size());
  ASSERT_EQ(weights.rows, g.nodeCells);
  idx_t corrected = 0;
  for (idx_t v = 0; v < g.nNodes(); ++v) {
    double s = 0, m[3] = {0, 0, 0}, scale = 0;
    bool same = true;
    for (idx_t k = g.nodeCells.begin(v); k < g.nodeCells.end(v); ++k) {
      const idx_t c = g.nodeCells.indices()[k];
      const double w = weights.linear[k];
      s += w;
      for (int d = 0; d < 3; ++d) {
        const double dx = g.cellGeom.centroid[3 * c + d] - g.xyz[3 * v + d];
        m[d] += w * dx;
        scale = std::max(scale, std::fabs(dx));
      }
      same = same && w == weights.inverseDistance[k];
    }
    EXPECT_NEAR(s, 1.0, 1e-12) << "node " << v;
    if (same) continue; // kept inverse-distance (near-planar cells, or out of bounds)
    ++corrected;
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(m[d], 0.0, 1e-11 * scale) << "node " << v << ", component " << d;
  }
  EXPECT_GT(corrected, g.nNodes() / 4); // the boundary nodes, at least

  // Zones compute the weights of their own nodes: any subset of rows gives the same bits.
  std::vector<gidx_t> some;
  for (gidx_t v = g.nNodes() - 1; v >= 0; v -= 3)
    some.push_back(v);
  const NodeRowWeights part = node_row_weights(g, some.data(), static_cast<idx_t>(some.size()));
  for (std::size_t i = 0; i < some.size(); ++i) {
    const idx_t v = static_cast<idx_t>(some[i]);
    for (idx_t j = 0; j < g.nodeCells.size(v); ++j) {
      EXPECT_EQ(part.rows.row(static_cast<idx_t>(i))[j], g.nodeCells.row(v)[j]);
      EXPECT_EQ(part.linear[part.rows.begin(static_cast<idx_t>(i)) + j],
                weights.linear[g.nodeCells.begin(v) + j]);
      EXPECT_EQ(part.inverseDistance[part.rows.begin(static_cast<idx_t>(i)) + j],
                weights.inverseDistance[g.nodeCells.begin(v) + j]);
    }
  }
}

/// A jittered planar mesh of triangles and quads on [0, 2] x [0, 1], its sides the patch "wall",
/// extruded by `thickness`.
Mesh planar_mesh(double thickness) {
  const int nx = 9, ny = 6;
  MeshBuilder b;
  b.dim = 2;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      const bool inner = i > 0 && i < nx && j > 0 && j < ny;
      const double jx = inner ? 0.3 * std::sin(7.1 * i + 3.3 * j) : 0.0;
      const double jy = inner ? 0.3 * std::cos(5.3 * i - 2.9 * j) : 0.0;
      b.xyz.insert(b.xyz.end(), {2.0 * (i + jx) / nx, (j + jy) / ny, 0.0});
    }
  const auto node = [](int i, int j) { return static_cast<idx_t>(j * (nx + 1) + i); };
  gidx_t id = 1;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const idx_t q[4] = {node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)};
      if ((i + j) % 3 == 0) {
        b.add_cell(CellType::Hex, q, 4, id++);
      } else {
        const idx_t t1[3] = {q[0], q[1], q[2]}, t2[3] = {q[0], q[2], q[3]};
        b.add_cell(CellType::Prism, t1, 3, id++);
        b.add_cell(CellType::Prism, t2, 3, id++);
      }
    }
  const idx_t wall = b.patch("wall", "BCWall");
  const auto edge = [&](idx_t a, idx_t c) {
    const idx_t e[2] = {a, c};
    b.add_bface(e, 2, id++, wall);
  };
  for (int i = 0; i < nx; ++i) {
    edge(node(i, 0), node(i + 1, 0));
    edge(node(i + 1, ny), node(i, ny));
  }
  for (int j = 0; j < ny; ++j) {
    edge(node(nx, j), node(nx, j + 1));
    edge(node(0, j + 1), node(0, j));
  }
  ReadOptions opts;
  opts.extrudeThickness = thickness;
  return b.finish(opts);
}

/// A 2D mesh extruded one cell thick: the node weights are the inverse distances in the mesh's
/// plane, for both sets (the pseudo-Laplacian correction, which no weights can satisfy across
/// the extrusion, is not applied in the plane either: it stalled transonic cases), so they do
/// not depend on the thickness, and neither do the coefficients of a 2D case.
TEST(GlobalMesh2D, NodeWeightsDoNotDependOnTheThickness) {
  std::vector<NodeRowWeights> sets;
  std::vector<GlobalMesh> meshes;
  for (double thickness : {0.01, 1.0}) {
    meshes.push_back(build_global_mesh(planar_mesh(thickness), PrepOptions{}));
    const GlobalMesh& g = meshes.back();
    ASSERT_EQ(g.extrusion.thickness, thickness);
    std::vector<gidx_t> nodes(static_cast<std::size_t>(g.nNodes()));
    std::iota(nodes.begin(), nodes.end(), gidx_t{0});
    sets.push_back(node_row_weights(g, nodes.data(), g.nNodes()));
  }
  const GlobalMesh& g = meshes[0];
  ASSERT_EQ(g.nodeCells, meshes[1].nodeCells);
  for (idx_t v = 0; v < g.nNodes(); ++v) {
    double s = 0, inverse = 0;
    for (idx_t k = g.nodeCells.begin(v); k < g.nodeCells.end(v); ++k) {
      const idx_t c = g.nodeCells.indices()[k];
      const double w = sets[0].inverseDistance[k];
      s += w;
      const double dx = g.cellGeom.centroid[3 * c] - g.xyz[3 * v],
                   dy = g.cellGeom.centroid[3 * c + 1] - g.xyz[3 * v + 1];
      inverse += 1 / std::sqrt(dx * dx + dy * dy);
      EXPECT_EQ(sets[0].linear[k], w) << "node " << v;
      EXPECT_NEAR(w, sets[1].inverseDistance[k], 1e-12) << "node " << v;
      EXPECT_EQ(sets[1].linear[k], sets[1].inverseDistance[k]) << "node " << v;
    }
    EXPECT_NEAR(s, 1.0, 1e-12) << "node " << v;
    // the distance in the plane: w_c = (1 / d_c) / sum (1 / d)
    const idx_t k = g.nodeCells.begin(v), c = g.nodeCells.indices()[k];
    const double dx = g.cellGeom.centroid[3 * c] - g.xyz[3 * v],
                 dy = g.cellGeom.centroid[3 * c + 1] - g.xyz[3 * v + 1];
    EXPECT_NEAR(sets[0].inverseDistance[k], 1 / std::sqrt(dx * dx + dy * dy) / inverse, 1e-12)
        << "node " << v;
  }
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
