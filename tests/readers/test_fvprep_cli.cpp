// The fvprep command line: verbosity, and the refusals of options that would lose data or
// write a zone file fvprep check rejects (issue 50).
#include "tests/readers/fvprep_run.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <filesystem>
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

// Issue 50, item 10: -o never replaces an input (by its own name, a link or a hard link) nor
// anything but a regular file; the input is left as it was.
TEST(FvprepCli, OutputIsNeitherAnInputNorASpecialFile) {
  namespace fs = std::filesystem;
  const std::string dir = fv::testing::scratch_dir();
  const std::string mesh = dir + "/m.su2";
  fv::testing::write_text(mesh, fv::testing::su2_box(Box{}));
  const std::string before = fv::testing::read_text(mesh);
  expect_clean_error(run_fvprep(mesh + " -o " + mesh),
                     {"m.su2: is the input", "m.su2 (the zone file"}, 2);
  fs::create_symlink(mesh, dir + "/link.zones.h5");
  expect_clean_error(run_fvprep(mesh + " -o " + dir + "/link.zones.h5"), {"is the input"}, 2);
  fs::create_hard_link(mesh, dir + "/hard.zones.h5");
  expect_clean_error(run_fvprep(mesh + " -o " + dir + "/hard.zones.h5"), {"is the input"}, 2);
  EXPECT_EQ(fv::testing::read_text(mesh), before);
  EXPECT_TRUE(fs::is_symlink(dir + "/link.zones.h5"));

  // a device node (as /dev/null) or a directory is refused, and stays what it was
  expect_clean_error(run_fvprep(mesh + " -o /dev/null"), {"/dev/null", "not a regular file"}, 2);
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  expect_clean_error(run_fvprep(mesh + " -o " + dir), {"not a regular file"}, 2);

  // a regular file that is no input is replaced, as ever
  fv::testing::write_text(dir + "/old.zones.h5", "old");
  const RunResult ok = run_fvprep(mesh + " -q -o " + dir + "/old.zones.h5");
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
  EXPECT_NE(fv::testing::read_text(dir + "/old.zones.h5"), "old");
}

// Issue 50, item 10: --extrude is a finite thickness > 0 that the nodes can hold (2.2e-10 of
// the largest coordinate): 1e-300 used to write a zone file fvprep check rejected.
TEST(FvprepCli, ExtrusionIsValidated) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string mesh = dir + "/flat.cgns";
  fv::testing::write_2d_cgns(mesh, 4, 3);
  for (const char* bad : {"0", "-1", "nan", "inf"}) {
    SCOPED_TRACE(bad);
    expect_clean_error(run_fvprep(mesh + " --extrude " + bad + " -o " + dir + "/x.zones.h5"),
                       {"--extrude", "finite number > 0"}, 2);
  }
  expect_clean_error(run_fvprep(mesh + " --extrude 1e-300 -o " + dir + "/x.zones.h5"),
                     {"flat.cgns", "cannot extrude by 1e-300", "fvprep check"}, 2);
  expect_clean_error(run_fvprep("info --extrude -2 " + mesh), {"--extrude"}, 2);
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.zones.h5"));
  // a thin accepted thickness gives a zone file that passes fvprep check
  const RunResult thin = run_fvprep(mesh + " -q --extrude 1e-8 -o " + dir + "/thin.zones.h5");
  ASSERT_EQ(thin.exitCode, 0) << thin.err;
  const RunResult check = run_fvprep("check " + dir + "/thin.zones.h5");
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
}

} // namespace
