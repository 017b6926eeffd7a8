#pragma once
/// \file patch_table.hpp
/// The boundary conditions of a zone's patches on the device, so that a boundary-face kernel
/// covers every patch in one launch (boundary faces are numbered first, patch by patch:
/// patch p holds faces [offsets[p], offsets[p + 1]) of the zone, common/zone.hpp). One table per
/// zone, owned by its SpatialOperator: the explicit face loops, LU-SGS and the Newton
/// preconditioner read the same patch of each boundary face and the same conditions.
#include "runtime/backend/memory.hpp"
#include "runtime/physics/boundary_conditions.hpp"

#include <vector>

namespace fv::kernels {

/// Device pointers of a PatchTable (trivially copyable, captured by value in kernels).
struct PatchView {
  idx_t nPatches = 0;
  const idx_t* offsets = nullptr;         ///< nPatches + 1 boundary-face offsets
  const idx_t* facePatch = nullptr;       ///< the patch of each boundary face
  const phys::BcParams* params = nullptr; ///< nPatches boundary conditions

  /// The patch of boundary face f (offsets[0] <= f < offsets[nPatches]).
  FV_HOST_DEVICE FV_FORCEINLINE idx_t patch_of(idx_t f) const { return facePatch[f]; }
  /// The boundary condition of boundary face f.
  FV_HOST_DEVICE FV_FORCEINLINE const phys::BcParams& params_of(idx_t f) const {
    return params[facePatch[f]];
  }
};

/// Owns the device copies of the patch offsets, the patch of every boundary face and the
/// boundary conditions of one zone (memory of the device active at construction).
class PatchTable {
 public:
  PatchTable() = default;
  /// offsets: nPatches + 1 non-decreasing boundary-face offsets from 0; params: one per patch.
  PatchTable(const std::vector<idx_t>& offsets, const std::vector<phys::BcParams>& params);
  PatchView view() const { return view_; }
  /// Replaces the patches' boundary conditions (one per patch, as constructed) in place: the
  /// views handed out stay valid and read the new conditions (a campaign's next point).
  void set_params(const std::vector<phys::BcParams>& params);

 private:
  DeviceArray<idx_t> offsets_, facePatch_;
  DeviceArray<phys::BcParams> params_;
  PatchView view_;
};

} // namespace fv::kernels
