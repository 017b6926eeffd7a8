#include "common/log.hpp"

#include <gtest/gtest.h>

TEST(Log, PhasePrintsNameTimingCpuTimeAndPeakMemory) {
  fv::log::set_level(fv::log::Level::Info);
  testing::internal::CaptureStderr();
  {
    fv::log::Phase p("building faces");
    p.note("12 faces");
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("\xE2\x80\xA2 building faces ("), std::string::npos) << err;
  EXPECT_NE(err.find(" s, CPU "), std::string::npos) << err;
  EXPECT_NE(err.find(" s sys, peak "), std::string::npos) << err;
  EXPECT_NE(err.find(" GiB): 12 faces"), std::string::npos) << err;
}

TEST(Log, QuietSuppressesInfoButNotReturnValues) {
  fv::log::set_level(fv::log::Level::Quiet);
  testing::internal::CaptureStderr();
  FV_LOG_INFO("hidden");
  FV_LOG_WARN("hidden too");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  fv::log::set_level(fv::log::Level::Info);
}

TEST(Log, ProgressWithoutTerminalPrintsPeriodicLines) {
  fv::log::set_level(fv::log::Level::Info);
  testing::internal::CaptureStderr(); // stderr is a pipe here, not a terminal
  {
    fv::log::Progress bar("reading", 1000);
    for (int i = 0; i <= 1000; ++i)
      bar.update(i);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("reading: 0%"), std::string::npos) << err;
  EXPECT_NE(err.find("reading: 100%"), std::string::npos) << err;
  EXPECT_EQ(err.find('\r'), std::string::npos) << "no carriage returns without a terminal";
  EXPECT_LE(std::count(err.begin(), err.end(), '\n'), 11);
}

TEST(Log, WarnIsPrefixed) {
  testing::internal::CaptureStderr();
  FV_LOG_WARN("higher-order element uses corners only");
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "warning: higher-order element uses corners only\n");
}
