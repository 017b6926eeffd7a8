#include "prep/colouring.hpp"

#include "common/error.hpp"
#include "prep/connectivity.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace fv {

namespace {

// Greedy colouring of n vertices whose conflicts are listed by neighbours(v, fn) (fn(u) for each
// conflicting vertex u). Pass 1 (first fit) fixes the number of colours K; pass 2 recolours in
// the same order, giving each vertex the least used admissible colour of the K (a new one only
// if none is admissible), which balances the colour sizes.
template <class Neighbours>
Csr greedy_balanced(idx_t n, Neighbours&& neighbours, const std::vector<idx_t>* visit = nullptr) {
  auto at = [&](idx_t i) { return visit ? (*visit)[i] : i; };
  std::vector<idx_t> colour(static_cast<std::size_t>(n), kNone);
  std::vector<idx_t> stamp; // stamp[k] == v + 1: colour k is used by a neighbour of v
  idx_t nColours = 0;
  for (idx_t i = 0; i < n; ++i) {
    const idx_t v = at(i);
    neighbours(v, [&](idx_t u) {
      const idx_t k = colour[u];
      if (k != kNone) stamp[k] = v + 1;
    });
    idx_t k = 0;
    while (k < nColours && stamp[k] == v + 1)
      ++k;
    if (k == nColours) {
      ++nColours;
      stamp.push_back(0);
    }
    colour[v] = k;
  }
  std::fill(colour.begin(), colour.end(), kNone);
  std::fill(stamp.begin(), stamp.end(), 0);
  std::vector<idx_t> size(static_cast<std::size_t>(nColours), 0);
  for (idx_t i = 0; i < n; ++i) {
    const idx_t v = at(i);
    neighbours(v, [&](idx_t u) {
      const idx_t k = colour[u];
      if (k != kNone) stamp[k] = v + 1;
    });
    idx_t best = kNone;
    for (idx_t k = 0; k < nColours; ++k)
      if (stamp[k] != v + 1 && (best == kNone || size[k] < size[best])) best = k;
    if (best == kNone) {
      best = nColours++;
      stamp.push_back(0);
      size.push_back(0);
    }
    colour[v] = best;
    ++size[best];
  }
  // Refinement sweeps: move a vertex to the smallest admissible colour when that colour is at
  // least two smaller than its own (every move strictly reduces the spread of sizes).
  for (int sweep = 0; sweep < 2; ++sweep) {
    std::fill(stamp.begin(), stamp.end(), 0);
    for (idx_t i = 0; i < n; ++i) {
      const idx_t v = at(i);
      neighbours(v, [&](idx_t u) { stamp[colour[u]] = v + 1; });
      idx_t best = colour[v];
      for (idx_t k = 0; k < nColours; ++k)
        if (stamp[k] != v + 1 && size[k] < size[best]) best = k;
      if (size[best] + 1 < size[colour[v]]) {
        --size[colour[v]];
        ++size[best];
        colour[v] = best;
      }
    }
  }
  Csr groups = Csr::from_counts(size);
  std::vector<idx_t> fill(groups.offsets().begin(), groups.offsets().end() - 1);
  for (idx_t v = 0; v < n; ++v)
    groups.indices()[fill[colour[v]]++] = v;
  return groups;
}

} // namespace

Csr colour_faces(idx_t nTotalCells, const std::vector<idx_t>& owner,
                 const std::vector<idx_t>& neighbour) {
  Csr cellFaces;
  std::vector<std::int8_t> sign;
  // All cells, halo included, get their faces listed.
  build_cell_faces(nTotalCells, owner, neighbour, cellFaces, sign);
  const idx_t nf = static_cast<idx_t>(owner.size());
  return greedy_balanced(nf, [&](idx_t f, auto&& fn) {
    for (idx_t c : {owner[f], neighbour[f]}) {
      if (c == kNone) continue;
      for (idx_t k = cellFaces.begin(c); k < cellFaces.end(c); ++k)
        if (cellFaces.indices()[k] != f) fn(cellFaces.indices()[k]);
    }
  });
}

Csr colour_cells(const Csr& cellCells, idx_t nCells) {
  FV_VERIFY(cellCells.rows() >= nCells,
            "colour_cells: " << cellCells.rows() << " rows for " << nCells << " cells");
  auto neighbours = [&](idx_t c, auto&& fn) {
    for (idx_t k = cellCells.begin(c); k < cellCells.end(c); ++k)
      if (cellCells.indices()[k] < nCells) fn(cellCells.indices()[k]);
  };
  // Greedy colouring depends on the visiting order: try the cell order and a breadth-first
  // order (which 2-colours bipartite meshes such as hexahedral grids), keep the fewer colours.
  Csr byIndex = greedy_balanced(nCells, neighbours);
  std::vector<idx_t> bfs;
  bfs.reserve(static_cast<std::size_t>(nCells));
  std::vector<char> seen(static_cast<std::size_t>(nCells), 0);
  for (idx_t s = 0; s < nCells; ++s) {
    if (seen[s]) continue;
    seen[s] = 1;
    std::size_t head = bfs.size();
    bfs.push_back(s);
    while (head < bfs.size()) {
      const idx_t v = bfs[head++];
      neighbours(v, [&](idx_t u) {
        if (!seen[u]) {
          seen[u] = 1;
          bfs.push_back(u);
        }
      });
    }
  }
  Csr byBfs = greedy_balanced(nCells, neighbours, &bfs);
  return byBfs.rows() < byIndex.rows() ? byBfs : byIndex;
}

GroupStats group_stats(const Csr& groups) {
  GroupStats s;
  s.count = groups.rows();
  if (s.count == 0) return s;
  s.minSize = std::numeric_limits<idx_t>::max();
  for (idx_t g = 0; g < s.count; ++g) {
    s.minSize = std::min(s.minSize, groups.size(g));
    s.maxSize = std::max(s.maxSize, groups.size(g));
  }
  s.meanSize = static_cast<double>(groups.nnz()) / s.count;
  return s;
}

} // namespace fv
