#pragma once
/// \file monitor.hpp
/// fv::Monitor: what the solver reports of the state an iteration starts from, from the
/// SpatialOperator's last evaluation: the RMS over all cells of R/V per equation, and the
/// pressure force and moment on the monitored wall patches ([monitor] force_patches). Each is
/// one deterministic reduction (fv::reduce) plus one global sum over the ranks; the faces of
/// every monitored patch are summed in one launch.
#include "runtime/backend/memory.hpp"
#include "runtime/config/case_config.hpp"

#include <array>

namespace fv {

class SpatialOperator;

class Monitor {
 public:
  /// `op` must outlive the monitor.
  Monitor(const SpatialOperator& op, const CaseConfig& cfg);
  /// RMS over the owned cells of every rank of R/V per equation (the operator's residual).
  std::array<real_t, 5> residual_rms() const;
  /// Pressure force (x, y, z) and moment about moment_origin on the monitored patches, from
  /// the operator's face fluxes, summed over the ranks.
  std::array<real_t, 6> forces() const;

 private:
  const SpatialOperator& op_;
  real_t pRef_;
  std::array<real_t, 3> origin_;
  DeviceArray<idx_t> faces_; ///< boundary faces of the monitored patches
};

} // namespace fv
