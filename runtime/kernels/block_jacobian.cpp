// Assembly of the first-order block Jacobian and the sweeps of the block preconditioner
// (block_jacobian.hpp).
#include "runtime/kernels/block_jacobian.hpp"

#include "runtime/backend/forall_levels.hpp"
#include "runtime/physics/block.hpp"
#include "runtime/physics/model.hpp"

namespace fv::kernels {
using phys::kNumEq;
namespace {

/// s += sum over the interior faces q of cell c of O_q x_j (j the neighbour across q).
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void add_off_diagonal(const ZoneView& v, const BlockMatrix& m,
                                                    const real_t* x, idx_t c, real_t* s) {
  for (idx_t q = v.cellFaceOffsets[c]; q < v.cellFaceOffsets[c + 1]; ++q) {
    const idx_t f = v.cellFaces[q];
    if (f < v.nBoundaryFaces) continue;
    const idx_t j = v.cellFaceSign[q] > 0 ? v.faceNeighbour[f] : v.faceOwner[f];
    phys::add_block_times<N>(m.off + N * N * static_cast<std::size_t>(q), x, v.nTotalCells, j, s);
  }
}

/// r = b_c - sum over interior faces of O_q x_j.
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void off_diagonal_rhs(const ZoneView& v, const BlockMatrix& m,
                                                    const real_t* b, const real_t* x, idx_t c,
                                                    real_t* r) {
  real_t s[N] = {};
  add_off_diagonal<N>(v, m, x, c, s);
  for (int k = 0; k < N; ++k)
    r[k] = b[k * v.nTotalCells + c] - s[k];
}

/// Adds the mean flow's block m5 (kNumEq x kNumEq) into the leading part of the N x N block M.
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void add_mean_flow_block(const real_t* m5, real_t* M) {
  for (int r = 0; r < kNumEq; ++r)
    for (int c = 0; c < kNumEq; ++c)
      M[N * r + c] += m5[kNumEq * r + c];
}

/// The offset of interior face f's centroid from the centroid of its owner (owner) or of its
/// neighbour (!owner).
FV_HOST_DEVICE FV_FORCEINLINE const real_t* face_offset(const ZoneView& v, idx_t f, bool owner) {
  return (owner ? v.faceOwnerDelta : v.faceNeighbourDelta) + 3 * f;
}

/// x_c = Dinv_c r.
template <int N>
FV_HOST_DEVICE FV_FORCEINLINE void diagonal_solve(const BlockMatrix& m, idx_t n, idx_t c,
                                                  const real_t* r, real_t* x) {
  const real_t* M = m.Dinv + N * N * static_cast<std::size_t>(c);
  real_t y[N];
  phys::block_times<N>(M, r, y);
  for (int k = 0; k < N; ++k)
    x[k * n + c] = y[k];
}

} // namespace

template <class Mod>
void assemble_block_jacobian(const ZoneView& z, const BlockAssembly& a, const real_t* W,
                             const real_t* dt, real_t dtGlobal, const BlockMatrix& m) {
  constexpr int N = Mod::kNumVars, NN = N * N;
  using Viscous = typename Mod::Viscous;
  FV_ASSERT(!Mod::kSource || (a.grad && z.cellWallDistance),
            "the source term's Jacobian needs the gradients and the wall distance");
  const ZoneView v = z;
  const BlockAssembly as = a;
  const BlockMatrix mm = m;
  forall("assemble_block_jacobian", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    // `as` first captured here: CUDA's extended lambdas may not first capture in if constexpr
    const FluxSettings& flux = as.flux;
    real_t Wc[N];
    for (int k = 0; k < N; ++k)
      Wc[k] = W[k * n + c];
    real_t M[NN];
    const real_t d = v.cellVolume[c] / (dtGlobal >= 0.0 ? dtGlobal : dt[c]);
    for (int k = 0; k < NN; ++k)
      M[k] = k % (N + 1) == 0 ? d : 0.0;
    real_t muT = 0.0; // the cell's eddy viscosity, which its faces' viscous Jacobians share
    if constexpr (Mod::kViscous) muT = Viscous::eddy_viscosity(as.transport, Wc);
    for (idx_t q = v.cellFaceOffsets[c]; q < v.cellFaceOffsets[c + 1]; ++q) {
      const idx_t f = v.cellFaces[q];
      if (f < v.nBoundaryFaces) { // the cell owns every boundary face: S points out of it
        const phys::BcParams& bc = as.patches.params_of(f);
        const real_t* S = v.faceArea + 3 * f;
        phys::add_boundary_flux_jacobian<Mod>(Wc, S, bc, flux, 0.0, M);
        if constexpr (Mod::kViscous) {
          const phys::Transport& tr = as.transport;
          const real_t* df = v.faceOwnerDelta + 3 * f;
          if constexpr (phys::kHasScalars<Mod>) { // the mean flow's block, then the scalars'
            real_t m5[phys::kBlockSize] = {};
            Viscous::add_boundary_jacobian(Wc, S, df, bc, tr, m5);
            add_mean_flow_block<N>(m5, M);
            Viscous::template add_scalar_boundary_jacobian<N>(Wc, S, df, bc, tr, M);
          } else {
            Viscous::add_boundary_jacobian(Wc, S, df, bc, tr, M);
          }
        }
        continue;
      }
      const bool own = v.cellFaceSign[q] > 0;
      const idx_t j = own ? v.faceNeighbour[f] : v.faceOwner[f];
      const real_t sg = own ? 1.0 : -1.0;
      const real_t S[3] = {sg * v.faceArea[3 * f], sg * v.faceArea[3 * f + 1],
                           sg * v.faceArea[3 * f + 2]};
      real_t Wj[N];
      for (int k = 0; k < N; ++k)
        Wj[k] = W[k * n + j];
      real_t* O = mm.off + NN * static_cast<std::size_t>(q);
      if constexpr (phys::kHasScalars<Mod>) {
        // the mean flow's blocks of the face (convective and viscous), then the scalars' rows
        real_t dL[phys::kBlockSize], dR[phys::kBlockSize];
        Mod::Convective::jacobians(flux, Wc, Wj, S, dL, dR);
        if constexpr (Mod::kViscous)
          Viscous::add_interior_jacobians(Wc, Wj, v.faceArea + 3 * f, face_offset(v, f, own),
                                          face_offset(v, f, !own), as.transport, muT, dL, dR);
        for (int k = 0; k < NN; ++k)
          O[k] = 0.0;
        add_mean_flow_block<N>(dL, M);
        add_mean_flow_block<N>(dR, O);
        Mod::Convective::template add_scalar_jacobians<N>(Wc, Wj, S, M, O);
        if constexpr (Mod::kViscous)
          Viscous::template add_scalar_jacobians<N>(Wc, Wj, S, face_offset(v, f, own),
                                                    face_offset(v, f, !own), as.transport, M, O);
      } else {
        real_t dL[NN];
        Mod::Convective::jacobians(flux, Wc, Wj, S, dL, O);
        for (int k = 0; k < NN; ++k)
          M[k] += dL[k];
        if constexpr (Mod::kViscous)
          Viscous::add_interior_jacobians(Wc, Wj, v.faceArea + 3 * f, face_offset(v, f, own),
                                          face_offset(v, f, !own), as.transport, muT, M, O);
      }
    }
    if constexpr (Mod::kSource) {
      real_t g[3 * N];
      for (int k = 0; k < 3 * N; ++k)
        g[k] = as.grad[k * n + c];
      Mod::Source::template add_jacobian<N>(Wc, g, v.cellWallDistance[c], v.cellVolume[c],
                                            as.transport, M);
    }
    if (mm.D)
      for (int k = 0; k < NN; ++k)
        mm.D[NN * static_cast<std::size_t>(c) + k] = M[k];
    if (!mm.Dinv) return; // the ILU factorises D itself
    real_t* out = mm.Dinv + NN * static_cast<std::size_t>(c);
    if (!phys::invert<N>(M, out))
      for (int k = 0; k < NN; ++k)
        out[k] = k % (N + 1) == 0 ? 1.0 / d : 0.0;
  });
}

template <int N>
void block_multiply(const ZoneView& z, const BlockMatrix& m, const real_t* x, real_t* y) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall("block_multiply", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t s[N] = {};
    phys::add_block_times<N>(mm.D + (N * N) * static_cast<std::size_t>(c), x, n, c, s);
    add_off_diagonal<N>(v, mm, x, c, s);
    for (int k = 0; k < N; ++k)
      y[k * n + c] = s[k];
  });
}

template <int N>
void block_gauss_seidel(const ZoneView& z, const BlockMatrix& m, const real_t* b, real_t* x,
                        const idx_t* cells, const GroupSchedule& s, bool forward) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall_groups(
      forward ? "block_gs_forward" : "block_gs_backward", s,
      [=] FV_HOST_DEVICE(idx_t i) {
        const idx_t c = cells[i];
        real_t r[N];
        off_diagonal_rhs<N>(v, mm, b, x, c, r);
        diagonal_solve<N>(mm, v.nTotalCells, c, r, x);
      },
      !forward, GroupLaunch::PerGroup);
}

template <int N>
void block_jacobi(const ZoneView& z, const BlockMatrix& m, const real_t* b, const real_t* x,
                  real_t* xNew) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall("block_jacobi", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t r[N];
    off_diagonal_rhs<N>(v, mm, b, x, c, r);
    diagonal_solve<N>(mm, v.nTotalCells, c, r, xNew);
  });
}

template <int N>
void block_diagonal_solve(const ZoneView& z, const BlockMatrix& m, const real_t* b, real_t* x) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall("block_diagonal_solve", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t r[N];
    for (int k = 0; k < N; ++k)
      r[k] = b[k * n + c];
    diagonal_solve<N>(mm, n, c, r, x);
  });
}

namespace {

/// ILU factorisation of the cell c at sweep position i: D~^-1 from D_c and its lower
/// neighbours' D~^-1.
template <int N>
FV_HOST_DEVICE inline void ilu_factor_cell(const BlockMatrix& m, const IluOrder& o, idx_t n,
                                           idx_t i, idx_t c) {
  real_t M[(N * N)], Dj[(N * N)], Ojc[(N * N)], T[(N * N)], P[(N * N)], Ocj[(N * N)];
  const real_t* D = m.D + (N * N) * static_cast<std::size_t>(c);
  for (int k = 0; k < (N * N); ++k)
    M[k] = D[k];
  for (idx_t e = o.lowerOffsets[i]; e < o.lowerOffsets[i + 1]; ++e) {
    const idx_t pj = o.lower[3 * e + 1], u = o.lower[3 * e + 2];
    for (int k = 0; k < (N * N); ++k) {
      Dj[k] = o.dinv[k * n + pj];
      Ojc[k] = o.upperBlk[k * o.nUpper + u];
      Ocj[k] = o.lowerBlk[k * o.nLower + e];
    }
    // M -= O_cj D~_j^-1 O_jc
    phys::multiply<N>(Dj, Ojc, T);
    phys::multiply<N>(Ocj, T, P);
    for (int k = 0; k < (N * N); ++k)
      M[k] -= P[k];
  }
  real_t inv[(N * N)];
  if (!phys::invert<N>(M, inv)) // not expected: fall back to the unmodified diagonal
    (void)phys::invert<N>(D, inv);
  for (int k = 0; k < (N * N); ++k)
    o.dinv[k * n + i] = inv[k];
}

/// Neighbour entries of one cell handled together by ilu_sweep_cell: their indices, then their
/// x, then their blocks are loaded as independent loads, so a chunk costs one dependent
/// memory latency (index -> x) instead of one per entry. A tetrahedron has at most 4 lower
/// (upper) neighbours: one chunk.
constexpr int kSweepChunk = 4;

/// One step of the ILU solve for the cell c at sweep position i (forward: x_c = D~^-1 (b_c -
/// sum_lower O x); backward: x_c -= D~^-1 sum_upper O x). The sweeps are latency-bound (a level
/// of a block holds a few tens of cells), so every load that does not depend on another is
/// issued up front: the right-hand side, D~^-1 and, chunk by chunk, the neighbour indices
/// before their x. The sums run in the same order as entry by entry: results are bitwise
/// those of the plain loop on every backend.
template <int N>
FV_HOST_DEVICE inline void ilu_sweep_cell(const ZoneView& v, const IluOrder& o, const real_t* b,
                                          real_t* x, bool forward, idx_t i, idx_t c) {
  const idx_t n = v.nTotalCells, nc = v.nCells;
  const idx_t* off = forward ? o.lowerOffsets : o.upperOffsets;
  const real_t* blk = forward ? o.lowerBlk : o.upperBlk;
  const idx_t ne = forward ? o.nLower : o.nUpper;
  const idx_t e0 = off[i], e1 = off[i + 1];
  real_t own[N], dinv[(N * N)];
  for (int k = 0; k < N; ++k)
    own[k] = forward ? b[k * n + c] : x[k * n + c];
  for (int k = 0; k < (N * N); ++k)
    dinv[k] = o.dinv[k * nc + i];
  real_t sum[N] = {};
  for (idx_t e = e0; e < e1; e += kSweepChunk) {
    idx_t j[kSweepChunk];
    for (int q = 0; q < kSweepChunk; ++q)
      j[q] = e + q < e1 ? (forward ? o.lower[3 * (e + q)] : o.upper[e + q]) : kNone;
    real_t xj[kSweepChunk][N];
    for (int q = 0; q < kSweepChunk; ++q)
      for (int k = 0; k < N; ++k)
        xj[q][k] = j[q] != kNone ? x[k * n + j[q]] : 0.0;
    for (int q = 0; q < kSweepChunk; ++q) {
      if (j[q] == kNone) break;
      for (int r = 0; r < N; ++r)
        for (int col = 0; col < N; ++col)
          sum[r] += blk[(N * r + col) * ne + e + q] * xj[q][col];
    }
  }
  real_t r[N];
  for (int k = 0; k < N; ++k)
    r[k] = forward ? own[k] - sum[k] : sum[k];
  for (int row = 0; row < N; ++row) {
    real_t d = 0.0;
    for (int col = 0; col < N; ++col)
      d += dinv[N * row + col] * r[col];
    x[row * n + c] = forward ? d : own[row] - d;
  }
}

/// Threads per CUDA block of the block-level ILU launches: a level of a block holds tens of
/// cells, and small CUDA blocks let every mesh block be resident at once (with 256 threads the
/// register use allowed one per SM, so the mesh blocks ran in waves; measured slower:
/// bench/results/newton_h200_20261124.md).
constexpr int kLevelThreads = 64;

} // namespace

template <int N>
void ilu_gather_blocks(const BlockMatrix& m, const IluOrder& o) {
  const BlockMatrix mm = m;
  const IluOrder oo = o;
  forall("ilu_gather_blocks", o.nLower + o.nUpper, [=] FV_HOST_DEVICE(idx_t e) {
    const bool low = e < oo.nLower;
    const idx_t k0 = low ? e : e - oo.nLower;
    const idx_t q = low ? oo.lowerSlot[k0] : oo.upperSlot[k0];
    real_t* dst = low ? oo.lowerBlk : oo.upperBlk;
    const idx_t ne = low ? oo.nLower : oo.nUpper;
    for (int k = 0; k < (N * N); ++k)
      dst[k * ne + k0] = mm.off[(N * N) * static_cast<std::size_t>(q) + k];
  });
}

template <int N>
void block_ilu_factor(const ZoneView& z, const BlockMatrix& m, const IluOrder& o,
                      const idx_t* cells, const GroupSchedule& s) {
  ilu_gather_blocks<N>(m, o);
  const BlockMatrix mm = m;
  const IluOrder oo = o;
  const idx_t n = z.nCells;
  forall_groups(
      "block_ilu_factor", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_factor_cell<N>(mm, oo, n, i, cells[i]); }, false,
      GroupLaunch::PerGroup);
}

template <int N>
void block_ilu_sweep(const ZoneView& z, const IluOrder& o, const real_t* b, real_t* x,
                     const idx_t* cells, const GroupSchedule& s, bool forward) {
  const ZoneView v = z;
  const IluOrder oo = o;
  forall_groups(
      forward ? "block_ilu_forward" : "block_ilu_backward", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_sweep_cell<N>(v, oo, b, x, forward, i, cells[i]); },
      !forward, GroupLaunch::PerGroup);
}

template <int N>
void block_ilu_factor(const ZoneView& z, const BlockMatrix& m, const IluOrder& o,
                      const idx_t* cells, const LevelSchedule& s) {
  ilu_gather_blocks<N>(m, o);
  const BlockMatrix mm = m;
  const IluOrder oo = o;
  const idx_t n = z.nCells;
  forall_block_levels<kLevelThreads>(
      "block_ilu_factor", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_factor_cell<N>(mm, oo, n, i, cells[i]); }, false);
}

template <int N>
void block_ilu_sweep(const ZoneView& z, const IluOrder& o, const real_t* b, real_t* x,
                     const idx_t* cells, const LevelSchedule& s, bool forward) {
  const ZoneView v = z;
  const IluOrder oo = o;
  forall_block_levels<kLevelThreads>(
      forward ? "block_ilu_forward" : "block_ilu_backward", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_sweep_cell<N>(v, oo, b, x, forward, i, cells[i]); },
      !forward);
}

#define FV_INSTANTIATE(M)                                                                          \
  template void assemble_block_jacobian<M>(const ZoneView&, const BlockAssembly&, const real_t*,   \
                                           const real_t*, real_t, const BlockMatrix&);
FV_FOR_EACH_STATE_MODEL(FV_INSTANTIATE)
#undef FV_INSTANTIATE
#define FV_INSTANTIATE(N)                                                                          \
  template void block_multiply<N>(const ZoneView&, const BlockMatrix&, const real_t*, real_t*);    \
  template void block_gauss_seidel<N>(const ZoneView&, const BlockMatrix&, const real_t*, real_t*, \
                                      const idx_t*, const GroupSchedule&, bool);                   \
  template void block_jacobi<N>(const ZoneView&, const BlockMatrix&, const real_t*, const real_t*, \
                                real_t*);                                                          \
  template void block_diagonal_solve<N>(const ZoneView&, const BlockMatrix&, const real_t*,        \
                                        real_t*);                                                  \
  template void ilu_gather_blocks<N>(const BlockMatrix&, const IluOrder&);                         \
  template void block_ilu_factor<N>(const ZoneView&, const BlockMatrix&, const IluOrder&,          \
                                    const idx_t*, const GroupSchedule&);                           \
  template void block_ilu_sweep<N>(const ZoneView&, const IluOrder&, const real_t*, real_t*,       \
                                   const idx_t*, const GroupSchedule&, bool);                      \
  template void block_ilu_factor<N>(const ZoneView&, const BlockMatrix&, const IluOrder&,          \
                                    const idx_t*, const LevelSchedule&);                           \
  template void block_ilu_sweep<N>(const ZoneView&, const IluOrder&, const real_t*, real_t*,       \
                                   const idx_t*, const LevelSchedule&, bool);
FV_FOR_EACH_FIELD_WIDTH(FV_INSTANTIATE)
#undef FV_INSTANTIATE

} // namespace fv::kernels
