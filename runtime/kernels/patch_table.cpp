#include "runtime/kernels/patch_table.hpp"

#include "common/error.hpp"

namespace fv::kernels {

PatchTable::PatchTable(const std::vector<idx_t>& offsets, const std::vector<phys::BcParams>& params)
    : offsets_(offsets, "patch face offsets"), params_(params, "patch boundary conditions") {
  FV_VERIFY(offsets.size() == params.size() + 1,
            "patch table: " << offsets.size() << " offsets for " << params.size() << " patches");
  for (std::size_t p = 0; p < params.size(); ++p)
    FV_VERIFY(offsets[p] <= offsets[p + 1], "patch table: offsets decrease at patch " << p);
  view_.nPatches = static_cast<idx_t>(params.size());
  view_.offsets = offsets_.data();
  view_.params = params_.data();
}

} // namespace fv::kernels
