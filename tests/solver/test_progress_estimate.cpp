// The time left in fvrun's progress lines (solver/progress_estimate.hpp): from the residual's
// slope to the convergence target, or from the time per iteration to the iteration limit.
#include "runtime/solver/progress_estimate.hpp"

#include <gtest/gtest.h>

using fv::ProgressEstimate;

TEST(ProgressEstimate, ResidualSlopeGivesTheTimeToTheTarget) {
  ProgressEstimate e(1000, 10); // limit far away
  EXPECT_EQ(e.text(), "");      // nothing measured yet
  for (int i = 1; i <= 20; ++i) // one order every 10 s: at -2 after 20 s, 8 orders to go
    e.add(i, i * 1.0, -0.1 * i);
  EXPECT_EQ(e.text(), "~1m20s to 10 orders");
}

TEST(ProgressEstimate, IterationLimitWhenItComesFirstOrTheResidualStalls) {
  ProgressEstimate e(40, 10);
  for (int i = 1; i <= 20; ++i) // 1 s per iteration, 20 left; the target is 80 s away
    e.add(i, i * 1.0, -0.1 * i);
  EXPECT_EQ(e.text(), "~20s to the iteration limit");
  ProgressEstimate stalled(100, 10);
  for (int i = 1; i <= 20; ++i) // rising residual: no convergence estimate
    stalled.add(i, i * 2.0, 0.01 * i);
  EXPECT_EQ(stalled.text(), "~2m40s to the iteration limit");
  ProgressEstimate noTarget(3600 + 10, 0); // a time-accurate run: the limit only
  noTarget.add(10, 10.0, -1);
  EXPECT_EQ(noTarget.text(), "~1h00m to the iteration limit");
}

TEST(ProgressEstimate, Durations) {
  EXPECT_EQ(fv::duration_text(0.2), "<1s");
  EXPECT_EQ(fv::duration_text(42.4), "42s");
  EXPECT_EQ(fv::duration_text(185), "3m05s");
  EXPECT_EQ(fv::duration_text(7620), "2h07m");
}
