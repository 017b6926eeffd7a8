#include "prep/hyperplanes.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <vector>

namespace fv {

Csr lusgs_hyperplanes(const Csr& cellCells, idx_t nCells) {
  std::vector<idx_t> identity(static_cast<std::size_t>(std::max<idx_t>(nCells, 0)));
  for (idx_t i = 0; i < nCells; ++i)
    identity[i] = i;
  return lusgs_hyperplanes(cellCells, nCells, identity);
}

Csr lusgs_hyperplanes(const Csr& cellCells, idx_t nCells, const std::vector<idx_t>& sweepOrder) {
  FV_VERIFY(cellCells.rows() >= nCells,
            "lusgs_hyperplanes: " << cellCells.rows() << " rows for " << nCells << " cells");
  FV_VERIFY(static_cast<idx_t>(sweepOrder.size()) == nCells,
            "lusgs_hyperplanes: sweep order of " << sweepOrder.size() << " cells for " << nCells);
  std::vector<idx_t> position(static_cast<std::size_t>(nCells), kNone);
  for (idx_t k = 0; k < nCells; ++k) {
    const idx_t c = sweepOrder[k];
    FV_VERIFY(c >= 0 && c < nCells && position[c] == kNone,
              "lusgs_hyperplanes: the sweep order is not a permutation (cell " << c << ")");
    position[c] = k;
  }
  std::vector<idx_t> level(static_cast<std::size_t>(nCells), 0);
  idx_t nLevels = nCells > 0 ? 1 : 0;
  for (idx_t k = 0; k < nCells; ++k) {
    const idx_t i = sweepOrder[k];
    idx_t l = 0;
    for (idx_t e = cellCells.begin(i); e < cellCells.end(i); ++e) {
      const idx_t j = cellCells.indices()[e];
      if (j < nCells && position[j] < k) l = std::max(l, level[j] + 1);
    }
    level[i] = l;
    nLevels = std::max(nLevels, l + 1);
  }
  std::vector<idx_t> counts(static_cast<std::size_t>(nLevels), 0);
  for (idx_t i = 0; i < nCells; ++i)
    ++counts[level[i]];
  Csr groups = Csr::from_counts(counts);
  std::vector<idx_t> fill(groups.offsets().begin(), groups.offsets().end() - 1);
  for (idx_t i = 0; i < nCells; ++i)
    groups.indices()[fill[level[i]]++] = i;
  return groups;
}

} // namespace fv
