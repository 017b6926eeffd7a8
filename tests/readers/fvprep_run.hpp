#pragma once
/// \file fvprep_run.hpp
/// Runs the fvprep binary (FVPREP_EXE, tests/readers/CMakeLists.txt) from a test and checks
/// its one-line errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace fv::testing {

/// How a run of fvprep ended, with what it printed.
struct RunResult {
  int exitCode = -1;
  bool signalled = false;
  std::string out, err;
};

inline std::string read_text(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// `fvprep ARGS` through the shell, stdout and stderr captured in the test's scratch folder.
inline RunResult run_fvprep(const std::string& args) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = std::string(FV_BINARY_DIR) + "/test-scratch/" + info->test_suite_name() +
                          "." + info->name() + ".run";
  std::filesystem::create_directories(dir);
  const std::string cmd =
      std::string(FVPREP_EXE) + " " + args + " >" + dir + "/out.txt 2>" + dir + "/err.txt";
  const int st = std::system(cmd.c_str());
  RunResult r;
  r.signalled = WIFSIGNALED(st);
  r.exitCode = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = read_text(dir + "/out.txt");
  r.err = read_text(dir + "/err.txt");
  return r;
}

/// Exit code 1 (or `code`), stderr one "fvprep: error:" line containing every `needles`.
inline void expect_clean_error(const RunResult& r, std::initializer_list<const char*> needles,
                               int code = 1) {
  EXPECT_FALSE(r.signalled);
  EXPECT_EQ(r.exitCode, code) << r.err;
  // the error is the last line; earlier lines may only be warnings
  std::string last = r.err;
  while (!last.empty() && last.back() == '\n')
    last.pop_back();
  last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
  EXPECT_EQ(last.rfind("fvprep: error: ", 0), 0u) << r.err;
  for (const char* n : needles)
    EXPECT_NE(last.find(n), std::string::npos) << n << " in: " << last;
}

} // namespace fv::testing
