#include "zone_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace fv::testing {

namespace {

// A Csr's rows form a permutation of [0, n).
void expect_permutation(const Csr& groups, idx_t n, const char* what) {
  ASSERT_EQ(groups.nnz(), n) << what;
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (idx_t k = 0; k < groups.nnz(); ++k) {
    const idx_t v = groups.indices()[k];
    ASSERT_TRUE(v >= 0 && v < n) << what;
    EXPECT_FALSE(seen[v]) << what << ": " << v << " twice";
    seen[v] = 1;
  }
}

double norm3(const real_t* v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

} // namespace

void check_zone(const Zone& z) {
  const idx_t nc = z.nCells, nt = z.nTotalCells(), nf = z.nFaces, nb = z.nBoundaryFaces,
              nn = z.nNodes;
  ASSERT_EQ(z.cellGlobalId.size(), static_cast<std::size_t>(nt));
  ASSERT_EQ(z.faceOwner.size(), static_cast<std::size_t>(nf));
  ASSERT_EQ(z.nodeXyz.size(), 3 * static_cast<std::size_t>(nn));
  ASSERT_EQ(z.patchFaceOffsets[z.patchFaceOffsets.size() - 1], nb);
  z.cellFaces.check("cellFaces", nf);
  z.cellCells.check("cellCells", nt);
  z.cellNodes.check("cellNodes", nn);
  z.faceNodes.check("faceNodes", nn);
  EXPECT_EQ(z.cellFaces.rows(), nc);
  EXPECT_EQ(z.faceNodes.rows(), nf);
  EXPECT_EQ(z.nodeFaces, z.faceNodes.transpose(nn));
  EXPECT_EQ(z.nodeCells, z.cellNodes.transpose(nn));

  // Faces: boundary first by patch, owner < neighbour, owner owned.
  for (idx_t p = 0; p < z.nPatches(); ++p)
    EXPECT_LE(z.patchFaceOffsets[p], z.patchFaceOffsets[p + 1]);
  for (idx_t f = 0; f < nf; ++f) {
    EXPECT_LT(z.faceOwner[f], nc);
    if (f < nb) {
      EXPECT_EQ(z.faceNeighbour[f], kNone);
    } else {
      EXPECT_LT(z.faceOwner[f], z.faceNeighbour[f]);
      EXPECT_LT(z.faceNeighbour[f], nt);
    }
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(z.faceOwnerDelta[3 * f + d],
                z.faceCentroid[3 * f + d] - z.cellCentroid[3 * z.faceOwner[f] + d]);
      if (f >= nb) {
        EXPECT_EQ(z.faceNeighbourDelta[3 * f + d],
                  z.faceCentroid[3 * f + d] - z.cellCentroid[3 * z.faceNeighbour[f] + d]);
      }
    }
  }
  // Interior faces in the order a loop over cells meets them.
  for (idx_t f = nb + 1; f < nf; ++f) {
    const bool ordered =
        z.faceOwner[f - 1] < z.faceOwner[f] ||
        (z.faceOwner[f - 1] == z.faceOwner[f] && z.faceNeighbour[f - 1] < z.faceNeighbour[f]);
    EXPECT_TRUE(ordered) << "zone " << z.zoneId << " face " << f;
  }

  // cellFaces + sign: each face once per adjacent owned cell; closed cells.
  std::vector<int> uses(static_cast<std::size_t>(nf), 0);
  for (idx_t c = 0; c < nc; ++c) {
    double s[3] = {0, 0, 0}, mag = 0;
    for (idx_t k = z.cellFaces.begin(c); k < z.cellFaces.end(c); ++k) {
      const idx_t f = z.cellFaces.indices()[k];
      ++uses[f];
      EXPECT_EQ(z.cellFaceSign[k] > 0 ? z.faceOwner[f] : z.faceNeighbour[f], c);
      for (int d = 0; d < 3; ++d)
        s[d] += z.cellFaceSign[k] * z.faceArea[3 * f + d];
      mag += norm3(&z.faceArea[3 * f]);
    }
    EXPECT_LT(norm3(s), 1e-12 * mag) << "zone " << z.zoneId << " cell " << c;
    // Interior cells first: only interface cells have halo neighbours.
    bool touchesHalo = false;
    for (idx_t k = z.cellCells.begin(c); k < z.cellCells.end(c); ++k)
      touchesHalo = touchesHalo || z.cellCells.indices()[k] >= nc;
    EXPECT_EQ(touchesHalo, c >= z.nInteriorCells) << "zone " << z.zoneId << " cell " << c;
  }
  for (idx_t f = 0; f < nf; ++f)
    EXPECT_EQ(uses[f], (f >= nb && z.faceNeighbour[f] < nc) ? 2 : 1);

  // Face colours: a permutation; no two faces of a colour share a cell.
  expect_permutation(z.faceColours, nf, "faceColours");
  std::vector<idx_t> mark(static_cast<std::size_t>(nt), kNone);
  for (idx_t col = 0; col < z.faceColours.rows(); ++col)
    for (idx_t k = z.faceColours.begin(col); k < z.faceColours.end(col); ++k) {
      const idx_t f = z.faceColours.indices()[k];
      for (idx_t c : {z.faceOwner[f], z.faceNeighbour[f]}) {
        if (c == kNone) continue;
        EXPECT_NE(mark[c], col) << "zone " << z.zoneId << ": colour " << col << " twice at cell "
                                << c;
        mark[c] = col;
      }
    }
  // Cell colours: a permutation of owned cells; neighbours differ.
  expect_permutation(z.cellColours, nc, "cellColours");
  std::vector<idx_t> colour(static_cast<std::size_t>(nc)), group(static_cast<std::size_t>(nc));
  for (idx_t col = 0; col < z.cellColours.rows(); ++col)
    for (idx_t k = z.cellColours.begin(col); k < z.cellColours.end(col); ++k)
      colour[z.cellColours.indices()[k]] = col;
  expect_permutation(z.hyperplanes, nc, "hyperplanes");
  for (idx_t h = 0; h < z.hyperplanes.rows(); ++h)
    for (idx_t k = z.hyperplanes.begin(h); k < z.hyperplanes.end(h); ++k)
      group[z.hyperplanes.indices()[k]] = h;
  for (idx_t c = 0; c < nc; ++c) {
    bool previous = group[c] == 0; // a cell past the first hyperplane has a neighbour in the
                                   // one before (the groups are the levels of their sweep)
    for (idx_t k = z.cellCells.begin(c); k < z.cellCells.end(c); ++k) {
      const idx_t o = z.cellCells.indices()[k];
      if (o >= nc) continue;
      EXPECT_NE(colour[c], colour[o]);
      EXPECT_NE(group[c], group[o]) << "neighbours " << c << " and " << o << " in one hyperplane";
      previous = previous || group[o] == group[c] - 1;
    }
    EXPECT_TRUE(previous) << "cell " << c << " in hyperplane " << group[c]
                          << " has no neighbour in the hyperplane before";
  }

  // Exchange lists: rows match neighbours; recv rows are halo cells grouped by zone.
  EXPECT_EQ(z.cellExchange.send.rows(), static_cast<idx_t>(z.cellExchange.neighbours.size()));
  EXPECT_EQ(z.cellExchange.recv.rows(), static_cast<idx_t>(z.cellExchange.neighbours.size()));
  EXPECT_EQ(z.cellExchange.recv.nnz(), z.nHaloCells);
  for (idx_t k = 0; k < z.cellExchange.recv.nnz(); ++k)
    EXPECT_GE(z.cellExchange.recv.indices()[k], nc);
  for (idx_t k = 0; k < z.cellExchange.send.nnz(); ++k)
    EXPECT_LT(z.cellExchange.send.indices()[k], nc);
  EXPECT_EQ(z.nodeExchange.send, z.nodeExchange.recv);
}

void check_zone_set(const std::vector<Zone>& zones, gidx_t nGlobalCells, gidx_t nGlobalNodes) {
  // Owned cells partition the mesh; remember where each global cell lives.
  std::vector<std::pair<int, idx_t>> home(static_cast<std::size_t>(nGlobalCells), {-1, kNone});
  for (const Zone& z : zones)
    for (idx_t c = 0; c < z.nCells; ++c) {
      const gidx_t g = z.cellGlobalId[c];
      ASSERT_TRUE(g >= 0 && g < nGlobalCells);
      EXPECT_EQ(home[g].first, -1) << "cell " << g << " owned twice";
      home[g] = {z.zoneId, c};
    }
  for (const auto& h : home)
    EXPECT_GE(h.first, 0);

  // Halo cells equal their owner's data; recv lists are the owner's send lists.
  for (const Zone& z : zones) {
    for (idx_t c = z.nCells; c < z.nTotalCells(); ++c) {
      const auto [q, lc] = home[z.cellGlobalId[c]];
      const Zone& o = zones[q];
      EXPECT_EQ(z.cellVolume[c], o.cellVolume[lc]);
      EXPECT_EQ(z.cellType[c], o.cellType[lc]);
      for (int d = 0; d < 3; ++d)
        EXPECT_EQ(z.cellCentroid[3 * c + d], o.cellCentroid[3 * lc + d]);
    }
    for (std::size_t r = 0; r < z.cellExchange.neighbours.size(); ++r) {
      const Zone& o = zones[z.cellExchange.neighbours[r]];
      const auto* it =
          std::find(o.cellExchange.neighbours.begin(), o.cellExchange.neighbours.end(), z.zoneId);
      ASSERT_NE(it, o.cellExchange.neighbours.end());
      const idx_t ro = static_cast<idx_t>(it - o.cellExchange.neighbours.begin());
      const idx_t rr = static_cast<idx_t>(r);
      ASSERT_EQ(z.cellExchange.send.size(rr), o.cellExchange.recv.size(ro));
      for (idx_t k = 0; k < z.cellExchange.send.size(rr); ++k) {
        const gidx_t gs = z.cellGlobalId[z.cellExchange.send.row(rr)[k]];
        EXPECT_EQ(gs, o.cellGlobalId[o.cellExchange.recv.row(ro)[k]]);
        if (k > 0) {
          EXPECT_LT(z.cellGlobalId[z.cellExchange.send.row(rr)[k - 1]], gs);
        }
      }
    }
    for (std::size_t r = 0; r < z.nodeExchange.neighbours.size(); ++r) {
      const Zone& o = zones[z.nodeExchange.neighbours[r]];
      const auto* it =
          std::find(o.nodeExchange.neighbours.begin(), o.nodeExchange.neighbours.end(), z.zoneId);
      ASSERT_NE(it, o.nodeExchange.neighbours.end());
      const idx_t ro = static_cast<idx_t>(it - o.nodeExchange.neighbours.begin());
      const idx_t rr = static_cast<idx_t>(r);
      ASSERT_EQ(z.nodeExchange.send.size(rr), o.nodeExchange.recv.size(ro));
      for (idx_t k = 0; k < z.nodeExchange.send.size(rr); ++k)
        EXPECT_EQ(z.nodeGlobalId[z.nodeExchange.send.row(rr)[k]],
                  o.nodeGlobalId[o.nodeExchange.recv.row(ro)[k]]);
    }
  }

  // Node weights sum to 1 over the zones sharing a node; coordinates agree.
  std::vector<double> wsum(static_cast<std::size_t>(nGlobalNodes), 0.0);
  std::vector<int> zonesOfNode(static_cast<std::size_t>(nGlobalNodes), 0);
  for (const Zone& z : zones)
    for (idx_t v = 0; v < z.nNodes; ++v) {
      ++zonesOfNode[z.nodeGlobalId[v]];
      for (idx_t k = z.nodeCells.begin(v); k < z.nodeCells.end(v); ++k)
        wsum[z.nodeGlobalId[v]] += z.nodeCellWeight[k];
    }
  for (gidx_t v = 0; v < nGlobalNodes; ++v) {
    EXPECT_NEAR(wsum[v], 1.0, 1e-13) << "node " << v;
    EXPECT_GE(zonesOfNode[v], 1);
  }
  for (const Zone& z : zones) {
    idx_t shared = 0;
    for (idx_t v = 0; v < z.nNodes; ++v)
      shared += zonesOfNode[z.nodeGlobalId[v]] > 1;
    std::vector<char> listed(static_cast<std::size_t>(z.nNodes), 0);
    for (idx_t k = 0; k < z.nodeExchange.send.nnz(); ++k)
      listed[z.nodeExchange.send.indices()[k]] = 1;
    idx_t nListed = 0;
    for (char c : listed)
      nListed += c;
    EXPECT_EQ(nListed, shared) << "zone " << z.zoneId;
  }

  // A face seen by two zones (interface) has the same centroid and opposite-or-equal area.
  std::map<gidx_t, std::pair<const Zone*, idx_t>> seen;
  for (const Zone& z : zones)
    for (idx_t f = z.nBoundaryFaces; f < z.nFaces; ++f) {
      if (z.faceNeighbour[f] < z.nCells) continue;
      auto [it, fresh] = seen.emplace(z.faceGlobalId[f], std::make_pair(&z, f));
      if (fresh) continue;
      const Zone& o = *it->second.first;
      const idx_t fo = it->second.second;
      // Both zones own the face's cell on their side, so the area vectors are opposite.
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(z.faceCentroid[3 * f + d], o.faceCentroid[3 * fo + d]);
        EXPECT_EQ(z.faceArea[3 * f + d], -o.faceArea[3 * fo + d]);
      }
    }
}

} // namespace fv::testing
