// Matrix-free LU-SGS kernels: face spectral radii, the scalar diagonal, the group-parallel and
// the sequential sweeps (see lusgs_kernels.hpp for the algebra).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/face_flux.hpp"
#include "runtime/kernels/lusgs_kernels.hpp"
#include "runtime/physics/lusgs_k.hpp"

namespace fv::kernels {
namespace {

/// One Gauss-Seidel update of owned cell c; forward: L_c from lower neighbours, else U_c from
/// upper ones; then dU_c = -(R_c + L_c + U_c) / D_c.
FV_HOST_DEVICE FV_FORCEINLINE void sweep_cell(const ZoneView& v, const LusgsFields& f, bool forward,
                                              idx_t c) {
  const idx_t n = v.nTotalCells;
  real_t sum[5] = {0, 0, 0, 0, 0};
  const idx_t* offsets = forward ? f.lowerOffsets : f.upperOffsets;
  const idx_t* cells = forward ? f.lowerCells : f.upperCells;
  const idx_t* faces = forward ? f.lowerFaces : f.upperFaces;
  const idx_t end = offsets[c + 1];
  real_t Wc[5] = {0, 0, 0, 0, 0}; // the cell's own state, for the Roe matrix of each face
  if (f.roe)
    for (int k = 0; k < 5; ++k)
      Wc[k] = f.W[k * n + c];
  for (idx_t e = offsets[c]; e < end; ++e) {
    const idx_t j = cells[e];
    const idx_t encoded = faces[e];
    const bool owner = encoded >= 0;
    const idx_t face = owner ? encoded : ~encoded;
    const real_t sg = owner ? 1.0 : -1.0;
    const real_t S[3] = {sg * v.faceArea[3 * face], sg * v.faceArea[3 * face + 1],
                         sg * v.faceArea[3 * face + 2]};
    real_t Wj[5], dUj[5], dF[5];
    bool zero = true;
    for (int k = 0; k < 5; ++k) {
      Wj[k] = f.W[k * n + j];
      dUj[k] = f.dU[k * n + j];
      zero = zero && dUj[k] == 0.0;
    }
    if (zero) continue; // exactly no contribution (e.g. halo cells without an exchange)
    phys::flux_difference(Wj, dUj, S, f.gamma, dF);
    if (f.roe) {
      real_t diss[5];
      phys::roe_dissipation(Wc, Wj, S, f.gamma, f.entropyFix, dUj, diss);
      for (int k = 0; k < 5; ++k)
        sum[k] += 0.5 * (dF[k] - f.omega * diss[k]);
    } else {
      const real_t ol = f.omega * f.lambda[face];
      for (int k = 0; k < 5; ++k)
        sum[k] += 0.5 * (dF[k] - ol * dUj[k]);
    }
  }
  const idx_t nc = v.nCells;
  real_t* mine = forward ? f.lower : f.upper;
  const real_t* other = forward ? f.upper : f.lower;
  real_t rhs[5];
  for (int k = 0; k < 5; ++k) {
    mine[k * nc + c] = sum[k];
    rhs[k] = -(f.R[k * n + c] + sum[k] + other[k * nc + c]);
  }
  const idx_t b = f.blockOf ? f.blockOf[c] : -1;
  if (b >= 0) {
    const real_t* M = f.Dinv + 25 * static_cast<std::size_t>(b);
    for (int r = 0; r < 5; ++r)
      f.dU[r * n + c] = M[5 * r] * rhs[0] + M[5 * r + 1] * rhs[1] + M[5 * r + 2] * rhs[2] +
                        M[5 * r + 3] * rhs[3] + M[5 * r + 4] * rhs[4];
  } else {
    const real_t invD = 1.0 / f.D[c];
    for (int k = 0; k < 5; ++k)
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
    real_t w[5];
    const idx_t o = v.faceOwner[face], nb = v.faceNeighbour[face];
    for (int k = 0; k < 5; ++k)
      w[k] = W[k * n + o];
    real_t l = phys::spectral_radius(w, S, gamma);
    if (nb != kNone) {
      for (int k = 0; k < 5; ++k)
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
    real_t M[25];
    for (int k = 0; k < 25; ++k)
      M[k] = 0.0;
    for (int k = 0; k < 5; ++k)
      M[6 * k] = D[c];
    real_t W0[5], U0[5];
    for (int k = 0; k < 5; ++k)
      W0[k] = W[k * n + c];
    phys::prim_to_cons(W0, U0, gamma);
    // perturbation scales: rho, |m| + rho c, rho E
    const real_t rc = U0[0] * phys::sound_speed(W0, gamma);
    const real_t scale[5] = {U0[0], std::fabs(U0[1]) + rc, std::fabs(U0[2]) + rc,
                             std::fabs(U0[3]) + rc, U0[4]};
    for (idx_t q = v.cellFaceOffsets[c]; q < v.cellFaceOffsets[c + 1]; ++q) {
      const idx_t face = v.cellFaces[q];
      if (face >= v.nBoundaryFaces) {
        if (!bb.roe) continue;
        // omega/2 |A~_f| of an interior face, column by column
        const bool own = v.cellFaceSign[q] > 0;
        const idx_t j = own ? v.faceNeighbour[face] : v.faceOwner[face];
        real_t Wj[5];
        for (int k = 0; k < 5; ++k)
          Wj[k] = W[k * n + j];
        const real_t* Sf = v.faceArea + 3 * face;
        const real_t area = std::sqrt(Sf[0] * Sf[0] + Sf[1] * Sf[1] + Sf[2] * Sf[2]);
        const phys::RoeAverage ra =
            phys::roe_average(W0, Wj, Sf[0] / area, Sf[1] / area, Sf[2] / area, gamma);
        for (int col = 0; col < 5; ++col) { // the Roe average once, the matrix column by column
          real_t e[5] = {0, 0, 0, 0, 0}, out[5];
          e[col] = 1.0;
          phys::roe_dissipation(ra, area, gamma, bb.flux.entropyFix, e, out);
          for (int r = 0; r < 5; ++r)
            M[5 * r + col] += 0.5 * bb.omega * out[r];
        }
        continue;
      }
      const phys::BcParams& bc = bb.patches[bb.facePatch[face]];
      const real_t* S = v.faceArea + 3 * face;
      const real_t area = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
      const real_t nrm[3] = {S[0] / area, S[1] / area, S[2] / area};
      // g(U) = F_b(U) - 1/2 F(U) . S; column k of dg/dU by a forward difference
      auto g = [&](const real_t* Wc, real_t* out) {
        real_t G[5], F[5], P[5];
        phys::ghost_state(Wc, nrm, bc, G);
        detail::riemann(bb.flux, Wc, G, S, F);
        phys::physical_flux(Wc, S, gamma, P);
        for (int k = 0; k < 5; ++k)
          out[k] = F[k] - 0.5 * P[k];
      };
      real_t g0[5];
      g(W0, g0);
      for (int col = 0; col < 5; ++col) {
        real_t U1[5], W1[5], g1[5];
        for (int k = 0; k < 5; ++k)
          U1[k] = U0[k];
        // a step large enough that rounding (which may differ between the CPU and the GPU,
        // e.g. fused multiply-adds) stays ~1e-11 of the derivative; the truncation error
        // (~1e-5 relative) is irrelevant for a preconditioning diagonal
        U1[col] += 1e-5 * scale[col];
        const real_t h = U1[col] - U0[col]; // the step actually taken
        phys::cons_to_prim(U1, W1, gamma);
        g(W1, g1);
        for (int r = 0; r < 5; ++r)
          M[5 * r + col] += (g1[r] - g0[r]) / h;
      }
    }
    real_t* out = Dinv + 25 * static_cast<std::size_t>(i);
    if (!phys::invert5(M, out)) {
      for (int k = 0; k < 25; ++k)
        out[k] = 0.0;
      for (int k = 0; k < 5; ++k)
        out[6 * k] = 1.0 / D[c];
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
    for (int k = 0; k < 5; ++k)
      U[k * v.nTotalCells + c] += dU[k * v.nTotalCells + c];
  });
}

void lusgs_zero(idx_t n, idx_t count, real_t* field) {
  forall("lusgs_zero", count, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < 5; ++k)
      field[k * n + c] = 0.0;
  });
}

} // namespace fv::kernels
