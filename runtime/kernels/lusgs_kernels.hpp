#pragma once
/// \file lusgs_kernels.hpp
/// Kernels of the matrix-free LU-SGS scheme (runtime/solver/lusgs.hpp). All pointers are device
/// pointers; cell fields are SoA with stride nTotalCells as in kernels.hpp.
///
/// One symmetric Gauss-Seidel sweep updates every owned cell i (in the sweep order) with
///   dU_i = -D_i^-1 (R_i + L_i + U_i),
///   L_i  = 1/2 sum_{j lower}  (dF_j(dU_j) . S_ij - omega lambda_ij dU_j)   (forward sweep)
///   U_i  = 1/2 sum_{j upper}  (dF_j(dU_j) . S_ij - omega lambda_ij dU_j)   (backward sweep)
/// where S_ij points out of i, lambda_ij = face spectral radius (times |S|; with roe: the Roe
/// matrix |A~_ij| |S| applied to dU_j) and "lower" means rank[j] < rank[i] (precomputed per cell:
/// SweepNeighbours); D_i is a scalar or, on block cells (boundary cells, or all cells with roe), a
/// 5x5 block given by its inverse. The forward sweep recomputes L_i and reuses U_i of the previous
/// backward sweep (zero before the first), the backward sweep recomputes U_i and reuses L_i: the
/// lower neighbours of i are not touched between i's forward and backward updates, nor its upper
/// ones between a backward and the next forward update, so this is exactly symmetric Gauss-Seidel
/// on (D + L + U) dU = -R with half the neighbour work per sweep. Within one group of a colouring
/// or of hyperplanes no two cells are neighbours, so a group runs in parallel.
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/patch_table.hpp"
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels {

/// Device pointers and constants one sweep reads and writes (fixed for a solver's lifetime, so
/// that sweep launches can be captured once in a CUDA graph).
struct LusgsFields {
  real_t gamma = 1.4;
  real_t omega = 1.0;
  const real_t* W = nullptr; ///< primitive state of U (halo cells filled), kNumEq x nTotalCells
  const real_t* R = nullptr; ///< residual (net outflow), kNumEq x nTotalCells
  const real_t* D = nullptr; ///< scalar diagonal per owned cell, m^3/s
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
  real_t* dU = nullptr; ///< update, kNumEq x nTotalCells (halo entries: 0 or exchanged)
  /// Per owned cell: index of its block diagonal in Dinv, or -1 (scalar D). Null: all scalar.
  const idx_t* blockOf = nullptr;
  /// inverse block diagonals, phys::kBlockSize per block (row-major), s/m^3
  const real_t* Dinv = nullptr;
  /// Off-diagonal dissipation: false: omega lambda_ij dU_j (scalar); true: omega |A~_ij| dU_j,
  /// the Roe matrix of the face with Harten's entropyFix (every cell then has a block).
  bool roe = false;
  real_t entropyFix = 0.1;
  real_t* lower = nullptr; ///< L_i, kNumEq x nCells
  real_t* upper = nullptr; ///< U_i, kNumEq x nCells
};

/// Rank of halo cells: never lower (the forward sweep ignores them), always upper (the
/// backward sweep sees their dU, zero unless an exchange filled it).
inline constexpr idx_t kHaloRank = 0x7fffffff;

/// Face loop: lambda[f] = max over the face's cells of |u . S| + c |S|; on boundary faces the
/// owner's value when `scalarBoundary`, else 0 (their Jacobian is in the block diagonal); on
/// interior faces 0 unless `scalarInterior` (Roe dissipation: in the blocks too).
void lusgs_face_radius(const ZoneView& z, real_t gamma, const real_t* W, bool scalarBoundary,
                       bool scalarInterior, real_t* lambda);

/// Face loop (Navier-Stokes): lambda[f] += 2 Lambda_v with the viscous face radius Lambda_v =
/// max(4/3, gamma/Pr) mu / rho |S| / dn (dn: the distance of the cell centres, or of the cell
/// centre and the face on a boundary face, along the normal): the scalar diagonal and the
/// scalar off-diagonal dissipation then hold the viscous operator's (Blazek section 6.2.4).
void lusgs_viscous_radius(const ZoneView& z, const phys::Transport& t, const real_t* W,
                          real_t* lambda);

/// Cell loop: D[c] = V / dt + omega / 2 * sum_faces lambda (dt per cell, or dtGlobal >= 0).
void lusgs_diagonal(const ZoneView& z, real_t omega, const real_t* dt, real_t dtGlobal,
                    const real_t* lambda, real_t* D);

/// What the boundary blocks need: the cells with at least one boundary face, the boundary
/// condition of each boundary face, and the Riemann flux of the residual.
struct LusgsBoundary {
  idx_t nBlocks = 0;
  const idx_t* blockCells = nullptr; ///< owned cells with boundary faces, nBlocks
  PatchView patches;                 ///< the zone's patch table (SpatialOperator's)
  FluxSettings flux;                 ///< flux and entropy fix (first order)
  bool roe = false;   ///< also add omega/2 |A~_f| of the interior faces (all cells are blocks)
  real_t omega = 1.0; ///< lusgs_omega
};

/// Cell loop over the block cells: Dinv = (D_c I + sum_{boundary faces} (dF_b/dU - 1/2 A S_b))^-1,
/// the exact first-order Jacobian of each boundary flux F_b(U_c) = riemann(W_c, ghost(W_c))
/// (forward differences in the conservative variables) less the half flux Jacobian that the
/// scalar interior diagonal already holds through sum_f S_f = 0. Throws nothing: a singular
/// block (not expected, D_c > 0 dominates) falls back to 1/D_c I.
void lusgs_boundary_blocks(const ZoneView& z, const LusgsBoundary& b, const real_t* W,
                           const real_t* D, real_t* Dinv);

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

/// Cell loop: zeroes a field of kNumEq x n values (stride n) for cells [0, count).
void lusgs_zero(idx_t n, idx_t count, real_t* field);

} // namespace fv::kernels
