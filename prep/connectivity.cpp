#include "prep/connectivity.hpp"

#include "common/error.hpp"

#include <algorithm>

namespace fv {

void build_cell_faces(idx_t nCells, const std::vector<idx_t>& owner,
                      const std::vector<idx_t>& neighbour, Csr& cellFaces,
                      std::vector<std::int8_t>& sign) {
  const idx_t nFaces = static_cast<idx_t>(owner.size());
  std::vector<idx_t> counts(static_cast<std::size_t>(nCells), 0);
  for (idx_t f = 0; f < nFaces; ++f) {
    ++counts[owner[f]];
    if (neighbour[f] != kNone && neighbour[f] < nCells) ++counts[neighbour[f]];
  }
  cellFaces = Csr::from_counts(counts);
  sign.assign(static_cast<std::size_t>(cellFaces.nnz()), 0);
  std::vector<idx_t> fill(cellFaces.offsets().begin(), cellFaces.offsets().end() - 1);
  idx_t* out = cellFaces.indices().data();
  // Faces are visited in ascending order, so every row comes out sorted.
  for (idx_t f = 0; f < nFaces; ++f) {
    const idx_t o = owner[f], n = neighbour[f];
    sign[fill[o]] = 1;
    out[fill[o]++] = f;
    if (n != kNone && n < nCells) {
      sign[fill[n]] = -1;
      out[fill[n]++] = f;
    }
  }
}

Csr build_cell_cells(const Csr& cellFaces, const std::vector<idx_t>& owner,
                     const std::vector<idx_t>& neighbour) {
  const idx_t nCells = cellFaces.rows();
  std::vector<idx_t> counts(static_cast<std::size_t>(nCells), 0);
  for (idx_t c = 0; c < nCells; ++c)
    for (idx_t k = cellFaces.begin(c); k < cellFaces.end(c); ++k)
      counts[c] += neighbour[cellFaces.indices()[k]] != kNone;
  Csr cc = Csr::from_counts(counts);
#pragma omp parallel for schedule(static)
  for (idx_t c = 0; c < nCells; ++c) {
    idx_t* out = cc.row(c);
    idx_t n = 0;
    for (idx_t k = cellFaces.begin(c); k < cellFaces.end(c); ++k) {
      const idx_t f = cellFaces.indices()[k];
      if (neighbour[f] == kNone) continue;
      out[n++] = owner[f] == c ? neighbour[f] : owner[f];
    }
    std::sort(out, out + n);
  }
  return cc;
}

Bandwidth adjacency_bandwidth(const Csr& adj) {
  Bandwidth b;
  for (idx_t i = 0; i < adj.rows(); ++i) {
    idx_t lo = i;
    for (idx_t k = adj.begin(i); k < adj.end(i); ++k) {
      const idx_t j = adj.indices()[k];
      b.bandwidth = std::max<std::int64_t>(b.bandwidth, j > i ? j - i : i - j);
      lo = std::min(lo, j);
    }
    b.profile += i - lo;
  }
  return b;
}

} // namespace fv
