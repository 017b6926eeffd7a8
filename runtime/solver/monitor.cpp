#include "runtime/solver/monitor.hpp"

#include "runtime/kernels/reductions.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace fv {

Monitor::Monitor(const SpatialOperator& op, const CaseConfig& cfg)
    : op_(op), pRef_(cfg.freestream[4]), origin_(cfg.momentOrigin) {
  const Zone& z = op.zone();
  std::vector<idx_t> faces;
  for (idx_t p = 0; p < z.nPatches(); ++p)
    if (std::find(cfg.forcePatches.begin(), cfg.forcePatches.end(), cfg.patches[p].name) !=
        cfg.forcePatches.end())
      for (idx_t f = z.patchFaceOffsets[p]; f < z.patchFaceOffsets[p + 1]; ++f)
        faces.push_back(f);
  faces_ = DeviceArray<idx_t>(faces, "monitored wall faces");
}

std::array<real_t, 5> Monitor::residual_rms() const {
  real_t ss[5];
  kernels::residual_sum_squares(op_.view(), op_.residual(), ss);
  std::vector<real_t> v(ss, ss + 5);
  if (op_.comm() != MPI_COMM_NULL) parallel::sum_all(op_.comm(), v);
  std::array<real_t, 5> rms{};
  for (int k = 0; k < 5; ++k)
    rms[k] = std::sqrt(v[k] / static_cast<real_t>(op_.global_cells()));
  return rms;
}

std::array<real_t, 6> Monitor::forces() const {
  real_t part[6];
  kernels::wall_forces(op_.view(), static_cast<idx_t>(faces_.size()), faces_.data(), pRef_,
                       origin_.data(), op_.face_flux(), part);
  std::vector<real_t> v(part, part + 6);
  if (op_.comm() != MPI_COMM_NULL) parallel::sum_all(op_.comm(), v);
  std::array<real_t, 6> f{};
  std::copy(v.begin(), v.end(), f.begin());
  return f;
}

} // namespace fv
