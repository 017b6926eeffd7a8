#pragma once
/// \file block_preconditioner.hpp
/// fv::BlockPreconditioner: the assembled first-order implicit operator M = V/dt + dR1/dU of a
/// zone (5x5 blocks in cellFaces order: kernels/block_jacobian.hpp) and an approximate solve
/// x ~ M^-1 b by a fixed number of sweeps from x = 0, the preconditioner of Newton's GMRES:
///   ilu     block ILU(0) of M with the cells in group order, in its diagonal ("DILU") form:
///           D~_c = D_c - sum_{lower j} O_cj D~_j^-1 O_jc is factorised once per assemble(), a
///           solve is a forward and a backward sweep over the groups; further sweeps are
///           Richardson iterations x += ILU^-1 (b - M x). On the face-neighbour pattern of a
///           cell-centred scheme ILU(0) only changes the diagonal, except for the fill between
///           two neighbours of a cell that are neighbours themselves (tetrahedra around an edge
///           of degree 3), which the diagonal form leaves out;
///   sgs     symmetric block Gauss-Seidel: each sweep forward over the groups, then backward;
///   jacobi  block Jacobi sweeps;
///   none    x = b.
/// Orderings: compact blocks of cells, each swept level by level in its own sequential order,
/// all blocks at once and without coupling between them (ilu's default: one launch per sweep,
/// a CUDA block per mesh block, fv::forall_block_levels); the cell colours (few, large groups:
/// a multicolour ordering, weak at a large CFL); the hyperplanes (the sequential order of the
/// whole zone: strongest, one launch per hyperplane, captured once as a CUDA graph). A fixed number
/// of sweeps from zero is a fixed linear operator, so plain right-preconditioned GMRES
/// applies. Across zones the halo cells' x is exchanged after every half sweep (block
/// Jacobi between zones, like LU-SGS). The sweeps read and write fixed work vectors, so that on
/// the GPU the per-group launches of a sweep are captured once as a CUDA graph and replayed.
/// Owns every device array (allocated on the active device at construction).
#include "common/zone.hpp"
#include "runtime/backend/kernel_sequence.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/kernels/block_jacobian.hpp"

#include <vector>

namespace fv {

class SpatialOperator;

class BlockPreconditioner {
 public:
  /// The preconditioner of the Newton part of a case on op's flow, scheme and patches.
  /// `keepDiagonal`: also store the diagonal blocks (for multiply(); ilu always keeps them).
  /// `op` must outlive it.
  BlockPreconditioner(SpatialOperator& op, const NewtonConfig& cfg, bool keepDiagonal);
  ~BlockPreconditioner();
  BlockPreconditioner(const BlockPreconditioner&) = delete;
  BlockPreconditioner& operator=(const BlockPreconditioner&) = delete;

  /// Assembles M for the primitive state W (halo cells filled) and the time step.
  void assemble(const real_t* W, const real_t* dt, real_t dtGlobal);
  /// x = P b, the sweeps' approximation of M^-1 b (x's halo entries are overwritten).
  void apply(const real_t* b, real_t* x);
  /// y = M x (needs keepDiagonal; x's halo cells are filled here). COLLECTIVE.
  void multiply(const real_t* x, real_t* y);

  /// Sweep groups (1 for Jacobi and none).
  idx_t group_count() const { return nGroups_; }
  /// Bytes of the assembled blocks.
  std::size_t matrix_bytes() const { return Dinv_.bytes() + D_.bytes() + off_.bytes(); }
  std::string description() const;

 private:
  /// One forward or backward sweep (ilu or sgs) from b into x; the group orderings run on the
  /// fixed vectors b_, x_ only (their launches are replayed as a CUDA graph).
  void sweep(bool forward, const real_t* b, real_t* x);
  /// The blocks ordering's levels (nBlocks_ > 0).
  LevelSchedule level_schedule() const;
  /// The ILU's lower and upper neighbour lists (kernels::IluOrder) by sweep position (`cells`:
  /// the cell at each position) from each owned cell's rank in the sweep order and its block
  /// (empty: one block).
  void build_ilu_lists(const Zone& zone, const std::vector<idx_t>& cells,
                       const std::vector<idx_t>& rank, const std::vector<idx_t>& block);
  /// x = ILU^-1 b (a forward sweep, the halo x, a backward sweep).
  void ilu_solve(const real_t* b, real_t* x);

  SpatialOperator& op_;
  int nv_; ///< block width: the state model's variables
  NewtonPreconditioner kind_;
  int sweeps_;
  idx_t nGroups_ = 1;
  std::vector<idx_t> groupOffsets_;
  DeviceArray<idx_t> groupOffsetsDevice_, groupCells_;
  DeviceArray<real_t> Dinv_, D_, off_;
  idx_t nBlocks_ = 0;                             ///< blocks of the blocks ordering (0: none)
  std::vector<idx_t> blockLevels_, levelOffsets_; ///< its levels (host)
  DeviceArray<idx_t> blockLevelsDevice_, levelOffsetsDevice_;
  DeviceArray<idx_t> lowerOffsets_, lower_, lowerSlot_, upperOffsets_, upper_,
      upperSlot_;                                     ///< ilu neighbour lists
  DeviceArray<real_t> lowerBlk_, upperBlk_, iluDinv_; ///< ilu blocks in sweep order
  DeviceArray<real_t> b_, x_, y_; ///< fixed work vectors of the sweeps (nVars x nTotalCells)
  kernels::BlockMatrix m_;
  kernels::BlockAssembly assembly_;
  kernels::IluOrder ilu_;
  KernelSequence forward_, backward_, factor_;
};

} // namespace fv
