#include "runtime/kernels/lusgs_neighbours.hpp"

#include "common/error.hpp"

namespace fv::kernels {

SweepNeighbours::SweepNeighbours(const Zone& z, const std::vector<idx_t>& rank) {
  const idx_t n = z.nCells;
  FV_VERIFY(static_cast<idx_t>(rank.size()) == z.nTotalCells(),
            "LU-SGS neighbour lists: " << rank.size() << " ranks for " << z.nTotalCells()
                                       << " cells");
  std::vector<idx_t> lo(static_cast<std::size_t>(n) + 1, 0), up(lo.size(), 0);
  std::vector<idx_t> loCells, loFaces, upCells, upFaces;
  loCells.reserve(z.cellFaces.nnz() / 2);
  loFaces.reserve(z.cellFaces.nnz() / 2);
  upCells.reserve(z.cellFaces.nnz() / 2);
  upFaces.reserve(z.cellFaces.nnz() / 2);
  for (idx_t c = 0; c < n; ++c) {
    for (idx_t q = z.cellFaces.begin(c); q < z.cellFaces.end(c); ++q) {
      const idx_t face = z.cellFaces.indices()[q];
      if (face < z.nBoundaryFaces) continue;
      const bool owner = z.cellFaceSign[q] > 0;
      const idx_t j = owner ? z.faceNeighbour[face] : z.faceOwner[face];
      const idx_t encoded = owner ? face : ~face;
      if (rank[j] < rank[c]) {
        loCells.push_back(j);
        loFaces.push_back(encoded);
      } else if (rank[j] > rank[c]) {
        upCells.push_back(j);
        upFaces.push_back(encoded);
      }
    }
    lo[c + 1] = static_cast<idx_t>(loCells.size());
    up[c + 1] = static_cast<idx_t>(upCells.size());
  }
  lowerOffsets_ = DeviceArray<idx_t>(lo, "lusgs lower offsets");
  lowerCells_ = DeviceArray<idx_t>(loCells, "lusgs lower neighbours");
  lowerFaces_ = DeviceArray<idx_t>(loFaces, "lusgs lower faces");
  upperOffsets_ = DeviceArray<idx_t>(up, "lusgs upper offsets");
  upperCells_ = DeviceArray<idx_t>(upCells, "lusgs upper neighbours");
  upperFaces_ = DeviceArray<idx_t>(upFaces, "lusgs upper faces");
}

void SweepNeighbours::attach(LusgsFields& f) const {
  f.lowerOffsets = lowerOffsets_.data();
  f.lowerCells = lowerCells_.data();
  f.lowerFaces = lowerFaces_.data();
  f.upperOffsets = upperOffsets_.data();
  f.upperCells = upperCells_.data();
  f.upperFaces = upperFaces_.data();
}

} // namespace fv::kernels
