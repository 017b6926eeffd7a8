// fvbench's residual-assembly variants in SpatialOperator's whole evaluation, and the timed
// choice among them (operator_variants.hpp).
#include "bench/fvbench/operator_variants.hpp"

#include "common/error.hpp"
#include "runtime/solver/assembly_choice.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <utility>

namespace fv::bench {

DeviceFaceColouring::DeviceFaceColouring(const Zone& z) {
  if (z.faceColours.offsets().empty()) return;
  faces_ = DeviceArray<idx_t>(z.faceColours.indices(), "face colours");
  view_.offsets.assign(z.faceColours.offsets().begin(), z.faceColours.offsets().end());
  view_.faces = faces_.data();
}

std::vector<FluxSumVariant> supported_variants(const FaceColouring& colours) {
  std::vector<FluxSumVariant> out;
  for (FluxSumVariant v : flux_sum_variants())
    if (!is_coloured(v) || colours.nColours() > 0) out.push_back(v);
  return out;
}

void set_variant(SpatialOperator& op, FluxSumVariant v, const FaceColouring& colours) {
  if (v == FluxSumVariant::Gather) {
    op.set_assembly(kernels::ResidualAssembly::Gather);
    return;
  }
  if (v == FluxSumVariant::Smem) {
    op.set_assembly(kernels::ResidualAssembly::Smem);
    return;
  }
  FV_VERIFY(!is_coloured(v) || colours.nColours() > 0,
            "zone " << op.zone().zoneId << " has no face colours for the assembly "
                    << to_string(v));
  op.set_interior_assembly(
      to_string(v), [v, colours](const ZoneView& z, const kernels::FluxSettings& s, const real_t* W,
                                 const real_t* grad, const real_t* phi, real_t* flux, real_t* R) {
        residual_with(v, z, colours, s, W, grad, phi, flux, R);
      });
}

FluxSumVariant variant_of(const SpatialOperator& op) {
  return parse_flux_sum_variant(op.assembly_name());
}

VariantChoice choose_any_assembly(SpatialOperator& op, const real_t* U,
                                  const FaceColouring& colours, const std::string& meshUuid,
                                  const std::string& cachePath) {
  const std::vector<FluxSumVariant> variants = supported_variants(colours);
  std::vector<AssemblyCandidate> candidates;
  for (FluxSumVariant v : variants)
    candidates.push_back(
        {to_string(v), [v, &colours](SpatialOperator& o) { set_variant(o, v, colours); }});
  FastestAssembly f =
      choose_fastest_assembly(op, U, candidates, "fvbench", "auto_any", meshUuid, cachePath);
  return {variants[f.index], std::move(f.note)};
}

} // namespace fv::bench
