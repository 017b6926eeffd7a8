// Assembly of the first-order block Jacobian and the sweeps of the block preconditioner
// (block_jacobian.hpp).
#include "runtime/kernels/block_jacobian.hpp"
#include "runtime/physics/euler/euler_state.hpp"

#include "runtime/backend/forall_levels.hpp"
#include "runtime/kernels/face_flux.hpp"
#include "runtime/physics/euler/block5.hpp"
#include "runtime/physics/euler/flux_jacobian.hpp"
#include "runtime/physics/navier_stokes/viscous_jacobian.hpp"

namespace fv::kernels {
using phys::kBlockSize;
using phys::kNumEq;
namespace {

/// s += sum over the interior faces q of cell c of O_q x_j (j the neighbour across q).
FV_HOST_DEVICE FV_FORCEINLINE void add_off_diagonal(const ZoneView& v, const BlockMatrix& m,
                                                    const real_t* x, idx_t c, real_t* s) {
  for (idx_t q = v.cellFaceOffsets[c]; q < v.cellFaceOffsets[c + 1]; ++q) {
    const idx_t f = v.cellFaces[q];
    if (f < v.nBoundaryFaces) continue;
    const idx_t j = v.cellFaceSign[q] > 0 ? v.faceNeighbour[f] : v.faceOwner[f];
    phys::add_block_times(m.off + kBlockSize * static_cast<std::size_t>(q), x, v.nTotalCells, j, s);
  }
}

/// r = b_c - sum over interior faces of O_q x_j.
FV_HOST_DEVICE FV_FORCEINLINE void off_diagonal_rhs(const ZoneView& v, const BlockMatrix& m,
                                                    const real_t* b, const real_t* x, idx_t c,
                                                    real_t* r) {
  real_t s[kNumEq] = {};
  add_off_diagonal(v, m, x, c, s);
  for (int k = 0; k < kNumEq; ++k)
    r[k] = b[k * v.nTotalCells + c] - s[k];
}

/// Thin-layer viscous Jacobian of boundary face f of a cell with state Wc (Navier-Stokes): a
/// no-slip wall's into the diagonal block M (other boundary types: none).
FV_HOST_DEVICE inline void add_wall_viscous_jacobian(const ZoneView& v, const BlockAssembly& as,
                                                     idx_t f, const real_t* Wc, real_t* M) {
  const phys::BcParams& b = as.patches[as.facePatch[f]];
  if (b.type != phys::BcType::NoSlipWall) return;
  const phys::Transport& t = as.transport;
  const real_t* S = v.faceArea + 3 * f;
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
  const real_t* d = v.faceOwnerDelta + 3 * f;
  const real_t dn = std::fabs(d[0] * nrm[0] + d[1] * nrm[1] + d[2] * nrm[2]);
  const bool isothermal = b.wallTemperature > 0.0;
  const real_t mu =
      phys::viscosity(t, isothermal ? b.wallTemperature : phys::temperature(Wc, t.gasConstant));
  const real_t k = isothermal ? phys::conductivity(t, mu) : 0.0;
  phys::add_thin_layer_jacobian(Wc, nrm, mu * area / dn, k * area / dn, t.gamma, t.gasConstant, 1.0,
                                M);
}

/// Thin-layer viscous Jacobians of the interior face q of a cell with state Wc and neighbour
/// state Wj (Navier-Stokes): the cell's part into M, the neighbour's into O.
FV_HOST_DEVICE inline void add_interior_viscous_jacobians(const ZoneView& v,
                                                          const BlockAssembly& as, idx_t q,
                                                          const real_t* Wc, const real_t* Wj,
                                                          real_t* M, real_t* O) {
  const phys::Transport& t = as.transport;
  const idx_t f = v.cellFaces[q];
  const real_t* S = v.faceArea + 3 * f;
  const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
  const bool own = v.cellFaceSign[q] > 0;
  const real_t* dc = (own ? v.faceOwnerDelta : v.faceNeighbourDelta) + 3 * f;
  const real_t* dj = (own ? v.faceNeighbourDelta : v.faceOwnerDelta) + 3 * f;
  const real_t dn =
      std::fabs((dc[0] - dj[0]) * nrm[0] + (dc[1] - dj[1]) * nrm[1] + (dc[2] - dj[2]) * nrm[2]);
  const real_t T =
      0.5 * (phys::temperature(Wc, t.gasConstant) + phys::temperature(Wj, t.gasConstant));
  const real_t mu = phys::viscosity(t, T);
  const real_t a = mu * area / dn, b = phys::conductivity(t, mu) * area / dn;
  phys::add_thin_layer_jacobian(Wc, nrm, a, b, t.gamma, t.gasConstant, 1.0, M);
  phys::add_thin_layer_jacobian(Wj, nrm, a, b, t.gamma, t.gasConstant, -1.0, O);
}

/// x_c = Dinv_c r.
FV_HOST_DEVICE FV_FORCEINLINE void diagonal_solve(const BlockMatrix& m, idx_t n, idx_t c,
                                                  const real_t* r, real_t* x) {
  const real_t* M = m.Dinv + kBlockSize * static_cast<std::size_t>(c);
  for (int k = 0; k < kNumEq; ++k)
    x[k * n + c] = M[kNumEq * k] * r[0] + M[kNumEq * k + 1] * r[1] + M[kNumEq * k + 2] * r[2] +
                   M[kNumEq * k + 3] * r[3] + M[kNumEq * k + 4] * r[4];
}

} // namespace

void assemble_block_jacobian(const ZoneView& z, const BlockAssembly& a, const real_t* W,
                             const real_t* dt, real_t dtGlobal, const BlockMatrix& m) {
  const ZoneView v = z;
  const BlockAssembly as = a;
  const BlockMatrix mm = m;
  forall("assemble_block_jacobian", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    const real_t gamma = as.flux.gamma;
    const bool roe = as.flux.flux == Flux::Roe;
    real_t Wc[kNumEq];
    for (int k = 0; k < kNumEq; ++k)
      Wc[k] = W[k * n + c];
    real_t M[kBlockSize];
    const real_t d = v.cellVolume[c] / (dtGlobal >= 0.0 ? dtGlobal : dt[c]);
    for (int k = 0; k < kBlockSize; ++k)
      M[k] = k % 6 == 0 ? d : 0.0;
    for (idx_t q = v.cellFaceOffsets[c]; q < v.cellFaceOffsets[c + 1]; ++q) {
      const idx_t f = v.cellFaces[q];
      if (f < v.nBoundaryFaces) { // the cell owns every boundary face: S points out of it
        detail::add_boundary_flux_jacobian(Wc, v.faceArea + 3 * f, as.patches[as.facePatch[f]],
                                           as.flux, 0.0, M);
        if (as.viscous) add_wall_viscous_jacobian(v, as, f, Wc, M);
        continue;
      }
      const bool own = v.cellFaceSign[q] > 0;
      const idx_t j = own ? v.faceNeighbour[f] : v.faceOwner[f];
      const real_t sg = own ? 1.0 : -1.0;
      const real_t S[3] = {sg * v.faceArea[3 * f], sg * v.faceArea[3 * f + 1],
                           sg * v.faceArea[3 * f + 2]};
      real_t Wj[kNumEq], dL[kBlockSize];
      for (int k = 0; k < kNumEq; ++k)
        Wj[k] = W[k * n + j];
      real_t* O = mm.off + kBlockSize * static_cast<std::size_t>(q);
      phys::face_flux_jacobians(Wc, Wj, S, gamma, roe, as.flux.entropyFix, dL, O);
      for (int k = 0; k < kBlockSize; ++k)
        M[k] += dL[k];
      if (as.viscous) add_interior_viscous_jacobians(v, as, q, Wc, Wj, M, O);
    }
    if (mm.D)
      for (int k = 0; k < kBlockSize; ++k)
        mm.D[kBlockSize * static_cast<std::size_t>(c) + k] = M[k];
    if (!mm.Dinv) return; // the ILU factorises D itself
    real_t* out = mm.Dinv + kBlockSize * static_cast<std::size_t>(c);
    if (!phys::invert5(M, out))
      for (int k = 0; k < kBlockSize; ++k)
        out[k] = k % 6 == 0 ? 1.0 / d : 0.0;
  });
}

void block_multiply(const ZoneView& z, const BlockMatrix& m, const real_t* x, real_t* y) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall("block_multiply", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t s[kNumEq] = {};
    phys::add_block_times(mm.D + kBlockSize * static_cast<std::size_t>(c), x, n, c, s);
    add_off_diagonal(v, mm, x, c, s);
    for (int k = 0; k < kNumEq; ++k)
      y[k * n + c] = s[k];
  });
}

void block_gauss_seidel(const ZoneView& z, const BlockMatrix& m, const real_t* b, real_t* x,
                        const idx_t* cells, const GroupSchedule& s, bool forward) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall_groups(
      forward ? "block_gs_forward" : "block_gs_backward", s,
      [=] FV_HOST_DEVICE(idx_t i) {
        const idx_t c = cells[i];
        real_t r[kNumEq];
        off_diagonal_rhs(v, mm, b, x, c, r);
        diagonal_solve(mm, v.nTotalCells, c, r, x);
      },
      !forward, GroupLaunch::PerGroup);
}

void block_jacobi(const ZoneView& z, const BlockMatrix& m, const real_t* b, const real_t* x,
                  real_t* xNew) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall("block_jacobi", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t r[kNumEq];
    off_diagonal_rhs(v, mm, b, x, c, r);
    diagonal_solve(mm, v.nTotalCells, c, r, xNew);
  });
}

void block_diagonal_solve(const ZoneView& z, const BlockMatrix& m, const real_t* b, real_t* x) {
  const ZoneView v = z;
  const BlockMatrix mm = m;
  forall("block_diagonal_solve", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    const idx_t n = v.nTotalCells;
    real_t r[kNumEq];
    for (int k = 0; k < kNumEq; ++k)
      r[k] = b[k * n + c];
    diagonal_solve(mm, n, c, r, x);
  });
}

namespace {

/// ILU factorisation of the cell c at sweep position i: D~^-1 from D_c and its lower
/// neighbours' D~^-1.
FV_HOST_DEVICE inline void ilu_factor_cell(const BlockMatrix& m, const IluOrder& o, idx_t n,
                                           idx_t i, idx_t c) {
  real_t M[kBlockSize], Dj[kBlockSize], Ojc[kBlockSize], T[kBlockSize], P[kBlockSize],
      Ocj[kBlockSize];
  const real_t* D = m.D + kBlockSize * static_cast<std::size_t>(c);
  for (int k = 0; k < kBlockSize; ++k)
    M[k] = D[k];
  for (idx_t e = o.lowerOffsets[i]; e < o.lowerOffsets[i + 1]; ++e) {
    const idx_t pj = o.lower[3 * e + 1], u = o.lower[3 * e + 2];
    for (int k = 0; k < kBlockSize; ++k) {
      Dj[k] = o.dinv[k * n + pj];
      Ojc[k] = o.upperBlk[k * o.nUpper + u];
      Ocj[k] = o.lowerBlk[k * o.nLower + e];
    }
    // M -= O_cj D~_j^-1 O_jc
    phys::multiply5(Dj, Ojc, T);
    phys::multiply5(Ocj, T, P);
    for (int k = 0; k < kBlockSize; ++k)
      M[k] -= P[k];
  }
  real_t inv[kBlockSize];
  if (!phys::invert5(M, inv)) // not expected: fall back to the unmodified diagonal
    (void)phys::invert5(D, inv);
  for (int k = 0; k < kBlockSize; ++k)
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
FV_HOST_DEVICE inline void ilu_sweep_cell(const ZoneView& v, const IluOrder& o, const real_t* b,
                                          real_t* x, bool forward, idx_t i, idx_t c) {
  const idx_t n = v.nTotalCells, nc = v.nCells;
  const idx_t* off = forward ? o.lowerOffsets : o.upperOffsets;
  const real_t* blk = forward ? o.lowerBlk : o.upperBlk;
  const idx_t ne = forward ? o.nLower : o.nUpper;
  const idx_t e0 = off[i], e1 = off[i + 1];
  real_t own[kNumEq], dinv[kBlockSize];
  for (int k = 0; k < kNumEq; ++k)
    own[k] = forward ? b[k * n + c] : x[k * n + c];
  for (int k = 0; k < kBlockSize; ++k)
    dinv[k] = o.dinv[k * nc + i];
  real_t sum[kNumEq] = {};
  for (idx_t e = e0; e < e1; e += kSweepChunk) {
    idx_t j[kSweepChunk];
    for (int q = 0; q < kSweepChunk; ++q)
      j[q] = e + q < e1 ? (forward ? o.lower[3 * (e + q)] : o.upper[e + q]) : kNone;
    real_t xj[kSweepChunk][kNumEq];
    for (int q = 0; q < kSweepChunk; ++q)
      for (int k = 0; k < kNumEq; ++k)
        xj[q][k] = j[q] != kNone ? x[k * n + j[q]] : 0.0;
    for (int q = 0; q < kSweepChunk; ++q) {
      if (j[q] == kNone) break;
      for (int r = 0; r < kNumEq; ++r)
        for (int col = 0; col < kNumEq; ++col)
          sum[r] += blk[(kNumEq * r + col) * ne + e + q] * xj[q][col];
    }
  }
  real_t r[kNumEq];
  for (int k = 0; k < kNumEq; ++k)
    r[k] = forward ? own[k] - sum[k] : sum[k];
  for (int row = 0; row < kNumEq; ++row) {
    real_t d = 0.0;
    for (int col = 0; col < kNumEq; ++col)
      d += dinv[kNumEq * row + col] * r[col];
    x[row * n + c] = forward ? d : own[row] - d;
  }
}

/// Threads per CUDA block of the block-level ILU launches: a level of a block holds tens of
/// cells, and small CUDA blocks let every mesh block be resident at once (with 256 threads the
/// register use allowed one per SM, so the mesh blocks ran in waves: 3x slower).
constexpr int kLevelThreads = 64;

} // namespace

void ilu_gather_blocks(const BlockMatrix& m, const IluOrder& o) {
  const BlockMatrix mm = m;
  const IluOrder oo = o;
  forall("ilu_gather_blocks", o.nLower + o.nUpper, [=] FV_HOST_DEVICE(idx_t e) {
    const bool low = e < oo.nLower;
    const idx_t k0 = low ? e : e - oo.nLower;
    const idx_t q = low ? oo.lowerSlot[k0] : oo.upperSlot[k0];
    real_t* dst = low ? oo.lowerBlk : oo.upperBlk;
    const idx_t ne = low ? oo.nLower : oo.nUpper;
    for (int k = 0; k < kBlockSize; ++k)
      dst[k * ne + k0] = mm.off[kBlockSize * static_cast<std::size_t>(q) + k];
  });
}

void block_ilu_factor(const ZoneView& z, const BlockMatrix& m, const IluOrder& o,
                      const idx_t* cells, const GroupSchedule& s) {
  ilu_gather_blocks(m, o);
  const BlockMatrix mm = m;
  const IluOrder oo = o;
  const idx_t n = z.nCells;
  forall_groups(
      "block_ilu_factor", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_factor_cell(mm, oo, n, i, cells[i]); }, false,
      GroupLaunch::PerGroup);
}

void block_ilu_sweep(const ZoneView& z, const IluOrder& o, const real_t* b, real_t* x,
                     const idx_t* cells, const GroupSchedule& s, bool forward) {
  const ZoneView v = z;
  const IluOrder oo = o;
  forall_groups(
      forward ? "block_ilu_forward" : "block_ilu_backward", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_sweep_cell(v, oo, b, x, forward, i, cells[i]); }, !forward,
      GroupLaunch::PerGroup);
}

void block_ilu_factor(const ZoneView& z, const BlockMatrix& m, const IluOrder& o,
                      const idx_t* cells, const LevelSchedule& s) {
  ilu_gather_blocks(m, o);
  const BlockMatrix mm = m;
  const IluOrder oo = o;
  const idx_t n = z.nCells;
  forall_block_levels<kLevelThreads>(
      "block_ilu_factor", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_factor_cell(mm, oo, n, i, cells[i]); }, false);
}

void block_ilu_sweep(const ZoneView& z, const IluOrder& o, const real_t* b, real_t* x,
                     const idx_t* cells, const LevelSchedule& s, bool forward) {
  const ZoneView v = z;
  const IluOrder oo = o;
  forall_block_levels<kLevelThreads>(
      forward ? "block_ilu_forward" : "block_ilu_backward", s,
      [=] FV_HOST_DEVICE(idx_t i) { ilu_sweep_cell(v, oo, b, x, forward, i, cells[i]); }, !forward);
}

} // namespace fv::kernels
