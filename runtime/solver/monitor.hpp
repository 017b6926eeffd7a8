#pragma once
/// \file monitor.hpp
/// fv::Monitor: what the solver reports of the state an iteration starts from, from the
/// SpatialOperator's last evaluation: the RMS over all cells of R/V per equation, and the
/// pressure force and moment on the monitored wall patches ([monitor] force_patches). Each is
/// one deterministic reduction (fv::reduce) plus one global sum over the ranks; the faces of
/// every monitored patch are summed in one launch.
#include "runtime/backend/memory.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/state_model.hpp"

#include <array>

namespace fv {

class SpatialOperator;

/// The reference of the residual's orders (convergence, CFL law, blow-up test) from the RMS
/// residuals `rms` of a state: each equation's own RMS, but at least 1e-3 of the largest
/// equation's in free-stream units (rho, rho a, rho a, rho a, rho a^2). A free stream with
/// viscous walls starts with only the momentum residuals: its density and energy residuals
/// are rounding noise, and orders counted from them would mean nothing. Where every equation
/// has a residual of its own (any inviscid start) the reference is the RMS itself.
StateArray residual_reference(const FlowConfig& flow, const StateArray& rms);

/// The convergence measure of a residual against a reference: the larger of the density and
/// the energy RMS over their references (the momentum components can be identically zero in
/// 2D flows), each first floored as residual_reference() does, so that rounding noise in one
/// equation reads as the level of the others.
real_t residual_measure(const FlowConfig& flow, const StateArray& rms, const StateArray& ref);

class Monitor {
 public:
  /// The monitor part of a case on `op` (which must outlive the monitor): the free-stream
  /// reference pressure (read at every start(), so that it follows op's set_conditions()), the
  /// model and the patch names come from op's flow and patches.
  Monitor(const SpatialOperator& op, const MonitorConfig& cfg);
  /// RMS over the owned cells of every rank of R/V per equation (the operator's residual).
  StateArray residual_rms() const;
  /// The reductions of residual_rms() (when `rms`) and of the pressure force (x, y, z) and its
  /// moment about moment_origin on the monitored patches (from the operator's face fluxes)
  /// queued on the device without waiting (each in its own slot of the monitor); finish them
  /// with the overloads below (summed over the ranks), after any other work the device may do
  /// meanwhile. One pending set at a time.
  struct Pending {
    PendingReduce rms, forces;
    bool haveRms = false;
  };
  Pending start(bool rms) const;
  StateArray residual_rms(const Pending& p) const;      ///< COLLECTIVE
  std::array<real_t, 6> forces(const Pending& p) const; ///< COLLECTIVE
  /// Navier-Stokes: the viscous part of forces() (x, y, z) on the monitored patches, summed
  /// over the ranks; zero for the Euler model.
  std::array<real_t, 3> viscous_force() const;
  /// Navier-Stokes: kernels::wall_viscous_data() of every boundary face on the host.
  std::vector<real_t> wall_viscous_data() const;

 private:
  const SpatialOperator& op_;
  bool viscous_ = false;
  std::array<real_t, 3> origin_;
  DeviceArray<idx_t> faces_;                         ///< boundary faces of the monitored patches
  mutable DeviceArray<real_t> wall_;                 ///< wall viscous data (viscous model)
  mutable backend::ReduceSlot rmsSlot_, forcesSlot_; ///< of start()
};

} // namespace fv
