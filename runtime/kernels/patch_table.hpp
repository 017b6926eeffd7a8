#pragma once
/// \file patch_table.hpp
/// The boundary conditions of a zone's patches on the device, so that a boundary-face kernel
/// covers every patch in one launch (boundary faces are numbered first, patch by patch:
/// patch p holds faces [offsets[p], offsets[p + 1]) of the zone, common/zone.hpp).
#include "runtime/backend/memory.hpp"
#include "runtime/physics/euler/bc_states.hpp"

#include <vector>

namespace fv::kernels {

/// Device pointers of a PatchTable (trivially copyable, captured by value in kernels).
struct PatchView {
  idx_t nPatches = 0;
  const idx_t* offsets = nullptr;         ///< nPatches + 1 boundary-face offsets
  const phys::BcParams* params = nullptr; ///< nPatches boundary conditions

  /// The patch of boundary face f (offsets[0] <= f < offsets[nPatches]): binary search.
  FV_HOST_DEVICE FV_FORCEINLINE idx_t patch_of(idx_t f) const {
    idx_t lo = 0, hi = nPatches; // offsets[lo] <= f < offsets[hi]
    while (hi - lo > 1) {
      const idx_t mid = (lo + hi) / 2;
      if (offsets[mid] <= f)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }
};

/// Owns the device copies of the patch offsets and boundary conditions of one zone (memory of
/// the device active at construction).
class PatchTable {
 public:
  PatchTable() = default;
  /// offsets: nPatches + 1 non-decreasing boundary-face offsets; params: one per patch.
  PatchTable(const std::vector<idx_t>& offsets, const std::vector<phys::BcParams>& params);
  PatchView view() const { return view_; }

 private:
  DeviceArray<idx_t> offsets_;
  DeviceArray<phys::BcParams> params_;
  PatchView view_;
};

} // namespace fv::kernels
