#pragma once
/// \file block_jacobian.hpp
/// Kernels of the assembled first-order implicit operator M = V/dt + dR1/dU of the Newton-Krylov
/// preconditioner (runtime/solver/block_preconditioner.hpp): its assembly, its product with a
/// vector, and block Gauss-Seidel and block Jacobi sweeps on M x = b.
///
/// Storage follows the zone's cellFaces order: owned cell c has the diagonal block D_c (and its
/// inverse) and one off-diagonal block per entry q of its cellFaces row, O_q = dR_c/dU_j for the
/// neighbour j across face cellFaces[q] (unused on boundary faces, whose Jacobian is in D_c).
/// Blocks are N x N row-major (N the state model's variables: phys::kBlockSize reals for the mean
/// flow); a row of M is assembled by its own cell (every interior face's flux Jacobian is formed
/// once from each side), so no atomics are needed. Vectors are cell fields of N components (stride
/// nTotalCells) as in krylov.hpp. The assembly is templated on the state model, the rest on its
/// width N.
#include "runtime/backend/forall.hpp"
#include "runtime/backend/forall_levels.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/zone_view.hpp"

namespace fv::kernels {

/// Device pointers of an assembled operator.
struct BlockMatrix {
  real_t* Dinv = nullptr; ///< inverse diagonal blocks, N*N per owned cell, s/m^3 (null: not
                          ///< formed, the ILU factorises D itself)
  real_t* D = nullptr;    ///< diagonal blocks, N*N per owned cell (null: not kept)
  real_t* off = nullptr;  ///< off-diagonal blocks, N*N per cellFaces entry, m^3/s
};

/// The ILU factorisation and solve in sweep order. Cells are addressed by their sweep position
/// i (cells[i] of the schedule); per position, its lower neighbours (earlier in its block's
/// order) and its upper neighbours (later in its block's order, and halo cells) are entries of
/// two lists, in position order. Every block the ILU reads is stored in that order too, one
/// array per block component (structure of arrays): the off-diagonal block of lower entry e is
/// lowerBlk[k * nLower + e], k = N * row + column, that of upper entry e upperBlk[k * nUpper + e],
/// and the factorised diagonal D~^-1 of position i dinv[k * nCells + i]. Consecutive threads
/// of a level then read consecutive addresses, and a sweep step waits for three loads in a row
/// (the list range, the entries, x_j) whatever the number of neighbours. Neighbours in other
/// blocks (the blocks ordering) are in neither list.
struct IluOrder {
  idx_t nLower = 0, nUpper = 0;
  const idx_t* lowerOffsets = nullptr; ///< nCells + 1, by position
  const idx_t* lower = nullptr;        ///< 3 per entry: neighbour cell j, its position, the upper
                                       ///< entry of j that points back (O_jc)
  const idx_t* lowerSlot = nullptr;    ///< cellFaces entry of each lower entry (O_cj in m.off)
  const idx_t* upperOffsets = nullptr; ///< nCells + 1, by position
  const idx_t* upper = nullptr;        ///< neighbour cell of each upper entry
  const idx_t* upperSlot = nullptr;    ///< cellFaces entry of each upper entry
  real_t* lowerBlk = nullptr;          ///< N*N x nLower
  real_t* upperBlk = nullptr;          ///< N*N x nUpper
  real_t* dinv = nullptr;              ///< N*N x nCells, by position
};

/// What the assembly needs besides the state: the boundary conditions of the boundary faces and
/// the flux whose first-order Jacobian is formed.
struct BlockAssembly {
  PatchView patches;         ///< the boundary condition of each boundary face (SpatialOperator's)
  FluxSettings flux;         ///< Riemann flux and entropy fix (first order)
  phys::Transport transport; ///< viscosity law and gas of the viscous Jacobian
  /// RANS: the cell gradients of the primitives (3N x nTotalCells, the residual's) for the
  /// source Jacobian; null otherwise
  const real_t* grad = nullptr;
};

/// Cell loop: assembles row c of M for the primitive state W (halo cells filled), from the terms
/// of the model M (FV_FOR_EACH_STATE_MODEL):
/// D_c = V_c/dt_c I + sum_{interior q} dF/dU_L(W_c, W_j, S_q) + sum_{boundary q} dF_b/dU_c,
/// (M::kViscous: plus the thin-layer viscous Jacobians of M::Viscous on interior faces and
/// no-slip walls),
/// O_q = dF/dU_R(W_c, W_j, S_q), with S_q the area vector out of c (flux_jacobian.hpp; the
/// boundary flux's Jacobian by forward differences). dt per cell, or dtGlobal >= 0. Stores D
/// when m.D is set and D^-1 when m.Dinv is set; a singular block (not expected: V/dt and the
/// upwind dissipation dominate) gets the inverse dt/V I. RANS (M with nu-tilde): the mean
/// flow's blocks as above (with mu + mu_t) and the nu-tilde row's convection, diffusion and
/// stabilising source derivative (a.grad and the zone's wall distance required).
template <class M>
void assemble_block_jacobian(const ZoneView& z, const BlockAssembly& a, const real_t* W,
                             const real_t* dt, real_t dtGlobal, const BlockMatrix& m);

/// y = M x on owned cells (needs m.D; x's halo cells filled).
template <int N>
void block_multiply(const ZoneView& z, const BlockMatrix& m, const real_t* x, real_t* y);

/// One block Gauss-Seidel sweep over the groups of `s` (forward: group 0 first; backward: the
/// last first), no two cells of a group neighbours: x_c = D_c^-1 (b_c - sum_q O_q x_j) with the
/// newest x of every neighbour (halo cells: as they are). One fv::forall_groups.
template <int N>
void block_gauss_seidel(const ZoneView& z, const BlockMatrix& m, const real_t* b, real_t* x,
                        const idx_t* cells, const GroupSchedule& s, bool forward);

/// One block Jacobi sweep: xNew_c = D_c^-1 (b_c - sum_q O_q x_j) with the old x.
template <int N>
void block_jacobi(const ZoneView& z, const BlockMatrix& m, const real_t* b, const real_t* x,
                  real_t* xNew);

/// ILU factorisation over the groups of `s` (group order): copies the off-diagonal blocks of m
/// into o's sweep-ordered arrays, then D~_c = D_c - sum over lower neighbours j of
/// O_cj D~_j^-1 O_jc, stored as o.dinv = D~^-1 (needs m.D).
/// This is ILU(0) of M in the groups' order on the face-neighbour pattern, less the fill
/// between two neighbours of a cell that are neighbours themselves (rare: none on hex meshes),
/// i.e. the "DILU" form: only the diagonal changes.
template <int N>
void block_ilu_factor(const ZoneView& z, const BlockMatrix& m, const IluOrder& o,
                      const idx_t* cells, const GroupSchedule& s);

/// The ILU solve x = (L + D~) D~^-1 (D~ + U) \ b as two sweeps over the groups of `s`:
/// forward  x_c = D~_c^-1 (b_c - sum_{lower j} O_cj x_j)  (group order),
/// backward x_c -= D~_c^-1 sum_{upper j} O_cj x_j           (reverse order; halo cells are upper
/// neighbours with the x they hold). In place in x.
template <int N>
void block_ilu_sweep(const ZoneView& z, const IluOrder& o, const real_t* b, real_t* x,
                     const idx_t* cells, const GroupSchedule& s, bool forward);

/// The same two over the levels of independent blocks (the blocks ordering): one launch per
/// call, the levels of each block in order (fv::forall_block_levels; o.block required).
template <int N>
void block_ilu_factor(const ZoneView& z, const BlockMatrix& m, const IluOrder& o,
                      const idx_t* cells, const LevelSchedule& s);
template <int N>
void block_ilu_sweep(const ZoneView& z, const IluOrder& o, const real_t* b, real_t* x,
                     const idx_t* cells, const LevelSchedule& s, bool forward);

/// x = D^-1 b on owned cells (the first Jacobi sweep from x = 0).
template <int N>
void block_diagonal_solve(const ZoneView& z, const BlockMatrix& m, const real_t* b, real_t* x);

} // namespace fv::kernels
