#pragma once
/// \file fixed_lift.hpp
/// fv::FixedLift: [freestream] target_cl, the angle of attack adjusted during the iterations
/// until the lift coefficient is the target (as SU2's FIXED_CL_MODE; docs/solver.md, "Fixed
/// lift"). Host-side bookkeeping: the run loop reports every iteration's CL and convergence
/// measure, and rotates the free stream (EulerSolver::set_conditions) to the angle it returns.
///
/// An update waits until the residual has dropped kOrdersPerUpdate orders below the highest
/// measure seen since the last update (the jump the new free stream caused), at second order
/// (the first-order start's CL says little), so that the CL it reads belongs to a nearly
/// converged flow. It is a secant step on dCL/dalpha: the first from the thin-aerofoil slope
/// 2 pi per radian, later ones from the last two updates' (alpha, CL), where that slope is
/// positive and within a factor kSlopeRange of 2 pi (else the last slope is kept). A step
/// moves alpha by at most kMaxStepDeg.
#include "common/types.hpp"
#include "runtime/config/case_config.hpp"

#include <optional>

namespace fv {

class FixedLift {
 public:
  /// Orders the residual drops between two updates.
  static constexpr real_t kOrdersPerUpdate = 2;
  /// A measured slope is used within [2 pi / kSlopeRange, 2 pi kSlopeRange] per radian.
  static constexpr real_t kSlopeRange = 20;
  /// The largest change of alpha in one update, degrees.
  static constexpr real_t kMaxStepDeg = 2;

  /// The target of `lift`, starting at the case's angle of attack `aoaDeg`.
  FixedLift(const FixedLiftConfig& lift, real_t aoaDeg);

  /// One iteration's CL and log10 of its convergence measure; `finalOrder`: the scheme is at
  /// its final order (not in a first-order start). Returns the new angle of attack (degrees)
  /// when alpha is to move.
  std::optional<real_t> observe(real_t cl, real_t logMeasure, bool finalOrder);
  /// |cl - target| <= tolerance.
  bool reached(real_t cl) const;

  real_t aoa_deg() const { return aoa_; }
  /// dCL/dalpha in use, per radian.
  real_t slope() const { return slope_; }
  int updates() const { return updates_; }

 private:
  FixedLiftConfig lift_;
  real_t aoa_;
  real_t slope_;
  real_t highest_ = -1e300; ///< the highest log measure since the last update
  bool havePrevious_ = false;
  real_t previousAoa_ = 0, previousCl_ = 0; ///< (alpha, CL) of the last update
  int updates_ = 0;
};

} // namespace fv
