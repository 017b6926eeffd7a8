#pragma once
/// \file assembly_variants.hpp
/// fvbench's ways of assembling the residual R[k][cell] = sum over the cell's faces of
/// sign * flux[k][face], for benchmarking against the solver's own two (gather, smem:
/// runtime/kernels/residual_assembly.hpp). They follow the papers' strategies for the data race
/// of a face loop that scatters to its two cells (production-FV-GPU paper §3.1 and Figure 10;
/// FUN3D-GPU; hybrid MPI-CUDA paper eq. (9)):
///
///   Gather       interior_fluxes() stores face fluxes; flux_sum() gathers per cell (the
///                solver's default).
///   Smem         the same two passes with the cell reduction staged in shared memory
///                (kernels::flux_sum_shared(); bitwise equal to Gather, the solver's other one).
///   Atomic       stored face fluxes; face loop scattering with FP64 atomic adds.
///   Colour       stored face fluxes; face loop per face colour (zone.faceColours: no two faces
///                of a colour share a cell), one launch per colour, plain adds.
///   FusedAtomic  one face loop computes the interior flux and scatters it with atomic adds
///                (no face-flux array round trip through memory).
///   FusedColour  the same per face colour, plain adds.
///
/// All write R of owned cells only (halo cells get no residual) and give the same R up to the
/// order of the additions (~1e-15 relative; tests/bench checks 1e-12). Atomic variants are not
/// bitwise reproducible run to run. The boundary faces' fluxes always come from
/// boundary_fluxes() through the face-flux array. The last four are benchmark-only: fvbench
/// plugs them into the solver's whole evaluation through SpatialOperator's interior-assembly
/// extension point (operator_variants.hpp).
#include "runtime/kernels/kernels.hpp"
#include "runtime/kernels/residual_assembly.hpp"

#include <string>
#include <vector>

namespace fv::bench {

enum class FluxSumVariant { Gather, Atomic, Colour, FusedAtomic, FusedColour, Smem };

/// The variants' names (fvbench --kernels), in the order above.
inline constexpr EnumName<FluxSumVariant> kFluxSumVariantNames[] = {
    {FluxSumVariant::Gather, "gather"},
    {FluxSumVariant::Atomic, "atomic"},
    {FluxSumVariant::Colour, "colour"},
    {FluxSumVariant::FusedAtomic, "fused-atomic"},
    {FluxSumVariant::FusedColour, "fused-colour"},
    {FluxSumVariant::Smem, "smem"}};

/// All variants, in the order above.
const std::vector<FluxSumVariant>& flux_sum_variants();
/// The name of v (kFluxSumVariantNames).
const char* to_string(FluxSumVariant v);
/// Parses the names above (usage error listing them otherwise).
FluxSumVariant parse_flux_sum_variant(const std::string& s);
/// True for the variants that compute the interior fluxes themselves (no interior_fluxes()).
bool is_fused(FluxSumVariant v);
/// True for the variants that need the zone's face colouring (Colour, FusedColour).
bool is_coloured(FluxSumVariant v);

/// Face colouring on the device: faces of colour c are faces[offsets[c] .. offsets[c+1]).
/// offsets are on the host (one launch per colour), faces is a device pointer.
struct FaceColouring {
  std::vector<idx_t> offsets;
  const idx_t* faces = nullptr;
  idx_t nColours() const { return offsets.empty() ? 0 : static_cast<idx_t>(offsets.size() - 1); }
};

/// Face loop with atomic adds: R = 0, then for every face R[owner] += F, R[neighbour] -= F
/// (owned neighbours only). `flux` holds all faces' fluxes.
void flux_sum_atomic(const ZoneView& z, const real_t* flux, real_t* R);

/// Face loop per colour with plain adds (no two faces of a colour touch the same cell).
void flux_sum_coloured(const ZoneView& z, const FaceColouring& colours, const real_t* flux,
                       real_t* R);

/// Fused interior flux + atomic scatter over all faces: interior faces' fluxes are computed as
/// interior_fluxes() does (not stored), boundary faces' are read from `flux`.
void residual_fused_atomic(const ZoneView& z, const kernels::FluxSettings& s, const real_t* W,
                           const real_t* grad, const real_t* phi, const real_t* flux, real_t* R);

/// Fused interior flux + scatter per face colour (plain adds).
void residual_fused_coloured(const ZoneView& z, const FaceColouring& colours,
                             const kernels::FluxSettings& s, const real_t* W, const real_t* grad,
                             const real_t* phi, const real_t* flux, real_t* R);

/// The residual of interior + stored boundary fluxes with variant v (Gather: interior_fluxes()
/// then flux_sum(); `flux` must hold the boundary faces' fluxes and is overwritten on interior
/// faces by the non-fused variants). `colours` is needed by the colour variants only.
void residual_with(FluxSumVariant v, const ZoneView& z, const FaceColouring& colours,
                   const kernels::FluxSettings& s, const real_t* W, const real_t* grad,
                   const real_t* phi, real_t* flux, real_t* R);

} // namespace fv::bench
