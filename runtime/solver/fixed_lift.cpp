#include "runtime/solver/fixed_lift.hpp"

#include <algorithm>
#include <cmath>

namespace fv {
namespace {
constexpr real_t kPi = 3.14159265358979323846;
constexpr real_t kThinAerofoil = 2 * kPi; ///< dCL/dalpha per radian
constexpr real_t kDegree = kPi / 180;
} // namespace

FixedLift::FixedLift(const FixedLiftConfig& lift, real_t aoaDeg)
    : lift_(lift), aoa_(aoaDeg), slope_(kThinAerofoil) {}

bool FixedLift::reached(real_t cl) const {
  return std::abs(cl - lift_.target) <= lift_.tolerance;
}

std::optional<real_t> FixedLift::observe(real_t cl, real_t logMeasure, bool finalOrder) {
  if (!finalOrder || !std::isfinite(cl)) { // the drop counts from the final scheme's residual
    highest_ = -1e300;
    return std::nullopt;
  }
  highest_ = std::max(highest_, logMeasure);
  if (logMeasure > highest_ - kOrdersPerUpdate || reached(cl)) return std::nullopt;
  if (havePrevious_ && aoa_ != previousAoa_) {
    const real_t s = (cl - previousCl_) / ((aoa_ - previousAoa_) * kDegree);
    if (s >= kThinAerofoil / kSlopeRange && s <= kThinAerofoil * kSlopeRange) slope_ = s;
  }
  previousAoa_ = aoa_;
  previousCl_ = cl;
  havePrevious_ = true;
  const real_t step = (lift_.target - cl) / slope_ / kDegree;
  aoa_ += std::clamp(step, -kMaxStepDeg, kMaxStepDeg);
  highest_ = -1e300;
  ++updates_;
  return aoa_;
}

} // namespace fv
