#include "runtime/solver/monitor.hpp"
#include "runtime/solver/state_model.hpp"

#include "common/error.hpp"
#include "runtime/kernels/reductions.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace fv {

namespace {
/// Each equation's RMS, at least 1e-3 of the largest mean-flow equation's in free-stream units
/// (a model's transported scalars, whose free-stream magnitudes say little about their values
/// in boundary layers, do not set the level); entries still not above 1e-300 (an exactly zero
/// residual) become `zero`.
StateArray floored(const FlowConfig& flow, const StateArray& rms, real_t zero) {
  const StateModel sm = StateModel::of(flow);
  const std::vector<real_t> scale = sm.residual_scales(flow);
  real_t level = 0; // the largest equation's residual in free-stream units
  for (int k = 0; k < phys::kNumEq; ++k)
    level = std::max(level, rms[k] / scale[k]);
  StateArray out{};
  for (int k = 0; k < sm.nVars; ++k) {
    out[k] = std::max(rms[k], 1e-3 * level * scale[k]);
    if (!(out[k] > 1e-300)) out[k] = zero;
  }
  return out;
}
} // namespace

StateArray residual_reference(const FlowConfig& flow, const StateArray& rms) {
  return floored(flow, rms, 1.0);
}

real_t residual_measure(const FlowConfig& flow, const StateArray& rms, const StateArray& ref) {
  const StateArray r = floored(flow, rms, 1e-300);
  constexpr int d = StateModel::kDensity, e = StateModel::kEnergy;
  return std::max(r[d] / ref[d], r[e] / ref[e]);
}

Monitor::Monitor(const SpatialOperator& op, const MonitorConfig& cfg)
    : op_(op), viscous_(op.flow().viscous()), origin_(cfg.momentOrigin) {
  const Zone& z = op.zone();
  const std::vector<PatchConfig>& patches = op.patch_configs();
  std::vector<idx_t> faces;
  for (idx_t p = 0; p < z.nPatches(); ++p)
    if (std::find(cfg.forcePatches.begin(), cfg.forcePatches.end(), patches[p].name) !=
        cfg.forcePatches.end())
      for (idx_t f = z.patchFaceOffsets[p]; f < z.patchFaceOffsets[p + 1]; ++f)
        faces.push_back(f);
  faces_ = DeviceArray<idx_t>(faces, "monitored wall faces");
  if (viscous_)
    wall_ = DeviceArray<real_t>(kernels::kWallViscousValues *
                                    static_cast<std::size_t>(z.nBoundaryFaces),
                                "wall viscous data");
}

std::array<real_t, 3> Monitor::viscous_force() const {
  std::array<real_t, 3> f{};
  if (!viscous_) return f;
  op_.wall_viscous_data(wall_.data());
  real_t part[3];
  kernels::boundary_face_sum3(op_.view(), static_cast<idx_t>(faces_.size()), faces_.data(),
                              wall_.data(), part);
  std::vector<real_t> v(part, part + 3);
  if (op_.comm()) parallel::sum_all(*op_.comm(), v);
  std::copy(v.begin(), v.end(), f.begin());
  return f;
}

std::vector<real_t> Monitor::wall_viscous_data() const {
  FV_VERIFY(viscous_, "wall viscous data need the Navier-Stokes model");
  op_.wall_viscous_data(wall_.data());
  return wall_.to_host();
}

Monitor::Pending Monitor::start(bool rms) const {
  Pending p;
  p.haveRms = rms;
  if (rms)
    visit_state_model(op_.flow(), [&](auto m) {
      p.rms = kernels::residual_sum_squares_async<decltype(m)::kNumVars>(rmsSlot_, op_.view(),
                                                                         op_.residual());
    });
  p.forces = kernels::wall_forces_async(forcesSlot_, op_.view(), static_cast<idx_t>(faces_.size()),
                                        faces_.data(), op_.flow().freestream[phys::kPressure],
                                        origin_.data(), op_.face_flux());
  return p;
}

StateArray Monitor::residual_rms(const Pending& p) const {
  FV_VERIFY(p.haveRms, "Monitor: the residual RMS was not started");
  std::vector<real_t> v(static_cast<std::size_t>(p.rms.components()));
  p.rms.get(v.data());
  if (op_.comm()) parallel::sum_all(*op_.comm(), v);
  StateArray rms{};
  for (int k = 0; k < op_.num_vars(); ++k)
    rms[k] = std::sqrt(v[k] / static_cast<real_t>(op_.global_cells()));
  return rms;
}

StateArray Monitor::residual_rms() const {
  return residual_rms(start(true));
}

std::array<real_t, 6> Monitor::forces(const Pending& p) const {
  std::vector<real_t> v(6);
  p.forces.get(v.data());
  if (op_.comm()) parallel::sum_all(*op_.comm(), v);
  std::array<real_t, 6> f{};
  std::copy(v.begin(), v.end(), f.begin());
  return f;
}

} // namespace fv
