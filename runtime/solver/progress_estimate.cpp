#include "runtime/solver/progress_estimate.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace fv {

void ProgressEstimate::add(int done, double seconds, real_t logMeasure) {
  done_ = done;
  seconds_ = seconds;
  if (!std::isfinite(logMeasure)) return;
  recent_.push_back({seconds, logMeasure});
  if (recent_.size() > kWindow) recent_.pop_front();
}

std::string ProgressEstimate::text() const {
  if (done_ <= 0 || seconds_ <= 0) return {};
  const double inf = std::numeric_limits<double>::infinity();
  const double toLimit = max_ > done_ ? (max_ - done_) * seconds_ / done_ : inf;
  double toTarget = inf;
  if (target_ > 0 && recent_.size() >= 3) { // least-squares slope of log10(measure) in time
    double st = 0, sl = 0, stt = 0, stl = 0;
    const double n = static_cast<double>(recent_.size());
    for (const Sample& s : recent_) {
      st += s.seconds;
      sl += s.log;
      stt += s.seconds * s.seconds;
      stl += s.seconds * s.log;
    }
    const double den = n * stt - st * st;
    const double slope = den > 0 ? (n * stl - st * sl) / den : 0;
    const double left = recent_.back().log + target_; // orders still to go
    if (slope < 0 && left > 0) toTarget = left / -slope;
  }
  if (!std::isfinite(toTarget) && !std::isfinite(toLimit)) return {};
  char orders[32];
  std::snprintf(orders, sizeof orders, "%g orders", static_cast<double>(target_));
  return toTarget < toLimit ? "~" + duration_text(toTarget) + " to " + orders
                            : "~" + duration_text(toLimit) + " to the iteration limit";
}

std::string duration_text(double seconds) {
  char buf[32];
  if (seconds < 1) return "<1s";
  const long s = std::lround(seconds);
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  return buf;
}

} // namespace fv
