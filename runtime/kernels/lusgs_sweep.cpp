// Matrix-free LU-SGS kernels: face spectral radii, the scalar diagonal, the group-parallel and
// the sequential sweeps (see lusgs_kernels.hpp for the algebra).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/lusgs_kernels.hpp"
#include "runtime/physics/euler/flux_jacobian.hpp"
#include "runtime/physics/euler/lusgs_k.hpp"
#include "runtime/physics/model.hpp"
#include "runtime/physics/navier_stokes/viscous_flux.hpp"

namespace fv::kernels {
namespace {
using phys::kBlockSize;
using phys::kNumEq;

/// What a sweep reads of one neighbour entry (the face's area vector out of the cell and its
/// spectral radius, the neighbour's primitives and update), loaded together.
struct SweepEntry {
  real_t S[3], lambda, W[kNumEq], dU[kNumEq];
  bool zero; ///< dU == 0: exactly no contribution (e.g. halo cells without an exchange)
};

FV_HOST_DEVICE FV_FORCEINLINE void load_entry(const ZoneView& v, const LusgsFields& f,
                                              const idx_t* cells, const idx_t* faces, idx_t e,
                                              SweepEntry& x) {
  const idx_t n = v.nTotalCells;
  const idx_t j = cells[e];
  const idx_t encoded = faces[e];
  const bool owner = encoded >= 0;
  const idx_t face = owner ? encoded : ~encoded;
  const real_t sg = owner ? 1.0 : -1.0;
  for (int d = 0; d < 3; ++d)
    x.S[d] = sg * v.faceArea[3 * face + d];
  x.lambda = f.roe ? 0.0 : f.lambda[face];
  x.zero = true;
  for (int k = 0; k < kNumEq; ++k) {
    x.W[k] = f.W[k * n + j];
    x.dU[k] = f.dU[k * n + j];
    x.zero = x.zero && x.dU[k] == 0.0;
  }
}

/// sum += 1/2 (dF(dU_j) - omega lambda dU_j) (scalar) or 1/2 (dF - omega |A~| dU_j) (Roe).
FV_HOST_DEVICE FV_FORCEINLINE void add_entry(const LusgsFields& f, const real_t* Wc,
                                             const SweepEntry& x, real_t* sum) {
  if (x.zero) return;
  real_t dF[kNumEq];
  phys::flux_difference(x.W, x.dU, x.S, f.gamma, dF);
  if (f.roe) {
    real_t diss[kNumEq];
    phys::roe_dissipation(Wc, x.W, x.S, f.gamma, f.entropyFix, x.dU, diss);
    for (int k = 0; k < kNumEq; ++k)
      sum[k] += 0.5 * (dF[k] - f.omega * diss[k]);
  } else {
    const real_t ol = f.omega * x.lambda;
    for (int k = 0; k < kNumEq; ++k)
      sum[k] += 0.5 * (dF[k] - ol * x.dU[k]);
  }
}

/// One Gauss-Seidel update of owned cell c; forward: L_c from lower neighbours, else U_c from
/// upper ones; then dU_c = -(R_c + L_c + U_c) / D_c.
/// On the GPU a group's time is the latency of its slowest cell, i.e. the number of memory
/// round trips one update makes in sequence, so: every value that does not depend on the
/// neighbour loop (R_c, the other sweep's sum, the diagonal and its inverse block) is loaded
/// before the loop and before any store (the compiler may not move a load above a store to a
/// possibly aliasing pointer: loading the 5x5 block row by row between the stores of dU cost
/// five round trips in sequence), and the neighbours' values are loaded two entries at a
/// time. Same arithmetic in the same order as a straightforward loop (bitwise the same dU).
FV_HOST_DEVICE FV_FORCEINLINE void sweep_cell(const ZoneView& v, const LusgsFields& f, bool forward,
                                              idx_t c) {
  const idx_t n = v.nTotalCells;
  const idx_t nc = v.nCells;
  const idx_t* offsets = forward ? f.lowerOffsets : f.upperOffsets;
  const idx_t* cells = forward ? f.lowerCells : f.upperCells;
  const idx_t* faces = forward ? f.lowerFaces : f.upperFaces;
  const idx_t begin = offsets[c], end = offsets[c + 1];
  real_t* mine = forward ? f.lower : f.upper;
  const real_t* other = forward ? f.upper : f.lower;
  real_t Rc[kNumEq], Oc[kNumEq]; // the residual and the other sweep's sum of the cell
  for (int k = 0; k < kNumEq; ++k) {
    Rc[k] = f.R[k * n + c];
    Oc[k] = other[k * nc + c];
  }
  const idx_t b = f.blockOf ? f.blockOf[c] : -1;
  real_t M[kBlockSize]; // the inverse block diagonal (block cells), else M[0] = D_c
  if (b >= 0)
    for (int k = 0; k < kBlockSize; ++k)
      M[k] = f.Dinv[kBlockSize * static_cast<std::size_t>(b) + k];
  else
    M[0] = f.D[c];
  real_t sum[kNumEq] = {};
  real_t Wc[kNumEq] = {}; // the cell's own state, for the Roe matrix of each face
  if (f.roe)
    for (int k = 0; k < kNumEq; ++k)
      Wc[k] = f.W[k * n + c];
  // neighbours two at a time: both entries' values are loaded before either is summed, so
  // their memory latencies overlap (the sums in entry order, as one at a time)
  for (idx_t e = begin; e < end; e += 2) {
    SweepEntry x0{}, x1{};
    load_entry(v, f, cells, faces, e, x0);
    const bool two = e + 1 < end;
    if (two) load_entry(v, f, cells, faces, e + 1, x1);
    add_entry(f, Wc, x0, sum);
    if (two) add_entry(f, Wc, x1, sum);
  }
  real_t rhs[kNumEq];
  for (int k = 0; k < kNumEq; ++k) {
    mine[k * nc + c] = sum[k];
    rhs[k] = -(Rc[k] + sum[k] + Oc[k]);
  }
  if (b >= 0) {
    for (int r = 0; r < kNumEq; ++r) {
      const real_t* row = M + kNumEq * r;
      f.dU[r * n + c] =
          row[0] * rhs[0] + row[1] * rhs[1] + row[2] * rhs[2] + row[3] * rhs[3] + row[4] * rhs[4];
    }
  } else {
    const real_t invD = 1.0 / M[0];
    for (int k = 0; k < kNumEq; ++k)
      f.dU[k * n + c] = rhs[k] * invD;
  }
}

} // namespace

void lusgs_face_radius(const ZoneView& z, real_t gamma, const real_t* W, bool scalarBoundary,
                       bool scalarInterior, real_t* lambda) {
  const ZoneView v = z;
  forall("lusgs_face_radius", z.nFaces, [=] FV_HOST_DEVICE(idx_t face) {
    const idx_t n = v.nTotalCells;
    const real_t* S = v.faceArea + 3 * face;
    real_t w[kNumEq];
    const idx_t o = v.faceOwner[face], nb = v.faceNeighbour[face];
    for (int k = 0; k < kNumEq; ++k)
      w[k] = W[k * n + o];
    real_t l = phys::spectral_radius(w, S, gamma);
    if (nb != kNone) {
      for (int k = 0; k < kNumEq; ++k)
        w[k] = W[k * n + nb];
      const real_t ln = phys::spectral_radius(w, S, gamma);
      l = ln > l ? ln : l;
      if (!scalarInterior) l = 0.0;
    } else if (!scalarBoundary) {
      l = 0.0;
    }
    lambda[face] = l;
  });
}

void lusgs_viscous_radius(const ZoneView& z, const phys::Transport& t, const real_t* W,
                          real_t* lambda) {
  const ZoneView v = z;
  const phys::Transport tr = t;
  forall("lusgs_viscous_radius", z.nFaces, [=] FV_HOST_DEVICE(idx_t face) {
    const idx_t n = v.nTotalCells;
    const real_t* S = v.faceArea + 3 * face;
    const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    const idx_t o = v.faceOwner[face], nb = v.faceNeighbour[face];
    const real_t* dO = v.faceOwnerDelta + 3 * face;
    real_t l[3] = {dO[0], dO[1], dO[2]};
    real_t rho = W[phys::kDensity * n + o], T = phys::temperature_of(W, n, o, tr.gasConstant);
    if (nb != kNone) {
      const real_t* dN = v.faceNeighbourDelta + 3 * face;
      for (int d = 0; d < 3; ++d)
        l[d] -= dN[d];
      const real_t rhoNb = W[phys::kDensity * n + nb];
      rho = rhoNb < rho ? rhoNb : rho;
      T = 0.5 * (T + phys::temperature_of(W, n, nb, tr.gasConstant));
    }
    const real_t dn = std::fabs(l[0] * S[0] + l[1] * S[1] + l[2] * S[2]) / area;
    lambda[face] += 2.0 * phys::viscous_face_radius(rho, phys::viscosity(tr, T), tr, area, dn);
  });
}

void lusgs_diagonal(const ZoneView& z, real_t omega, const real_t* dt, real_t dtGlobal,
                    const real_t* lambda, real_t* D) {
  const ZoneView v = z;
  forall("lusgs_diagonal", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    real_t s = 0.0;
    for (idx_t q = v.cellFaceOffsets[c]; q < v.cellFaceOffsets[c + 1]; ++q)
      s += lambda[v.cellFaces[q]];
    const real_t h = dtGlobal >= 0.0 ? dtGlobal : dt[c];
    D[c] = v.cellVolume[c] / h + 0.5 * omega * s;
  });
}

void lusgs_boundary_blocks(const ZoneView& z, const LusgsBoundary& b, const real_t* W,
                           const real_t* D, real_t* Dinv) {
  const ZoneView v = z;
  const LusgsBoundary bb = b;
  forall("lusgs_boundary_blocks", b.nBlocks, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t c = bb.blockCells[i];
    const idx_t n = v.nTotalCells;
    const real_t gamma = bb.flux.gamma;
    real_t M[kBlockSize];
    for (int k = 0; k < kBlockSize; ++k)
      M[k] = 0.0;
    for (int k = 0; k < kNumEq; ++k)
      M[(kNumEq + 1) * k] = D[c];
    real_t W0[kNumEq];
    for (int k = 0; k < kNumEq; ++k)
      W0[k] = W[k * n + c];
    for (idx_t q = v.cellFaceOffsets[c]; q < v.cellFaceOffsets[c + 1]; ++q) {
      const idx_t face = v.cellFaces[q];
      if (face >= v.nBoundaryFaces) {
        if (!bb.roe) continue;
        // omega/2 |A~_f| of an interior face, column by column
        const bool own = v.cellFaceSign[q] > 0;
        const idx_t j = own ? v.faceNeighbour[face] : v.faceOwner[face];
        real_t Wj[kNumEq];
        for (int k = 0; k < kNumEq; ++k)
          Wj[k] = W[k * n + j];
        const real_t* Sf = v.faceArea + 3 * face;
        const real_t area = std::sqrt(Sf[0] * Sf[0] + Sf[1] * Sf[1] + Sf[2] * Sf[2]);
        const phys::RoeAverage ra =
            phys::roe_average(W0, Wj, Sf[0] / area, Sf[1] / area, Sf[2] / area, gamma);
        real_t Dr[kBlockSize];
        phys::roe_matrix(ra, area, gamma, bb.flux.entropyFix, Dr);
        for (int k = 0; k < kBlockSize; ++k)
          M[k] += 0.5 * bb.omega * Dr[k];
        continue;
      }
      // the exact first-order Jacobian of the boundary flux less the half flux Jacobian
      phys::add_boundary_flux_jacobian<phys::EulerModel>(
          W0, v.faceArea + 3 * face, bb.patches.params_of(face), bb.flux, 0.5, M);
    }
    real_t* out = Dinv + kBlockSize * static_cast<std::size_t>(i);
    if (!phys::invert5(M, out)) {
      for (int k = 0; k < kBlockSize; ++k)
        out[k] = 0.0;
      for (int k = 0; k < kNumEq; ++k)
        out[(kNumEq + 1) * k] = 1.0 / D[c];
    }
  });
}

void lusgs_sweep_group(const ZoneView& z, const LusgsFields& f, bool forward, const idx_t* cells,
                       idx_t n) {
  const ZoneView v = z;
  const LusgsFields fl = f;
  if (forward)
    forall("lusgs_forward_group", n,
           [=] FV_HOST_DEVICE(idx_t i) { sweep_cell(v, fl, true, cells[i]); });
  else
    forall("lusgs_backward_group", n,
           [=] FV_HOST_DEVICE(idx_t i) { sweep_cell(v, fl, false, cells[i]); });
}

void lusgs_sweep_groups(const ZoneView& z, const LusgsFields& f, bool forward, const idx_t* cells,
                        const GroupSchedule& s, GroupLaunch mode) {
  const ZoneView v = z;
  const LusgsFields fl = f;
  if (forward)
    forall_groups(
        "lusgs_forward_sweep", s,
        [=] FV_HOST_DEVICE(idx_t i) { sweep_cell(v, fl, true, cells[i]); }, false, mode);
  else
    forall_groups(
        "lusgs_backward_sweep", s,
        [=] FV_HOST_DEVICE(idx_t i) { sweep_cell(v, fl, false, cells[i]); }, true, mode);
}

void lusgs_sweep_sequential(const ZoneView& z, const LusgsFields& f, bool forward) {
  const ZoneView v = z;
  const LusgsFields fl = f;
  forall("lusgs_sweep_sequential", 1, [=] FV_HOST_DEVICE(idx_t) {
    if (forward)
      for (idx_t c = 0; c < v.nCells; ++c)
        sweep_cell(v, fl, true, c);
    else
      for (idx_t c = v.nCells - 1; c >= 0; --c)
        sweep_cell(v, fl, false, c);
  });
}

void lusgs_apply(const ZoneView& z, const real_t* dU, real_t* U) {
  const ZoneView v = z;
  forall("lusgs_apply", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < kNumEq; ++k)
      U[k * v.nTotalCells + c] += dU[k * v.nTotalCells + c];
  });
}

void lusgs_zero(idx_t n, idx_t count, real_t* field) {
  forall("lusgs_zero", count, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < kNumEq; ++k)
      field[k * n + c] = 0.0;
  });
}

} // namespace fv::kernels
