// Benchmark variants of the residual assembly (assembly_variants.hpp): atomics, face colouring
// and fused face loops, against the solver's cell gather (flux.cpp) and its shared-memory form
// (kernels/residual_assembly.cpp).
#include "bench/fvbench/assembly_variants.hpp"

#include "common/error.hpp"
#include "runtime/backend/atomic.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/face_flux.hpp"

namespace fv::bench {
namespace variants_detail {
using kernels::FluxSettings;
using phys::kNumEq; // the variants are for the mean flow (Euler)

void zero_owned(const ZoneView& z, real_t* R) {
  const idx_t n = z.nTotalCells;
  forall("residual_zero", z.nCells, [=] FV_HOST_DEVICE(idx_t c) {
    for (int k = 0; k < kNumEq; ++k)
      R[k * n + c] = 0.0;
  });
}

/// Adds F to the owner and subtracts it from an owned neighbour; atomically or not.
template <bool Atomic>
FV_HOST_DEVICE FV_FORCEINLINE void scatter(const ZoneView& v, idx_t f, const real_t* F, real_t* R) {
  const idx_t n = v.nTotalCells;
  const idx_t o = v.faceOwner[f], nb = v.faceNeighbour[f];
  const bool toNb = nb != kNone && nb < v.nCells;
  for (int k = 0; k < kNumEq; ++k) {
    if constexpr (Atomic) {
      atomic_add(R + k * n + o, F[k]);
      if (toNb) atomic_add(R + k * n + nb, -F[k]);
    } else {
      R[k * n + o] += F[k];
      if (toNb) R[k * n + nb] -= F[k];
    }
  }
}

/// The flux of face f: computed for interior faces, read from `flux` for boundary faces.
FV_HOST_DEVICE FV_FORCEINLINE void face_flux(const ZoneView& v, const FluxSettings& st,
                                             const real_t* W, const real_t* grad, const real_t* phi,
                                             const real_t* flux, idx_t f, real_t* F) {
  if (f < v.nBoundaryFaces) {
    for (int k = 0; k < kNumEq; ++k)
      F[k] = flux[k * v.nFaces + f];
    return;
  }
  const idx_t n = v.nTotalCells;
  real_t WL[kNumEq], WR[kNumEq];
  kernels::detail::reconstruct<kNumEq>(W, grad, phi, n, v.faceOwner[f], v.faceOwnerDelta + 3 * f,
                                       st.secondOrder, WL);
  kernels::detail::reconstruct<kNumEq>(W, grad, phi, n, v.faceNeighbour[f],
                                       v.faceNeighbourDelta + 3 * f, st.secondOrder, WR);
  kernels::detail::riemann<phys::EulerModel>(st, WL, WR, v.faceArea + 3 * f, F);
}

} // namespace variants_detail
using namespace variants_detail;

const std::vector<FluxSumVariant>& flux_sum_variants() {
  static const std::vector<FluxSumVariant> all = [] {
    std::vector<FluxSumVariant> v;
    for (const auto& e : kFluxSumVariantNames)
      v.push_back(e.value);
    return v;
  }();
  return all;
}

const char* to_string(FluxSumVariant v) {
  return enum_name(kFluxSumVariantNames, v);
}

FluxSumVariant parse_flux_sum_variant(const std::string& s) {
  FluxSumVariant v = FluxSumVariant::Gather;
  FV_VERIFY_USAGE(parse_enum(kFluxSumVariantNames, s, v),
                  "unknown flux-summation variant '"
                      << s << "' (valid: " << join_enum_names(kFluxSumVariantNames) << ")");
  return v;
}

bool is_fused(FluxSumVariant v) {
  return v == FluxSumVariant::FusedAtomic || v == FluxSumVariant::FusedColour;
}

bool is_coloured(FluxSumVariant v) {
  return v == FluxSumVariant::Colour || v == FluxSumVariant::FusedColour;
}

void flux_sum_atomic(const ZoneView& z, const real_t* flux, real_t* R) {
  zero_owned(z, R);
  const ZoneView v = z;
  forall("flux_sum_atomic", z.nFaces, [=] FV_HOST_DEVICE(idx_t f) {
    real_t F[kNumEq];
    for (int k = 0; k < kNumEq; ++k)
      F[k] = flux[k * v.nFaces + f];
    scatter<true>(v, f, F, R);
  });
}

void flux_sum_coloured(const ZoneView& z, const FaceColouring& colours, const real_t* flux,
                       real_t* R) {
  FV_VERIFY(colours.nColours() > 0 || z.nFaces == 0,
            "flux_sum_coloured: the zone has no face colouring");
  zero_owned(z, R);
  const ZoneView v = z;
  const idx_t* faces = colours.faces;
  for (idx_t c = 0; c < colours.nColours(); ++c) {
    const idx_t b = colours.offsets[c];
    forall("flux_sum_colour", colours.offsets[c + 1] - b, [=] FV_HOST_DEVICE(idx_t i) {
      const idx_t f = faces[b + i];
      real_t F[kNumEq];
      for (int k = 0; k < kNumEq; ++k)
        F[k] = flux[k * v.nFaces + f];
      scatter<false>(v, f, F, R);
    });
  }
}

void residual_fused_atomic(const ZoneView& z, const FluxSettings& s, const real_t* W,
                           const real_t* grad, const real_t* phi, const real_t* flux, real_t* R) {
  zero_owned(z, R);
  const ZoneView v = z;
  const FluxSettings st = s;
  forall("fused_flux_atomic", z.nFaces, [=] FV_HOST_DEVICE(idx_t f) {
    real_t F[kNumEq];
    face_flux(v, st, W, grad, phi, flux, f, F);
    scatter<true>(v, f, F, R);
  });
}

void residual_fused_coloured(const ZoneView& z, const FaceColouring& colours, const FluxSettings& s,
                             const real_t* W, const real_t* grad, const real_t* phi,
                             const real_t* flux, real_t* R) {
  FV_VERIFY(colours.nColours() > 0 || z.nFaces == 0,
            "residual_fused_coloured: the zone has no face colouring");
  zero_owned(z, R);
  const ZoneView v = z;
  const FluxSettings st = s;
  const idx_t* faces = colours.faces;
  for (idx_t c = 0; c < colours.nColours(); ++c) {
    const idx_t b = colours.offsets[c];
    forall("fused_flux_colour", colours.offsets[c + 1] - b, [=] FV_HOST_DEVICE(idx_t i) {
      const idx_t f = faces[b + i];
      real_t F[kNumEq];
      face_flux(v, st, W, grad, phi, flux, f, F);
      scatter<false>(v, f, F, R);
    });
  }
}

void residual_with(FluxSumVariant var, const ZoneView& z, const FaceColouring& colours,
                   const FluxSettings& s, const real_t* W, const real_t* grad, const real_t* phi,
                   real_t* flux, real_t* R) {
  switch (var) {
  case FluxSumVariant::Gather:
    kernels::interior_fluxes<phys::EulerModel>(z, s, W, grad, phi, flux);
    kernels::flux_sum<kNumEq>(z, flux, R);
    return;
  case FluxSumVariant::Atomic:
    kernels::interior_fluxes<phys::EulerModel>(z, s, W, grad, phi, flux);
    flux_sum_atomic(z, flux, R);
    return;
  case FluxSumVariant::Colour:
    kernels::interior_fluxes<phys::EulerModel>(z, s, W, grad, phi, flux);
    flux_sum_coloured(z, colours, flux, R);
    return;
  case FluxSumVariant::Smem:
    kernels::interior_fluxes<phys::EulerModel>(z, s, W, grad, phi, flux);
    kernels::flux_sum_shared(z, flux, R);
    return;
  case FluxSumVariant::FusedAtomic:
    residual_fused_atomic(z, s, W, grad, phi, flux, R);
    return;
  case FluxSumVariant::FusedColour:
    residual_fused_coloured(z, colours, s, W, grad, phi, flux, R);
    return;
  }
}

} // namespace fv::bench
