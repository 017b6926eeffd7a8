#include "runtime/kernels/patch_table.hpp"

#include "common/error.hpp"

namespace fv::kernels {
namespace {
/// The patch of each boundary face [0, offsets.back()).
std::vector<idx_t> face_patches(const std::vector<idx_t>& offsets) {
  std::vector<idx_t> p(offsets.empty() ? 0 : static_cast<std::size_t>(offsets.back()), 0);
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k)
    for (idx_t f = offsets[k]; f < offsets[k + 1]; ++f)
      p[static_cast<std::size_t>(f)] = static_cast<idx_t>(k);
  return p;
}
} // namespace

PatchTable::PatchTable(const std::vector<idx_t>& offsets, const std::vector<phys::BcParams>& params)
    : params_(params, "patch boundary conditions") {
  FV_VERIFY(offsets.size() == params.size() + 1,
            "patch table: " << offsets.size() << " offsets for " << params.size() << " patches");
  FV_VERIFY(offsets.front() == 0, "patch table: the offsets start at " << offsets.front());
  for (std::size_t p = 0; p < params.size(); ++p)
    FV_VERIFY(offsets[p] <= offsets[p + 1], "patch table: offsets decrease at patch " << p);
  offsets_ = DeviceArray<idx_t>(offsets, "patch face offsets");
  facePatch_ = DeviceArray<idx_t>(face_patches(offsets), "boundary face patch");
  view_.nPatches = static_cast<idx_t>(params.size());
  view_.offsets = offsets_.data();
  view_.facePatch = facePatch_.data();
  view_.params = params_.data();
}

void PatchTable::set_params(const std::vector<phys::BcParams>& params) {
  FV_VERIFY(params.size() == params_.size(),
            "patch table: " << params.size() << " conditions for " << params_.size() << " patches");
  params_.assign(params.data());
}

} // namespace fv::kernels
