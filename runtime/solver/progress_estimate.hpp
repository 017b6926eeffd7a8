#pragma once
/// \file progress_estimate.hpp
/// The time a run has left, for its progress lines: to the convergence target, from the slope
/// of the residual measure (log10 per second) over the last iterations, and to the iteration
/// limit, from the mean time per iteration; the earlier of the two.
#include "common/types.hpp"

#include <deque>
#include <string>

namespace fv {

class ProgressEstimate {
 public:
  /// maxIterations: the run's limit (from its start); targetOrders: the convergence target in
  /// orders (> 0), or 0 without one.
  ProgressEstimate(int maxIterations, real_t targetOrders)
      : max_(maxIterations), target_(targetOrders) {}
  /// After an iteration: iterations done in this run, seconds since its start, and log10 of
  /// the residual measure (the convergence criterion's value).
  void add(int done, double seconds, real_t logMeasure);
  /// "~2m10s to 10 orders", "~45s to the iteration limit", or "" before there is an estimate.
  std::string text() const;

 private:
  struct Sample {
    double seconds;
    real_t log;
  };
  int max_;
  real_t target_;
  int done_ = 0;
  double seconds_ = 0;
  std::deque<Sample> recent_; ///< the last kWindow iterations
  static constexpr std::size_t kWindow = 10;
};

/// "<1s", "42s", "3m05s", "2h07m".
std::string duration_text(double seconds);

} // namespace fv
