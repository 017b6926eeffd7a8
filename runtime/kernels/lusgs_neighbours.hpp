#pragma once
/// \file lusgs_neighbours.hpp
/// fv::kernels::SweepNeighbours: the LU-SGS sweeps' neighbour lists, built once on the host from
/// the zone and the sweep ranks. Row c (owned cell) of `lower` lists the interior-face
/// neighbours j with rank[j] < rank[c] (the forward sweep's L_c), row c of `upper` those with
/// rank[j] > rank[c], halo cells included (the backward sweep's U_c). Entries keep the order of
/// the cell's faces in cellFaces, so a sweep sums exactly what a walk of cellFaces filtering by
/// rank sums, in the same order (bitwise the same dU), but each face costs two independent
/// loads (entry, then the neighbour's values) instead of a dependent chain
/// face -> owner/neighbour -> rank -> values: on the GPU a hyperplane's time is the latency of
/// its slowest cell, so the chain length is what counts.
///
/// Entry e of a list: cells[e] = the neighbour, faces[e] = the face when the cell is its owner
/// (area vector out of the cell), ~face (negative) when it is the face's neighbour side.
/// Owns its device arrays (active device at construction); attach() points a LusgsFields at them.
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/lusgs_kernels.hpp"

#include <vector>

namespace fv::kernels {

class SweepNeighbours {
 public:
  SweepNeighbours() = default;
  /// `rank`: sweep rank per cell, nTotalCells entries (halo cells kHaloRank). Interior faces
  /// only (boundary faces are in the diagonal).
  SweepNeighbours(const Zone& z, const std::vector<idx_t>& rank);
  /// Sets f.lowerOffsets ... f.upperFaces.
  void attach(LusgsFields& f) const;
  /// Entries of both lists (each interior face once per owned side).
  std::size_t entries() const { return lowerCells_.size() + upperCells_.size(); }

 private:
  DeviceArray<idx_t> lowerOffsets_, lowerCells_, lowerFaces_;
  DeviceArray<idx_t> upperOffsets_, upperCells_, upperFaces_;
};

} // namespace fv::kernels
