#pragma once
/// \file sweep_groups.hpp
/// Validation of the sweep groups of the implicit schemes (LU-SGS, the Newton-Krylov block
/// Gauss-Seidel preconditioner): a grouping of a zone's owned cells (order/cellColours,
/// order/hyperplanes or any given Csr) in which no two cells of a group are face neighbours, so
/// that a group can be updated in parallel.
#include "common/csr.hpp"
#include "common/zone.hpp"

#include <vector>

namespace fv {

/// A sweep order of a zone's owned cells for the block ILU preconditioner: the cells cut into
/// compact blocks, each swept in its own sequential order, all blocks at once (block Jacobi
/// between blocks: a block never reads another block's cells).
struct BlockSweepOrder {
  std::vector<idx_t> block; ///< block of each cell, nTotalCells entries (halo cells: -1)
  std::vector<idx_t> rank;  ///< level of each cell in its block, nTotalCells (halo: kHaloRank)
  std::vector<idx_t> cells; ///< the owned cells by block, then by level within the block
  /// block b's levels are blockLevels[b] .. blockLevels[b+1]-1, level l is
  /// cells[levelOffsets[l] .. levelOffsets[l+1]) (an fv::LevelSchedule)
  std::vector<idx_t> blockLevels, levelOffsets;
  idx_t nBlocks = 0;
  idx_t maxLevels = 0; ///< the most levels of one block
};

/// Cuts the owned cells into blocks of at most `blockCells` cells by recursive coordinate
/// bisection of the cell centroids (median splits of the longest extent: compact pieces of the
/// mesh, deterministic) and orders each block sequentially in the zone's sweep order (that of
/// its hyperplanes, sequential_sweep_ranks()): a cell's level is one more than the highest level
/// of its neighbours swept before it in the block (the hyperplanes of the block), so that within
/// a block the level-by-level sweep equals the sequential one.
BlockSweepOrder block_sweep_order(const Zone& z, idx_t blockCells);

/// The sequential sweep that the zone's hyperplanes parallelise, as a rank per cell
/// (nTotalCells entries, halo cells kernels::kHaloRank): the position of each owned cell in
/// order/hyperplanes, group by group. Cell order unless prep numbered the sweep by a wavefront
/// order (prep/zone_builder.cpp); the plain cell order when the zone has no hyperplanes.
std::vector<idx_t> sequential_sweep_ranks(const Zone& z);

/// Checks that `g` is a valid sweep grouping of the zone's owned cells (every owned cell in
/// exactly one group, no two neighbours in one group; fv::Error naming `what` and the cells
/// otherwise) and returns each cell's group, nTotalCells entries (halo cells:
/// kernels::kHaloRank).
std::vector<idx_t> sweep_group_ranks(const Zone& z, const Csr& g, const char* what);

} // namespace fv
