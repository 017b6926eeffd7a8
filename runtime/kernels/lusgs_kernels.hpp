#pragma once
/// \file lusgs_kernels.hpp
/// Kernels of the matrix-free LU-SGS scheme (runtime/solver/lusgs.hpp). All pointers are device
/// pointers; cell fields are SoA with stride nTotalCells as in kernels.hpp.
///
/// One symmetric Gauss-Seidel sweep updates every owned cell i (in the sweep order) with
///   dU_i = -(R_i + L_i + U_i) / D_i,
///   L_i  = 1/2 sum_{j lower}  (dF_j(dU_j) . S_ij - omega lambda_ij dU_j)   (forward sweep)
///   U_i  = 1/2 sum_{j upper}  (dF_j(dU_j) . S_ij - omega lambda_ij dU_j)   (backward sweep)
/// where S_ij points out of i, lambda_ij = face spectral radius (times |S|) and "lower" means
/// rank[j] < rank[i] (precomputed per cell: SweepNeighbours). The forward sweep recomputes L_i and
/// reuses U_i of the previous backward sweep (zero before the first), the backward sweep recomputes
/// U_i and reuses L_i: the lower neighbours of i are not touched between i's forward and backward
/// updates, nor its upper ones between a backward and the next forward update, so this is exactly
/// symmetric Gauss-Seidel on (D + L + U) dU = -R with half the neighbour work per sweep. Within one
/// group of a colouring or of hyperplanes no two cells are neighbours, so a group runs in
/// parallel.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels {

/// Device pointers and constants one sweep reads and writes (fixed for a solver's lifetime, so
/// that sweep launches can be captured once in a CUDA graph).
struct LusgsFields {
  real_t gamma = 1.4;
  real_t omega = 1.0;
  const real_t* W = nullptr;      ///< primitive state of U (halo cells filled), 5 x nTotalCells
  const real_t* R = nullptr;      ///< residual (net outflow), 5 x nTotalCells
  const real_t* D = nullptr;      ///< scalar diagonal per owned cell, m^3/s
  const real_t* lambda = nullptr; ///< face spectral radius times |S| per face, m^3/s
  /// Neighbour lists of the owned cells by sweep rank (SweepNeighbours, lusgs_neighbours.hpp):
  /// lower (forward sweep) and upper (backward sweep, halo cells included); CSR offsets nCells+1,
  /// entries: neighbour cell and face (~face when the cell is the face's neighbour side).
  const idx_t* lowerOffsets = nullptr;
  const idx_t* lowerCells = nullptr;
  const idx_t* lowerFaces = nullptr;
  const idx_t* upperOffsets = nullptr;
  const idx_t* upperCells = nullptr;
  const idx_t* upperFaces = nullptr;
  real_t* dU = nullptr;    ///< update, 5 x nTotalCells (halo entries: 0 or exchanged)
  real_t* lower = nullptr; ///< L_i, 5 x nCells
  real_t* upper = nullptr; ///< U_i, 5 x nCells
};

/// Rank of halo cells: never lower (the forward sweep ignores them), always upper (the
/// backward sweep sees their dU, zero unless an exchange filled it).
inline constexpr idx_t kHaloRank = 0x7fffffff;

/// Face loop: lambda[f] = max over the face's cells of |u . S| + c |S| (owner only on boundary
/// faces).
void lusgs_face_radius(const ZoneView& z, real_t gamma, const real_t* W, real_t* lambda);

/// Cell loop: D[c] = V / dt + omega / 2 * sum_faces lambda (dt per cell, or dtGlobal >= 0).
void lusgs_diagonal(const ZoneView& z, real_t omega, const real_t* dt, real_t dtGlobal,
                    const real_t* lambda, real_t* D);

/// Updates the n cells cells[0..n) (one group, no two of them neighbours) in parallel:
/// forward (recompute L) or backward (recompute U) sweep step.
void lusgs_sweep_group(const ZoneView& z, const LusgsFields& f, bool forward, const idx_t* cells,
                       idx_t n);

/// The whole forward (groups 0, 1, ...) or backward (last group first) sweep over the groups of
/// `s`: group g is cells[s.offsets[g] .. s.offsets[g+1]), no two cells of a group neighbours.
/// One fv::forall_groups; `mode` picks the GPU launch strategy. Bitwise the same dU as calling
/// lusgs_sweep_group for every group in turn.
void lusgs_sweep_groups(const ZoneView& z, const LusgsFields& f, bool forward, const idx_t* cells,
                        const GroupSchedule& s, GroupLaunch mode);

/// The whole forward or backward sweep in natural cell order on one thread (the sequential
/// reference; rank must be the identity on owned cells).
void lusgs_sweep_sequential(const ZoneView& z, const LusgsFields& f, bool forward);

/// Cell loop: U += dU on owned cells.
void lusgs_apply(const ZoneView& z, const real_t* dU, real_t* U);

/// Cell loop: zeroes a field of 5 x n values (stride n) for cells [0, count).
void lusgs_zero(idx_t n, idx_t count, real_t* field);

} // namespace fv::kernels
