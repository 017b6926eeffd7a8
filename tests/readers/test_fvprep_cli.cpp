// The fvprep command line: verbosity, and the refusals of options that would lose data or
// write a zone file fvprep check rejects (issue 50).
#include "tests/readers/fvprep_run.hpp"
#include "tests/readers/mesh_writers.hpp"
#include "tests/testing/testing.hpp"

#include <cgnslib.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

extern char** environ;

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

/// Starts fvprep with `args` (no shell), stdout and stderr into DIR/out.txt and DIR/err.txt.
pid_t spawn_fvprep(const std::vector<std::string>& args, const std::string& dir) {
  std::vector<std::string> all = {FVPREP_EXE};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  const std::string out = dir + "/out.txt", err = dir + "/err.txt";
  posix_spawn_file_actions_addopen(&io, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&io, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, FVPREP_EXE, &io, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&io);
  return pid;
}

/// Whether process `pid` has a handler for SIGABRT: METIS (GKlib) sets one while it partitions
/// (with SIGTERM's), fvprep none.
bool catches_sigabrt(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("SigCgt:", 0) == 0)
      return (std::stoull(line.substr(7), nullptr, 16) >> (SIGABRT - 1)) & 1;
  return false;
}

/// Runs fvprep with `args`, sends it SIGTERM as soon as METIS runs, and checks that it ends by
/// SIGTERM with one line and leaves no temporary in `dir`.
void stop_during_metis(const std::vector<std::string>& args, const std::string& dir) {
  const pid_t pid = spawn_fvprep(args, dir);
  ASSERT_GT(pid, 0);
  int status = 0;
  bool sent = false;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (!sent && catches_sigabrt(pid)) {
      kill(pid, SIGTERM);
      sent = true;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ASSERT_TRUE(sent) << "METIS was not seen running; a larger mesh is needed";
  const std::string err = fv::testing::read_text(dir + "/err.txt");
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit code " << WEXITSTATUS(status) << ": " << err;
  EXPECT_EQ(WTERMSIG(status), SIGTERM) << err; // not SIGSEGV
  // (a prepare's temporary is made after METIS: then there is none to remove)
  EXPECT_EQ(err.rfind("fvprep: stopped by SIGTERM", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

// Issue 50, item 3: SIGTERM while METIS partitions (it installs a handler of its own) ends
// fvprep cleanly: by SIGTERM, one line, no temporary, the zone file as it was.
TEST(FvprepCli, StopDuringMetisIsClean) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string mesh = dir + "/m.cgns", zones = dir + "/m.zones.h5";
  ASSERT_EQ(std::system((std::string(FVGEN_EXE) + " box --cells tet --n 24,24,24 -q -o " + mesh +
                         " >/dev/null")
                            .c_str()),
            0);
  const RunResult one = run_fvprep(mesh + " -q -o " + zones);
  ASSERT_EQ(one.exitCode, 0) << one.err;
  const std::string before = fv::testing::read_text(zones);
  {
    SCOPED_TRACE("prepare");
    stop_during_metis({mesh, "--parts", "64", "-o", dir + "/new.zones.h5"}, dir);
    EXPECT_FALSE(std::filesystem::exists(dir + "/new.zones.h5"));
  }
  {
    SCOPED_TRACE("partition add");
    stop_during_metis({"partition", "add", zones, "--parts", "64"}, dir);
    EXPECT_EQ(fv::testing::read_text(zones), before);
  }
}

// Issue 50, item 18: zones of different families (a conjugate-heat-transfer mesh's fluid and
// solid) are merged with one warning that suggests --zone; one family, or --zone, none.
TEST(FvprepCli, MergingZonesOfSeveralFamiliesWarns) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string f = dir + "/cht.cgns";
  fv::testing::write_two_zone_cgns(f, true);
  const auto set_families = [&](const char* left, const char* right) {
    int fn = -1;
    ASSERT_EQ(cg_open(f.c_str(), CG_MODE_MODIFY, &fn), CG_OK);
    const char* fam[2] = {left, right};
    for (int z = 1; z <= 2; ++z) {
      ASSERT_EQ(cg_goto(fn, 1, "Zone_t", z, "end"), CG_OK);
      ASSERT_EQ(cg_famname_write(fam[z - 1]), CG_OK);
    }
    cg_close(fn);
  };
  set_families("fluid", "solid");
  const RunResult both = run_fvprep("info " + f);
  EXPECT_EQ(both.exitCode, 0) << both.err;
  EXPECT_NE(both.err.find("merging zones of 2 families into one mesh (left: fluid, right: solid)"),
            std::string::npos)
      << both.err;
  EXPECT_NE(both.err.find("--zone NAME"), std::string::npos) << both.err;
  const RunResult one = run_fvprep("info --zone left " + f);
  EXPECT_EQ(one.err.find("families"), std::string::npos) << one.err;
  set_families("fluid", "fluid");
  const RunResult same = run_fvprep("info " + f);
  EXPECT_EQ(same.err.find("families"), std::string::npos) << same.err;
}

// Issue 50, items 17 and 18: -q prints errors only (a prepare's and a partition add's summary
// included), and --help names every mesh format.
TEST(FvprepCli, QuietPrepareIsSilentAndHelpNamesPlot3d) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string mesh = dir + "/m.su2", zones = dir + "/m.zones.h5";
  fv::testing::write_text(mesh, fv::testing::su2_box(Box{}));
  const RunResult prep = run_fvprep(mesh + " -q -o " + zones);
  EXPECT_EQ(prep.exitCode, 0) << prep.err;
  EXPECT_EQ(prep.out + prep.err, "");
  const RunResult add = run_fvprep("partition add " + zones + " --parts 2 -q");
  EXPECT_EQ(add.exitCode, 0) << add.err;
  EXPECT_EQ(add.out + add.err, "");
  const RunResult loud = run_fvprep(mesh + " -o " + zones);
  EXPECT_NE(loud.out.find("wrote " + zones), std::string::npos) << loud.out;
  const RunResult help = run_fvprep("--help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("Plot3D"), std::string::npos) << help.out;
}

} // namespace

// Issue 50, item 14: a patch name as the mesh writes it (runs of spaces included) can be
// renamed as fvprep reads the mesh; a rename of no patch, or onto another patch, is refused.
TEST(FvprepCli, RenamePatchKeepsTheNameAsWritten) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string mesh = dir + "/square.su2";
  fv::testing::write_text(mesh, "NDIME= 2\nNELEM= 2\n5 0 1 2 0\n5 0 2 3 1\nNPOIN= 4\n"
                                "0 0 0\n1 0 1\n1 1 2\n0 1 3\nNMARK= 2\n"
                                "MARKER_TAG= Ilo_Seg   1\nMARKER_ELEMS= 2\n3 0 1\n3 1 2\n"
                                "MARKER_TAG= far\nMARKER_ELEMS= 2\n3 2 3\n3 3 0\n");
  const RunResult plain = run_fvprep("info " + mesh);
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  EXPECT_NE(plain.out.find("Ilo_Seg   1"), std::string::npos) << plain.out;
  const std::string zones = dir + "/square.zones.h5";
  const RunResult renamed =
      run_fvprep(mesh + " --extrude 1 --rename-patch 'Ilo_Seg   1=wall' -o " + zones + " -q");
  ASSERT_EQ(renamed.exitCode, 0) << renamed.err;
  const RunResult info = run_fvprep("info " + zones);
  EXPECT_NE(info.out.find("wall"), std::string::npos) << info.out;
  EXPECT_EQ(info.out.find("Ilo_Seg", info.out.find("\npatches")), std::string::npos)
      << info.out; // (the command line it shows keeps the option)
  // (item 18) whether the zone file holds the wall distance: info and check say it
  EXPECT_NE(info.out.find("wall distance none (fvprep --walls for RANS)"), std::string::npos);
  // (item 5) and the extrusion of the 2D mesh, which fvrun's 2D defaults come from
  EXPECT_NE(info.out.find("extrusion    2D mesh extruded by 1 along (0, 0, 1)"), std::string::npos)
      << info.out;
  const RunResult check = run_fvprep("check " + zones);
  EXPECT_NE(check.out.find("; no wall distance; 2D mesh extruded by 1 along (0, 0, 1))"),
            std::string::npos)
      << check.out;
  expect_clean_error(run_fvprep("info " + mesh + " --rename-patch 'Ilo_Seg 1=wall'"),
                     {"no patch 'Ilo_Seg 1'", "'Ilo_Seg   1', 'far'"}, 2);
  expect_clean_error(run_fvprep("info " + mesh + " --rename-patch 'Ilo_Seg   1=far'"),
                     {"already has a patch 'far'"}, 2);
  expect_clean_error(run_fvprep("info " + mesh + " --rename-patch far"), {"expected OLD=NEW"}, 2);
}
