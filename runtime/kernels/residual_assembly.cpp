// The shared-memory assembly of the residual (residual_assembly.hpp), beside the default cell
// gather of flux.cpp.
#include "runtime/kernels/residual_assembly.hpp"

#include "runtime/backend/forall_blocks.hpp"
#include "runtime/kernels/cell_update_k.hpp"

namespace fv::kernels {

const char* to_string(ResidualAssembly a) {
  return enum_name(kResidualAssemblyNames, a);
}

void flux_sum_shared(const ZoneView& z, const real_t* flux, real_t* R) { // the mean flow (Euler)
  const ZoneView v = z;
  const idx_t nBlocks = (z.nCells + kSmemCells - 1) / kSmemCells;
  constexpr idx_t E = kSmemEntries;
  forall_blocks<kSmemCells, real_t, phys::kNumEq * kSmemEntries>(
      "flux_sum_smem", nBlocks,
      [=] FV_HOST_DEVICE(idx_t b, int t, real_t* s) {
        // stage the signed fluxes of the block's cell-face entries (contiguous in cellFaces)
        const idx_t c0 = b * kSmemCells;
        const idx_t c1 = c0 + kSmemCells < v.nCells ? c0 + kSmemCells : v.nCells;
        const idx_t e0 = v.cellFaceOffsets[c0], e1 = v.cellFaceOffsets[c1];
        if (e1 - e0 > E) return; // too many to stage: the reduction reads global memory
        for (idx_t j = e0 + t; j < e1; j += kSmemCells) {
          const idx_t f = v.cellFaces[j];
          const real_t sign = static_cast<real_t>(v.cellFaceSign[j]);
          for (int k = 0; k < phys::kNumEq; ++k)
            s[k * E + (j - e0)] = sign * flux[k * v.nFaces + f];
        }
      },
      [=] FV_HOST_DEVICE(idx_t b, int t, const real_t* s) {
        const idx_t c0 = b * kSmemCells, c = c0 + t;
        if (c >= v.nCells) return;
        const idx_t c1 = c0 + kSmemCells < v.nCells ? c0 + kSmemCells : v.nCells;
        const idx_t e0 = v.cellFaceOffsets[c0];
        real_t r[phys::kNumEq] = {};
        if (v.cellFaceOffsets[c1] - e0 <= E) {
          for (idx_t j = v.cellFaceOffsets[c]; j < v.cellFaceOffsets[c + 1]; ++j)
            for (int k = 0; k < phys::kNumEq; ++k)
              r[k] += s[k * E + (j - e0)];
        } else { // not staged: the gather's own sum
          detail::cell_flux_sum<phys::kNumEq>(v, flux, c, r);
        }
        for (int k = 0; k < phys::kNumEq; ++k)
          R[k * v.nTotalCells + c] = r[k];
      });
}

} // namespace fv::kernels
