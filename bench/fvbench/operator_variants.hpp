#pragma once
/// \file operator_variants.hpp
/// fvbench's residual-assembly variants (assembly_variants.hpp) in the solver's whole
/// evaluation: set on a SpatialOperator, gather and smem as the operator's own assemblies, the
/// benchmark-only ones through its interior-assembly extension point (InteriorAssembly,
/// solver/spatial_operator.hpp); and the timed choice among all the zone supports
/// (choose_fastest_assembly(), solver/assembly_choice.hpp, the code of fvrun's
/// `[scheme] assembly = auto`, over every variant).
#include "bench/fvbench/assembly_variants.hpp"
#include "common/zone.hpp"
#include "runtime/backend/memory.hpp"

#include <string>
#include <vector>

namespace fv {
class SpatialOperator;
}

namespace fv::bench {

/// The zone's face colouring (zone.faceColours) on the device, for the colour variants; no
/// colours when the zone has none.
class DeviceFaceColouring {
 public:
  DeviceFaceColouring() = default;
  explicit DeviceFaceColouring(const Zone& z);
  const FaceColouring& view() const { return view_; }

 private:
  DeviceArray<idx_t> faces_;
  FaceColouring view_;
};

/// The variants a zone with this colouring supports: every one, or all but the colour variants
/// when it has no colours. In kFluxSumVariantNames' order.
std::vector<FluxSumVariant> supported_variants(const FaceColouring& colours);

/// Sets variant v on `op` for its whole evaluation: Gather and Smem with set_assembly(), the
/// others as its interior assembly (residual_with(); one zone, the Euler model, FP64 geometry:
/// the operator checks). The colour variants read `colours` (the device array must outlive the
/// operator's use of it; an error when it has no colours).
void set_variant(SpatialOperator& op, FluxSumVariant v, const FaceColouring& colours);

/// The variant `op` assembles with (its assembly_name()).
FluxSumVariant variant_of(const SpatialOperator& op);

/// What choose_any_assembly() did: the variant now set on the operator and a line for the log.
struct VariantChoice {
  FluxSumVariant variant = FluxSumVariant::Gather;
  std::string note;
};

/// The fastest of every variant the zone supports (supported_variants()), set on `op`, as
/// fvrun's `auto` chooses between gather and smem (choose_fastest_assembly(): timed over
/// residual evaluations at U, device, owned cells; cached per (meshUuid, device) under
/// "<device> (fvbench auto_any)" in `cachePath`, empty: default_kernel_cache_path()). The
/// colourings sum in another order than the gather, the atomics differ run to run.
VariantChoice choose_any_assembly(SpatialOperator& op, const real_t* U,
                                  const FaceColouring& colours, const std::string& meshUuid,
                                  const std::string& cachePath = "");

} // namespace fv::bench
