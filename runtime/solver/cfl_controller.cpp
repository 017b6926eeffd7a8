#include "runtime/solver/cfl_controller.hpp"
#include "runtime/solver/monitor.hpp"
#include "runtime/solver/state_model.hpp"

#include <algorithm>
#include <cmath>

namespace fv {
namespace {
/// ser: the largest CFL growth in one iteration (when the residual falls fast)
constexpr real_t kMaxSerGrowth = 10;
/// ser: a linear solve that left more than this fraction of its residual lets the CFL grow no
/// further (measured on the NACA 0012 and the wing: growing only when newton_linear_tolerance
/// was reached held the CFL near 100 for a hundred iterations; docs/numerics.md, "CFL law")
constexpr real_t kUsefulLinearSolve = 0.5;
/// ser: ... and above this fraction the CFL is halved (GMRES stagnated: no Newton step)
constexpr real_t kPoorLinearSolve = 0.9;
} // namespace

CflController::CflController(const TimeConfig& time, const FlowConfig& flow)
    : law_(time.cflLaw), start_(time.cflStart), max_(time.cfl), growth_(time.cflGrowth),
      cut_(time.cflCut), exponent_(time.cflExponent), ramp_(time.cflRampIterations),
      maxBackoffs_(time.cflBackoffs), flow_(flow) {
  reset();
}

void CflController::reset(int iteration) {
  iteration_ = iteration;
  cfl_ = start_;
  haveRef_ = false;
  last_ = -1;
  previous_ = -1;
  relaxation_ = 1;
  inARow_ = 0;
}

void CflController::resume(real_t cfl, const StateArray& reference) {
  cfl_ = std::clamp(cfl, lowest(), max_);
  if (law_ == CflLaw::Ramp && ramp_ > 0 && max_ > start_) // the ramp's iteration at that CFL
    iteration_ = static_cast<int>(std::ceil(ramp_ * (cfl_ - start_) / (max_ - start_)));
  ref_ = reference;
  haveRef_ = true;
}

void CflController::continue_at(real_t cfl) {
  if (law_ == CflLaw::Ramp) return; // the ramp follows the iteration count, already continued
  cfl_ = std::clamp(cfl, lowest(), max_);
}

real_t CflController::lowest() const {
  return law_ == CflLaw::Ser ? start_ * 1e-3 : start_;
}

real_t CflController::cfl() const {
  if (law_ != CflLaw::Ramp) return cfl_;
  if (ramp_ <= 0) return max_;
  const real_t t = std::min<real_t>(1.0, static_cast<real_t>(iteration_) / ramp_);
  return start_ + (max_ - start_) * t;
}

void CflController::observe(const StateArray& rms) {
  if (!haveRef_) { // the first observed residual is the reference
    ref_ = residual_reference(flow_, rms);
    haveRef_ = true;
  }
  const real_t r = residual_measure(flow_, rms, ref_);
  tried_ = cfl(); // the CFL of the iteration now starting
  if (law_ == CflLaw::Adaptive && last_ >= 0)
    cfl_ = std::clamp(cfl_ * (r <= last_ ? growth_ : cut_), start_, max_);
  if (law_ == CflLaw::Ser && last_ >= 0 && inARow_ == 0) {
    // ratio: the residual before the last update over the residual after it
    const real_t ratio = last_ / std::max(r, 1e-300);
    // an update scaled down to alpha < 1/2: the CFL was too large, back to about where the
    // update would have been half as large (at least cfl_cut); 1/2 <= alpha < 1: keep it
    real_t f = std::min<real_t>(1, std::max(2 * relaxation_, cut_));
    if (linear_ > kPoorLinearSolve)
      f = std::min<real_t>(f, 0.5); // the linear solver could not follow: no Newton step
    else if (relaxation_ >= 1.0 && linear_ <= kUsefulLinearSolve) {
      // a full update: grow by cfl_growth, or faster as the residual falls (Newton); back down
      // when the residual more than doubled
      f = ratio < 0.5 ? std::max(ratio, cut_)
                      : std::clamp(std::pow(ratio, exponent_), growth_, kMaxSerGrowth);
    }
    cfl_ = std::clamp(cfl_ * f, start_ * 1e-3, max_);
  }
  previous_ = last_;
  last_ = r;
}

void CflController::accepted(real_t relaxation, real_t linearResidual) {
  ++iteration_;
  relaxation_ = std::clamp<real_t>(relaxation, 0, 1);
  linear_ = linearResidual;
  inARow_ = 0;
}

bool CflController::back_off() {
  if (law_ != CflLaw::Ser || inARow_ >= maxBackoffs_) return false;
  ++inARow_;
  ++total_;
  cfl_ = tried_ * cut_; // the failed try's CFL, cut
  // the failed iteration's residual is observed again on the retry: forget it
  last_ = previous_;
  return true;
}

} // namespace fv
