// Colourings, hyperplanes and the interface-aware local RCM on small graphs and boxes.
#include "box_mesh.hpp"

#include "prep/colouring.hpp"
#include "prep/connectivity.hpp"
#include "prep/global_mesh.hpp"
#include "prep/hyperplanes.hpp"
#include "prep/rcm.hpp"
#include "prep/wavefront_order.hpp"
#include "prep/zones.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace fv {
namespace {

// Path graph 0-1-2-...-(n-1) as a symmetric adjacency.
Csr path_graph(idx_t n) {
  std::vector<idx_t> counts(static_cast<std::size_t>(n));
  for (idx_t i = 0; i < n; ++i)
    counts[i] = (i > 0) + (i + 1 < n);
  Csr a = Csr::from_counts(counts);
  for (idx_t i = 0; i < n; ++i) {
    idx_t* r = a.row(i);
    if (i > 0) *r++ = i - 1;
    if (i + 1 < n) *r = i + 1;
  }
  return a;
}

TEST(Hyperplanes, PathInOrderIsSequentialAndAlternatingOrderIsTwoGroups) {
  // In natural order every cell depends on the previous one: n groups of one.
  const Csr p = path_graph(6);
  const Csr h = lusgs_hyperplanes(p, 6);
  EXPECT_EQ(h.rows(), 6);
  // Renumber evens first (0,2,4 -> 0,1,2; 1,3,5 -> 3,4,5): 2 groups of 3.
  const Csr q = permute_adjacency(p, {0, 2, 4, 1, 3, 5});
  const Csr h2 = lusgs_hyperplanes(q, 6);
  ASSERT_EQ(h2.rows(), 2);
  EXPECT_EQ(h2.size(0), 3);
  EXPECT_EQ(h2.size(1), 3);
  // Halo ids (>= nCells) are ignored.
  EXPECT_EQ(lusgs_hyperplanes(p, 3).rows(), 3);
}

TEST(Colouring, BalancedOnABoxAndValid) {
  testing::BoxSpec spec;
  spec.cells = testing::BoxCells::Tet;
  spec.nx = 6, spec.ny = 5, spec.nz = 4;
  spec.shuffle = true;
  const Mesh mesh = testing::make_box_mesh(spec);
  const GlobalMesh g = build_global_mesh(mesh, PrepOptions{});
  const Csr fc = colour_faces(g.nCells(), g.owner, g.neighbour);
  const Csr cc = colour_cells(g.cellCells, g.nCells());
  const GroupStats fs = group_stats(fc), cs = group_stats(cc);
  // Tets have 4 faces: at least 4 face colours, and greedy stays close to it.
  EXPECT_GE(fs.count, 4);
  EXPECT_LE(fs.count, 8);
  EXPECT_GE(cs.count, 2);
  EXPECT_LE(cs.count, 5);
  // Balanced: no colour more than ~15% above the mean.
  EXPECT_LE(fs.maxSize, 1.15 * fs.meanSize + 1) << fs.minSize << " " << fs.maxSize;
  EXPECT_LE(cs.maxSize, 1.15 * cs.meanSize + 1) << cs.minSize << " " << cs.maxSize;
  std::vector<idx_t> colour(static_cast<std::size_t>(g.nCells()));
  for (idx_t k = 0; k < cc.rows(); ++k)
    for (idx_t j = cc.begin(k); j < cc.end(k); ++j)
      colour[cc.indices()[j]] = k;
  for (idx_t c = 0; c < g.nCells(); ++c)
    for (idx_t j = g.cellCells.begin(c); j < g.cellCells.end(c); ++j)
      EXPECT_NE(colour[c], colour[g.cellCells.indices()[j]]);
  std::vector<idx_t> seen(static_cast<std::size_t>(g.nCells()), kNone);
  for (idx_t k = 0; k < fc.rows(); ++k)
    for (idx_t j = fc.begin(k); j < fc.end(k); ++j) {
      const idx_t f = fc.indices()[j];
      for (idx_t c : {g.owner[f], g.neighbour[f]}) {
        if (c == kNone) continue;
        EXPECT_NE(seen[c], k);
        seen[c] = k;
      }
    }
}

TEST(Rcm, InterfaceCellsComeLastWithSmallBandwidth) {
  // Path 0..9 whose vertices 0 and 9 are "interface": they end the order, their neighbours
  // just before them.
  const Csr p = path_graph(10);
  std::vector<char> last(10, 0);
  last[0] = last[9] = 1;
  const std::vector<idx_t> order = rcm_order_towards(p, last);
  ASSERT_EQ(order.size(), 10u);
  EXPECT_TRUE(last[order[8]] && last[order[9]]);
  EXPECT_LE(adjacency_bandwidth(permute_adjacency(p, order)).bandwidth, 2);
  // A component without flagged vertices is ordered first.
  Csr two(Array<idx_t>{0, 1, 2, 3, 4}, Array<idx_t>{1, 0, 3, 2});
  const std::vector<idx_t> o2 = rcm_order_towards(two, {0, 0, 1, 0});
  ASSERT_EQ(o2.size(), 4u);
  EXPECT_EQ(o2[3], 2);
  EXPECT_LT(std::find(o2.begin(), o2.end(), 0) - o2.begin(), 2);
}

TEST(WavefrontOrder, LevelsFromTheInterfaceColouredInside) {
  // A 4x4 grid graph (cells i + 4j) whose column i = 3 is the interface, plus an isolated edge
  // {16, 17} with no interface: it comes first, the interface column last.
  std::vector<idx_t> counts(18, 0);
  std::vector<std::vector<idx_t>> rows(18);
  for (idx_t j = 0; j < 4; ++j)
    for (idx_t i = 0; i < 4; ++i) {
      const idx_t c = i + 4 * j;
      if (i > 0) rows[c].push_back(c - 1);
      if (i < 3) rows[c].push_back(c + 1);
      if (j > 0) rows[c].push_back(c - 4);
      if (j < 3) rows[c].push_back(c + 4);
    }
  rows[16] = {17};
  rows[17] = {16};
  for (idx_t c = 0; c < 18; ++c) {
    std::sort(rows[c].begin(), rows[c].end());
    counts[c] = static_cast<idx_t>(rows[c].size());
  }
  Csr adj = Csr::from_counts(counts);
  for (idx_t c = 0; c < 18; ++c)
    std::copy(rows[c].begin(), rows[c].end(), adj.row(c));
  std::vector<char> last(18, 0);
  for (idx_t j = 0; j < 4; ++j)
    last[3 + 4 * j] = 1;
  const std::vector<idx_t> order = wavefront_order(adj, rcm_order_towards(adj, last), last);
  ASSERT_EQ(order.size(), 18u);
  EXPECT_EQ(invert_permutation(order).size(), 18u); // a permutation
  EXPECT_TRUE((order[0] == 16 && order[1] == 17) || (order[0] == 17 && order[1] == 16));
  for (int k = 14; k < 18; ++k)
    EXPECT_TRUE(last[order[k]]);
  // Columns i = 0, 1, 2 follow each other (levels 3, 2, 1 from the interface).
  for (int k = 2; k < 14; ++k)
    EXPECT_EQ(order[k] % 4, (k - 2) / 4);
  // Hyperplanes: the 4x4 grid has 2 colours per level: at most 2 x 4 groups, vs. 7 for the
  // natural row-by-row sweep.
  const Csr h = lusgs_hyperplanes(permute_adjacency(adj, order), 18);
  EXPECT_LE(h.rows(), 8);
}

TEST(Zones, WavefrontOrderCutsHyperplanesOfSlabZones) {
  testing::BoxSpec spec;
  spec.nx = 12, spec.ny = 12, spec.nz = 12;
  spec.shuffle = true;
  const Mesh mesh = testing::make_box_mesh(spec);
  std::vector<idx_t> part(static_cast<std::size_t>(mesh.nCells()));
  for (idx_t c = 0; c < mesh.nCells(); ++c)
    part[c] = std::min<idx_t>(2, static_cast<idx_t>(3 * mesh.xyz[3 * mesh.cellNodes.row(c)[0]]));
  PrepOptions opts;
  const GlobalMesh g = build_global_mesh(mesh, opts);
  PrepReport wave, plain;
  build_zones(g, part, 3, opts, &wave);
  opts.wavefrontOrder = false;
  build_zones(g, part, 3, opts, &plain);
  for (int z = 0; z < 3; ++z) {
    // 4 (or 2 + 2) BFS levels of a 12x12 plane, 2 colours each: <= 8 groups.
    EXPECT_LE(wave.zones[z].hyperplanes.count, 8) << "zone " << z;
    EXPECT_GT(plain.zones[z].hyperplanes.count, 2 * wave.zones[z].hyperplanes.count);
  }
}

TEST(Zones, SlabZonesKeepBandwidthNearOneLevel) {
  testing::BoxSpec spec;
  spec.nx = 24, spec.ny = 6, spec.nz = 6;
  spec.lx = 4.0;
  spec.shuffle = true;
  const Mesh mesh = testing::make_box_mesh(spec);
  std::vector<idx_t> part(static_cast<std::size_t>(mesh.nCells()));
  for (idx_t c = 0; c < mesh.nCells(); ++c)
    part[c] = mesh.xyz[3 * mesh.cellNodes.row(c)[6]] > 2.0 + 1e-9;
  PrepReport report;
  const auto zones = build_zones(mesh, part, 2, PrepOptions{}, &report);
  ASSERT_EQ(report.zones.size(), 2u);
  for (const ZoneReport& z : report.zones) {
    EXPECT_EQ(z.nCells, 12 * 36);
    EXPECT_EQ(z.nHaloCells, 36);
    EXPECT_EQ(z.nInteriorCells, 11 * 36);
    // One 6x6 plane per BFS level: the bandwidth stays near a level, far below nCells.
    EXPECT_LE(z.bandwidth.bandwidth, 2 * 36) << z.bandwidth.bandwidth;
    EXPECT_EQ(z.cellColours.count, 2);
  }
}

} // namespace
} // namespace fv
