#include "common/error.hpp"
#include "common/main.hpp"

#include <gtest/gtest.h>

#include <algorithm>

TEST(Error, VerifyThrowsWithFormattedMessage) {
  const int cell = 42;
  try {
    FV_VERIFY(cell < 0, "cell " << cell << " has negative volume");
    FAIL() << "FV_VERIFY did not throw";
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.kind(), fv::ErrorKind::Runtime);
    EXPECT_EQ(e.exit_code(), 1);
    EXPECT_EQ(std::string(e.what()).rfind("cell 42 has negative volume", 0), 0u) << e.what();
  }
}

TEST(Error, VerifyPassesSilently) { EXPECT_NO_THROW(FV_VERIFY(1 + 1 == 2, "never")); }

TEST(Error, UsageErrorsExitWithTwo) {
  try {
    FV_VERIFY_USAGE(false, "unknown key 'cfl2'");
    FAIL();
  } catch (const fv::Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
  }
}

TEST(Error, RunMainMapsExceptionsToExitCodes) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(fv::run_main("prog", [] { return 0; }), 0);
  EXPECT_EQ(fv::run_main("prog", []() -> int { FV_THROW("broken file x.cgns"); }), 1);
  EXPECT_EQ(fv::run_main("prog", []() -> int { FV_VERIFY_USAGE(false, "bad flag"); return 0; }), 2);
  EXPECT_EQ(fv::run_main("prog", []() -> int { throw std::runtime_error("std"); }), 1);
  const std::string err = testing::internal::GetCapturedStderr();
  // (debug builds append " [file:line]" to the message)
  EXPECT_NE(err.find("prog: error: broken file x.cgns"), std::string::npos) << err;
  EXPECT_NE(err.find("prog: error: bad flag"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 3) << "one line per error: " << err;
}

#if defined(FV_DEBUG)
TEST(Error, AssertIsActiveInDebug) { EXPECT_THROW(FV_ASSERT(false, "x"), fv::Error); }
#else
TEST(Error, AssertIsCompiledOutInRelease) { EXPECT_NO_THROW(FV_ASSERT(false, "x")); }
#endif
