#include "prep/hyperplanes.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <vector>

namespace fv {

Csr lusgs_hyperplanes(const Csr& cellCells, idx_t nCells) {
  FV_VERIFY(cellCells.rows() >= nCells,
            "lusgs_hyperplanes: " << cellCells.rows() << " rows for " << nCells << " cells");
  std::vector<idx_t> level(static_cast<std::size_t>(nCells), 0);
  idx_t nLevels = nCells > 0 ? 1 : 0;
  for (idx_t i = 0; i < nCells; ++i) {
    idx_t l = 0;
    for (idx_t k = cellCells.begin(i); k < cellCells.end(i); ++k) {
      const idx_t j = cellCells.indices()[k];
      if (j < i) l = std::max(l, level[j] + 1);
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
