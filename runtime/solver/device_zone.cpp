#include "runtime/solver/device_zone.hpp"

#include "common/error.hpp"

#include <limits>

namespace fv {
namespace {
template <class T>
void check_size(const Array<T>& a, std::size_t expected, const char* name) {
  FV_VERIFY(a.size() == expected,
            "zone array " << name << " has " << a.size() << " entries, expected " << expected);
}
void check_csr(const Csr& c, idx_t rows, idx_t cols, const char* name) {
  FV_VERIFY(c.rows() == rows,
            "zone relation " << name << " has " << c.rows() << " rows, expected " << rows);
  c.check(name, cols);
}
} // namespace

bool fits_kernel_indexing(std::int64_t nTotalCells, std::int64_t nFaces, std::int64_t nNodes) {
  constexpr std::int64_t kMax = std::numeric_limits<idx_t>::max();
  return nTotalCells >= 0 && nFaces >= 0 && nNodes >= 0 && 15 * nTotalCells <= kMax &&
         5 * nFaces <= kMax && 5 * nNodes <= kMax;
}

DeviceZone::DeviceZone(const Zone& z, const std::vector<real_t>* nodeWeights) {
  FV_VERIFY(fits_kernel_indexing(z.nTotalCells(), z.nFaces, z.nNodes),
            "zone " << z.zoneId << " is too large for the kernels' 32-bit indexing ("
                    << z.nTotalCells() << " cells, " << z.nFaces << " faces, " << z.nNodes
                    << " nodes; at most 143,165,576 cells and 429,496,729 faces or nodes per "
                       "zone): prepare it in more parts (fvprep --parts)");
  const idx_t nTot = z.nTotalCells();
  const auto nt = static_cast<std::size_t>(nTot);
  const auto nf = static_cast<std::size_t>(z.nFaces);
  FV_VERIFY(z.nCells > 0 && z.nFaces > 0 && z.nNodes > 0,
            "zone " << z.zoneId << " is empty (" << z.nCells << " cells, " << z.nFaces << " faces, "
                    << z.nNodes << " nodes)");
  check_size(z.cellVolume, nt, "cells/volume");
  check_size(z.cellCentroid, 3 * nt, "cells/centroid");
  check_size(z.faceOwner, nf, "faces/owner");
  check_size(z.faceNeighbour, nf, "faces/neighbour");
  check_size(z.faceArea, 3 * nf, "faces/area");
  check_size(z.faceCentroid, 3 * nf, "faces/centroid");
  check_size(z.faceOwnerDelta, 3 * nf, "faces/ownerDelta");
  check_size(z.faceNeighbourDelta, 3 * nf, "faces/neighbourDelta");
  check_csr(z.cellFaces, z.nCells, z.nFaces, "conn/cellFaces");
  check_size(z.cellFaceSign, static_cast<std::size_t>(z.cellFaces.nnz()), "conn/cellFaceSign");
  check_csr(z.cellCells, z.nCells, nTot, "conn/cellCells");
  check_csr(z.faceNodes, z.nFaces, z.nNodes, "conn/faceNodes");
  check_csr(z.nodeCells, z.nNodes, z.nCells, "conn/nodeCells");
  check_size(z.nodeCellWeight, static_cast<std::size_t>(z.nodeCells.nnz()), "conn/nodeCellWeight");
  check_size(z.nodeXyz, 3 * static_cast<std::size_t>(z.nNodes), "nodes/xyz");
  FV_VERIFY(z.nPatches() >= 0 &&
                (z.patchFaceOffsets.empty() ||
                 z.patchFaceOffsets[z.patchFaceOffsets.size() - 1] == z.nBoundaryFaces),
            "zone patchFaceOffsets do not end at nBoundaryFaces = " << z.nBoundaryFaces);
  for (idx_t f = 0; f < z.nFaces; ++f) {
    const idx_t o = z.faceOwner[f], n = z.faceNeighbour[f];
    FV_VERIFY(o >= 0 && o < z.nCells,
              "face " << f << " has owner " << o << " outside [0, " << z.nCells << ")");
    FV_VERIFY(f < z.nBoundaryFaces ? n == kNone : (n >= 0 && n < nTot),
              "face " << f << " has neighbour " << n
                      << (f < z.nBoundaryFaces ? " but is a boundary face" : " out of range"));
  }
  for (idx_t c = 0; c < nTot; ++c)
    FV_VERIFY(z.cellVolume[c] > 0, "cell " << c << " (global " << z.cellGlobalId[c]
                                           << ") has non-positive volume " << z.cellVolume[c]);

  cellVolume_ = DeviceArray<real_t>(z.cellVolume, "cells/volume");
  if (!z.cellWallDistance.empty())
    cellWallDistance_ = DeviceArray<real_t>(z.cellWallDistance, "cells/wallDistance");
  cellCentroid_ = DeviceArray<real_t>(z.cellCentroid, "cells/centroid");
  faceArea_ = DeviceArray<real_t>(z.faceArea, "faces/area");
  faceCentroid_ = DeviceArray<real_t>(z.faceCentroid, "faces/centroid");
  faceOwnerDelta_ = DeviceArray<real_t>(z.faceOwnerDelta, "faces/ownerDelta");
  faceNeighbourDelta_ = DeviceArray<real_t>(z.faceNeighbourDelta, "faces/neighbourDelta");
  if (nodeWeights) {
    FV_VERIFY(nodeWeights->size() == z.nodeCellWeight.size(),
              "node weights: " << nodeWeights->size() << " entries, expected "
                               << z.nodeCellWeight.size());
    nodeCellWeight_ = DeviceArray<real_t>(*nodeWeights, "node weights (linear exact)");
  } else {
    nodeCellWeight_ = DeviceArray<real_t>(z.nodeCellWeight, "conn/nodeCellWeight");
  }
  faceOwner_ = DeviceArray<idx_t>(z.faceOwner, "faces/owner");
  faceNeighbour_ = DeviceArray<idx_t>(z.faceNeighbour, "faces/neighbour");
  cellFaceOffsets_ = DeviceArray<idx_t>(z.cellFaces.offsets(), "conn/cellFaces/offsets");
  cellFaces_ = DeviceArray<idx_t>(z.cellFaces.indices(), "conn/cellFaces/indices");
  cellFaceSign_ = DeviceArray<std::int8_t>(z.cellFaceSign, "conn/cellFaceSign");
  cellCellOffsets_ = DeviceArray<idx_t>(z.cellCells.offsets(), "conn/cellCells/offsets");
  cellCells_ = DeviceArray<idx_t>(z.cellCells.indices(), "conn/cellCells/indices");
  faceNodeOffsets_ = DeviceArray<idx_t>(z.faceNodes.offsets(), "conn/faceNodes/offsets");
  faceNodes_ = DeviceArray<idx_t>(z.faceNodes.indices(), "conn/faceNodes/indices");
  nodeCellOffsets_ = DeviceArray<idx_t>(z.nodeCells.offsets(), "conn/nodeCells/offsets");
  nodeCells_ = DeviceArray<idx_t>(z.nodeCells.indices(), "conn/nodeCells/indices");

  view_.nCells = z.nCells;
  view_.nTotalCells = nTot;
  view_.nFaces = z.nFaces;
  view_.nBoundaryFaces = z.nBoundaryFaces;
  view_.nNodes = z.nNodes;
  view_.cellVolume = cellVolume_.data();
  view_.cellWallDistance = cellWallDistance_.empty() ? nullptr : cellWallDistance_.data();
  view_.cellCentroid = cellCentroid_.data();
  view_.faceOwner = faceOwner_.data();
  view_.faceNeighbour = faceNeighbour_.data();
  view_.faceArea = faceArea_.data();
  view_.faceCentroid = faceCentroid_.data();
  view_.faceOwnerDelta = faceOwnerDelta_.data();
  view_.faceNeighbourDelta = faceNeighbourDelta_.data();
  view_.cellFaceOffsets = cellFaceOffsets_.data();
  view_.cellFaces = cellFaces_.data();
  view_.cellFaceSign = cellFaceSign_.data();
  view_.cellCellOffsets = cellCellOffsets_.data();
  view_.cellCells = cellCells_.data();
  view_.faceNodeOffsets = faceNodeOffsets_.data();
  view_.faceNodes = faceNodes_.data();
  view_.nodeCellOffsets = nodeCellOffsets_.data();
  view_.nodeCells = nodeCells_.data();
  view_.nodeCellWeight = nodeCellWeight_.data();
}

std::size_t DeviceZone::bytes() const {
  return cellVolume_.bytes() + cellCentroid_.bytes() + faceArea_.bytes() + faceCentroid_.bytes() +
         faceOwnerDelta_.bytes() + faceNeighbourDelta_.bytes() + nodeCellWeight_.bytes() +
         faceOwner_.bytes() + faceNeighbour_.bytes() + cellFaceOffsets_.bytes() +
         cellFaces_.bytes() + cellCellOffsets_.bytes() + cellCells_.bytes() +
         faceNodeOffsets_.bytes() + faceNodes_.bytes() + nodeCellOffsets_.bytes() +
         nodeCells_.bytes() + cellFaceSign_.bytes();
}

} // namespace fv
