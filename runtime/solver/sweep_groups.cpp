#include "runtime/solver/sweep_groups.hpp"

#include "common/error.hpp"
#include "runtime/kernels/lusgs_kernels.hpp"

#include <algorithm>

namespace fv {

std::vector<idx_t> sweep_group_ranks(const Zone& z, const Csr& g, const char* what) {
  const idx_t n = z.nCells;
  FV_VERIFY(g.rows() > 0, "zone " << z.zoneId << " has no " << what << " (empty " << what
                                  << "); re-run fvprep or choose another ordering");
  g.check(what, n);
  FV_VERIFY(g.nnz() == n, "zone " << z.zoneId << ": " << what << " hold " << g.nnz()
                                  << " cells, expected the " << n << " owned cells");
  std::vector<idx_t> rank(static_cast<std::size_t>(z.nTotalCells()), kernels::kHaloRank);
  for (idx_t r = 0; r < g.rows(); ++r)
    for (idx_t k = 0; k < g.size(r); ++k) {
      const idx_t c = g.row(r)[k];
      FV_VERIFY(rank[c] == kernels::kHaloRank, "zone " << z.zoneId << ": cell " << c << " is in "
                                                       << what << " groups " << rank[c] << " and "
                                                       << r);
      rank[c] = r;
    }
  for (idx_t c = 0; c < n; ++c)
    for (idx_t k = 0; k < z.cellCells.size(c); ++k) {
      const idx_t j = z.cellCells.row(c)[k];
      FV_VERIFY(j >= n || rank[j] != rank[c], "zone " << z.zoneId << ": neighbour cells " << c
                                                      << " and " << j << " are both in " << what
                                                      << " group " << rank[c]);
    }
  return rank;
}

std::vector<idx_t> sequential_sweep_ranks(const Zone& z) {
  const idx_t n = z.nCells;
  std::vector<idx_t> rank(static_cast<std::size_t>(z.nTotalCells()), kernels::kHaloRank);
  const Csr& h = z.hyperplanes;
  if (h.rows() == 0) {
    for (idx_t c = 0; c < n; ++c)
      rank[c] = c;
    return rank;
  }
  sweep_group_ranks(z, h, "order/hyperplanes"); // validates the groups
  for (idx_t k = 0; k < n; ++k)
    rank[h.indices()[k]] = k;
  return rank;
}

BlockSweepOrder block_sweep_order(const Zone& z, idx_t blockCells) {
  const idx_t n = z.nCells, nt = z.nTotalCells();
  FV_VERIFY(blockCells >= 1, "block_sweep_order: blocks of " << blockCells << " cells");
  BlockSweepOrder o;
  o.block.assign(static_cast<std::size_t>(nt), -1);
  // blocks by recursive coordinate bisection of the cell centroids: each range of cells is
  // split at the median of its longest extent until it holds at most blockCells cells
  std::vector<idx_t> order(static_cast<std::size_t>(n));
  for (idx_t c = 0; c < n; ++c)
    order[c] = c;
  std::vector<std::pair<idx_t, idx_t>> stack = {{0, n}};
  while (!stack.empty()) {
    const auto [lo, hi] = stack.back();
    stack.pop_back();
    if (hi - lo <= blockCells) {
      for (idx_t i = lo; i < hi; ++i)
        o.block[order[i]] = o.nBlocks;
      ++o.nBlocks;
      continue;
    }
    real_t mn[3] = {1e300, 1e300, 1e300}, mx[3] = {-1e300, -1e300, -1e300};
    for (idx_t i = lo; i < hi; ++i)
      for (int d = 0; d < 3; ++d) {
        mn[d] = std::min(mn[d], z.cellCentroid[3 * order[i] + d]);
        mx[d] = std::max(mx[d], z.cellCentroid[3 * order[i] + d]);
      }
    int axis = 0;
    for (int d = 1; d < 3; ++d)
      if (mx[d] - mn[d] > mx[axis] - mn[axis]) axis = d;
    const idx_t mid = lo + (hi - lo) / 2;
    std::nth_element(
        order.begin() + lo, order.begin() + mid, order.begin() + hi, [&](idx_t a, idx_t b) {
          const real_t xa = z.cellCentroid[3 * a + axis], xb = z.cellCentroid[3 * b + axis];
          return xa < xb || (xa == xb && a < b);
        });
    stack.push_back({mid, hi});
    stack.push_back({lo, mid});
  }
  // each block in the zone's sweep order: a cell's level is one more than the highest level of
  // its neighbours swept before it in the block (the dependency depth of the sequential sweep)
  const std::vector<idx_t> seq = sequential_sweep_ranks(z);
  std::vector<idx_t> bySweep(static_cast<std::size_t>(n));
  for (idx_t c = 0; c < n; ++c)
    bySweep[seq[c]] = c;
  o.rank.assign(static_cast<std::size_t>(nt), kernels::kHaloRank);
  std::vector<idx_t> depth(static_cast<std::size_t>(o.nBlocks), 0);
  for (const idx_t c : bySweep) {
    idx_t l = 0;
    for (idx_t k = 0; k < z.cellCells.size(c); ++k) {
      const idx_t j = z.cellCells.row(c)[k];
      if (j < n && seq[j] < seq[c] && o.block[j] == o.block[c]) l = std::max(l, o.rank[j] + 1);
    }
    o.rank[c] = l;
    depth[o.block[c]] = std::max(depth[o.block[c]], l + 1);
  }
  // levels numbered block by block; cells sorted by (block, level, cell)
  o.blockLevels.assign(static_cast<std::size_t>(o.nBlocks) + 1, 0);
  for (idx_t b = 0; b < o.nBlocks; ++b) {
    o.blockLevels[b + 1] = o.blockLevels[b] + depth[b];
    o.maxLevels = std::max(o.maxLevels, depth[b]);
  }
  const idx_t levels = o.blockLevels[o.nBlocks];
  std::vector<idx_t> count(static_cast<std::size_t>(levels) + 1, 0);
  for (idx_t c = 0; c < n; ++c)
    ++count[o.blockLevels[o.block[c]] + o.rank[c] + 1];
  o.levelOffsets.assign(count.size(), 0);
  for (std::size_t l = 1; l < count.size(); ++l)
    o.levelOffsets[l] = o.levelOffsets[l - 1] + count[l];
  o.cells.assign(static_cast<std::size_t>(n), 0);
  std::vector<idx_t> fill(o.levelOffsets.begin(), o.levelOffsets.end() - 1);
  for (idx_t c = 0; c < n; ++c)
    o.cells[fill[o.blockLevels[o.block[c]] + o.rank[c]]++] = c;
  return o;
}

} // namespace fv
