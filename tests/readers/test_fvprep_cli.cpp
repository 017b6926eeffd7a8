// The fvprep command line: verbosity and usage.
#include "tests/readers/fvprep_run.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <string>

using fv::testing::Box;
using fv::testing::expect_clean_error;
using fv::testing::run_fvprep;
using fv::testing::RunResult;

namespace {

TEST(FvprepCli, QuietAndVerbose) {
  const std::string f = fv::testing::scratch_dir() + "/ho.cgns";
  fv::testing::write_box_higher_order_cgns(f, Box{});
  const RunResult normal = run_fvprep("info " + f);
  EXPECT_EQ(normal.exitCode, 0);
  EXPECT_NE(normal.err.find("warning: "), std::string::npos) << normal.err;
  const RunResult quiet = run_fvprep("info -q " + f);
  EXPECT_EQ(quiet.exitCode, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_NE(quiet.out.find("HEXA_27"), std::string::npos); // still listed in the summary
  const RunResult verbose = run_fvprep("-v info " + f);
  EXPECT_EQ(verbose.exitCode, 0);
  EXPECT_NE(verbose.err.find("building faces"), std::string::npos) << verbose.err;
}

TEST(FvprepCli, PrepareNeedsOutput) {
  const std::string f = fv::testing::scratch_dir() + "/ok.su2";
  fv::testing::write_text(f, fv::testing::su2_box(Box{}));
  expect_clean_error(run_fvprep(f), {"-o"}, 2);
}

} // namespace
