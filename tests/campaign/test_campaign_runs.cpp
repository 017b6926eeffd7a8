// fvrun campaigns end to end (issue 49; runs fvgen, fvprep and fvrun): a sweep's rows equal
// single cold runs, a failed point is reported and skipped, an interrupted campaign resumed
// by the same command equals an uninterrupted one, another campaign's polar.csv is refused,
// bad --sweep specifications are one-line usage errors, a campaign runs on two ranks (every
// point on both, or --sweep-groups: a group of ranks per share of the points), and
// fixed lift converges on the NACA 0012 (../shared/meshes; skipped when absent).
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read_file(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// The command line of a program of the build with `args`, run in `dir` (OMP_NUM_THREADS=1;
/// a sanitizer build unwinds Open MPI's allocations fully, as tests/solver/test_fvrun_cli.cpp).
std::string command(const std::string& dir, const std::string& program, const std::string& args) {
  return "cd '" + dir +
         "' && OMP_NUM_THREADS=1 "
         "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0\" " +
         program + " " + args;
}

/// Runs a program; returns its exit code, its stderr in `err`.
int run(const std::string& dir, const std::string& program, const std::string& args,
        std::string& err) {
  const std::string errPath = dir + "/stderr.txt";
  const int status =
      std::system((command(dir, program, args) + " > /dev/null 2> '" + errPath + "'").c_str());
  err = read_file(errPath);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int fvrun(const std::string& dir, const std::string& args, std::string& err) {
  return run(dir, "'" FV_FVRUN_PATH "'", args, err);
}

/// polar.csv's rows by folder: column name -> text.
using Rows = std::map<std::string, std::map<std::string, std::string>>;
Rows polar_rows(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::vector<std::string> head;
  Rows rows;
  auto split = [](const std::string& l) {
    std::vector<std::string> v;
    std::string item;
    std::istringstream s(l);
    while (std::getline(s, item, ','))
      v.push_back(item);
    return v;
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (head.empty()) {
      head = split(line);
      continue;
    }
    const std::vector<std::string> v = split(line);
    std::map<std::string, std::string> r;
    for (std::size_t k = 0; k < v.size() && k < head.size(); ++k)
      r[head[k]] = v[k];
    rows[r["folder"]] = r;
  }
  return rows;
}

/// The last row's value of `column` in a history.csv.
double history_last(const std::string& path, const std::string& column) {
  std::istringstream in(read_file(path));
  std::string line, head, last;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (head.empty())
      head = line;
    else
      last = line;
  }
  std::istringstream h(head), v(last);
  std::string name, value;
  while (std::getline(h, name, ',') && std::getline(v, value, ','))
    if (name == column) return std::strtod(value.c_str(), nullptr);
  ADD_FAILURE() << "no column " << column << " in " << path;
  return std::nan("");
}

/// Lines of `err` that say "error" (a message is one line; the log's progress lines are others).
int error_lines(const std::string& err) {
  std::istringstream in(err);
  std::string line;
  int n = 0;
  while (std::getline(in, line))
    n += line.find("error") != std::string::npos;
  return n;
}

/// polar.csv without its seconds column (what a resumed campaign must reproduce exactly).
std::string without_seconds(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line, out;
  int secs = -1;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') {
      std::vector<std::string> v;
      std::string item;
      std::istringstream s(line);
      while (std::getline(s, item, ','))
        v.push_back(item);
      if (secs < 0)
        for (std::size_t k = 0; k < v.size(); ++k)
          if (v[k] == "seconds") secs = static_cast<int>(k);
      if (secs >= 0) v.erase(v.begin() + secs);
      line.clear();
      for (const std::string& x : v)
        line += x + ",";
    }
    out += line + "\n";
  }
  return out;
}

/// A supersonic wedge (fvgen) at Mach 2: converges in a few dozen Newton iterations.
std::string wedge_case(int iterations) {
  return R"([freestream]
mach = 2.0
lift_axis = y
[time]
iterations = )" +
         std::to_string(iterations) +
         R"(
convergence = 10
[monitor]
output_dir = out
)" + std::string(fv::testing::kSupersonicWedgePatches);
}

class Campaign : public ::testing::Test {
 protected:
  /// The wedge prepared once for every test: 1 and 2 parts, and a finer one (interruption).
  static void SetUpTestSuite() {
    // one folder per process: CTest runs each test in a process of its own, several at once
    meshes_ =
        fs::path(FV_BINARY_DIR) / "test-scratch" / ("Campaign.meshes." + std::to_string(getpid()));
    fs::remove_all(meshes_);
    fs::create_directories(meshes_);
    std::string err;
    const std::string gen = "'" FV_FVGEN_PATH "' wedge -q", prep = "'" FV_FVPREP_PATH "'";
    for (const auto& [name, n] :
         {std::pair<std::string, std::string>{"w", "32,20,1"}, {"fine", "96,60,1"}}) {
      ASSERT_EQ(run(meshes_, gen, "--n " + n + " -o " + name + ".cgns", err), 0) << err;
      ASSERT_EQ(run(meshes_, prep, name + ".cgns -q -o " + name + ".zones.h5", err), 0) << err;
    }
    ASSERT_EQ(run(meshes_, prep, "w.cgns -q --parts 2 -o w2.zones.h5", err), 0) << err;
  }
  static void TearDownTestSuite() { fs::remove_all(meshes_); }
  void SetUp() override {
    dir_ = fv::testing::scratch_dir();
    std::ofstream(dir_ + "/case.ini") << wedge_case(200);
  }
  static std::string zones(const std::string& name) {
    return (meshes_ / (name + ".zones.h5")).string();
  }
  /// fvrun on 2 ranks under mpiexec, as run() takes a program (with `exec` first for a process
  /// the test signals); empty when there is no mpiexec.
  std::string two_rank_fvrun(bool exec = false) const {
    const std::string exe = MPIEXEC_PATH[0] ? MPIEXEC_PATH : "mpiexec";
    std::string err;
    if (run(dir_, exe, "--version", err) != 0) return "";
    return std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
           (exec ? "exec " : "") + exe + " -n 2 --oversubscribe '" FV_FVRUN_PATH "'";
  }
  static fs::path meshes_;
  std::string dir_;
};
fs::path Campaign::meshes_;

} // namespace

// Every row of a Mach sweep equals a cold single run at its value (CL, CD to 1e-8 relative,
// the convergence 10 orders): a warm start converges to the same solution. Each point's
// folder holds its outputs; the later points start warm from the nearest point.
TEST_F(Campaign, SweepRowsEqualColdRuns) {
  std::string err;
  ASSERT_EQ(fvrun(dir_, zones("w") + " -c case.ini --device cpu --sweep mach=2,2.5,2.25", err), 0)
      << err;
  const Rows rows = polar_rows(dir_ + "/out/polar.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows.at("mach_2").at("warm_source"), "cold");
  EXPECT_EQ(rows.at("mach_2.5").at("warm_source"), "mach_2");
  EXPECT_EQ(rows.at("mach_2.25").at("warm_source"), "mach_2"); // a tie: the earlier point
  for (const char* f :
       {"history.csv", "restart.h5", "case.resolved.ini", "solution.h5", "surface_lower_wall.csv"})
    EXPECT_TRUE(fs::exists(dir_ + "/out/mach_2.5/" + f)) << f;
  for (const auto& [folder, r] : rows) {
    EXPECT_EQ(r.at("converged"), "yes") << folder;
    EXPECT_EQ(r.at("status"), "converged") << folder;
    EXPECT_GE(std::strtod(r.at("orders").c_str(), nullptr), 10.0) << folder;
    const std::string cold = dir_ + "/cold_" + folder;
    ASSERT_EQ(fvrun(dir_,
                    zones("w") + " -c case.ini --device cpu --output-dir " + cold +
                        " --set freestream.mach=" + r.at("mach"),
                    err),
              0)
        << err;
    for (const char* c : {"CL", "CD"}) {
      const double want = history_last(cold + "/history.csv", c);
      const double got = std::strtod(r.at(c).c_str(), nullptr);
      EXPECT_NEAR(got, want, 1e-8 * std::abs(want)) << folder << " " << c;
    }
  }
}

// A point that fails (Mach 1000: no convergence within the iterations, warm or cold) is tried
// warm, then cold, and reported failed; one whose warm start does not converge within the
// iterations (Mach 0.3 from Mach 2's flow) converges when retried cold. The campaign goes on
// (the last point starts warm from a converged one) and fvrun exits with 1. plot_polar.py draws
// the table.
TEST_F(Campaign, FailedPointIsReportedAndSkipped) {
  std::ofstream(dir_ + "/case.ini") << wedge_case(40);
  std::string err;
  EXPECT_EQ(fvrun(dir_, zones("w") + " -c case.ini --device cpu --sweep mach=2,1000,0.3,2.5", err),
            1)
      << err;
  const Rows rows = polar_rows(dir_ + "/out/polar.csv");
  ASSERT_EQ(rows.size(), 4u);
  const auto& bad = rows.at("mach_1000");
  EXPECT_EQ(bad.at("converged"), "no");
  EXPECT_EQ(bad.at("status"), "failed");
  EXPECT_NE(err.find("the warm start from mach_2 failed"), std::string::npos) << err;
  EXPECT_NE(err.find("point 2/4 mach_1000: failed"), std::string::npos) << err;
  const auto& retried = rows.at("mach_0.3");
  EXPECT_EQ(retried.at("converged"), "yes");
  EXPECT_EQ(retried.at("status"), "retried");
  EXPECT_EQ(retried.at("warm_source"), "cold");
  EXPECT_GT(std::stoi(retried.at("iterations")), 40); // the warm try's 40 and the cold one's
  EXPECT_EQ(rows.at("mach_2.5").at("status"), "converged");
  EXPECT_EQ(rows.at("mach_2.5").at("warm_source"), "mach_2");
  EXPECT_NE(err.find("3 of 4 points converged"), std::string::npos) << err;

  // scripts/plot_polar.py draws it (the failed point as a cross)
  std::string python;
  for (const char* py : {"python3", "/usr/bin/python3"})
    if (python.empty() &&
        std::system((std::string(py) + " -c 'import matplotlib' > /dev/null 2>&1").c_str()) == 0)
      python = py;
  if (python.empty()) GTEST_SKIP() << "no python3 with matplotlib: polar.png not drawn";
  ASSERT_EQ(
      run(dir_, python, "'" FV_SOURCE_DIR "/scripts/plot_polar.py' out/polar.csv -o p.png", err), 0)
      << err;
  const std::string png = read_file(dir_ + "/p.png");
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

// SIGTERM in the middle of a campaign: the process ends non-zero with polar.csv holding the
// points finished; the same command finishes the campaign, and its polar.csv equals an
// uninterrupted one's but for the seconds.
TEST_F(Campaign, ResumeAfterSigtermEqualsUninterrupted) {
  const std::string args = zones("fine") + " -c case.ini --device cpu --sweep mach=2,2.5,3,3.5";
  std::string err;
  ASSERT_EQ(fvrun(dir_, args + " --output-dir whole", err), 0) << err;

  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cmd = command(dir_, "exec '" FV_FVRUN_PATH "'", args) + " > /dev/null 2> '" +
                            dir_ + "/interrupted.txt'";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string polar = dir_ + "/out/polar.csv";
  const auto t0 = std::chrono::steady_clock::now();
  while (polar_rows(polar).empty() &&
         std::chrono::steady_clock::now() - t0 < std::chrono::minutes(2))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::size_t done = polar_rows(polar).size();
  EXPECT_GE(done, 1u);
  EXPECT_LT(done, 4u) << "the campaign finished before the signal: nothing was interrupted";

  ASSERT_EQ(fvrun(dir_, args, err), 0) << err;
  EXPECT_NE(err.find(std::to_string(done) + " of 4 points finished"), std::string::npos) << err;
  EXPECT_EQ(without_seconds(polar), without_seconds(dir_ + "/whole/polar.csv"));
}

// polar.csv of another campaign (other values) or another case is refused in one line.
TEST_F(Campaign, RefusesAnotherCampaignsPolar) {
  std::string err;
  ASSERT_EQ(fvrun(dir_, zones("w") + " -c case.ini --device cpu --sweep mach=2", err), 0) << err;
  for (const char* other : {"--sweep mach=2,3", "--sweep mach=2 --set time.convergence=9"}) {
    EXPECT_EQ(fvrun(dir_, zones("w") + " -c case.ini --device cpu " + other, err), 1) << other;
    EXPECT_NE(err.find("is of another campaign"), std::string::npos) << err;
    EXPECT_EQ(error_lines(err), 1) << err;
  }
}

// Bad --sweep specifications and what cannot be swept are one-line usage errors (exit 2).
TEST_F(Campaign, BadSweepSpecificationsAreUsageErrors) {
  for (const char* bad :
       {"--sweep foo=1", "--sweep aoa", "--sweep aoa=", "--sweep aoa=1:2", "--sweep aoa=1,,2",
        "--sweep aoa=0:1:0", "--sweep aoa=1 --sweep aoa=2", "--sweep mach=-1,2",
        "--sweep reynolds=1e6", "--sweep mach=2,3 --restart x.h5", "--sweep-groups 2",
        "--sweep mach=2,3 --sweep-groups 2", "--sweep mach=2 --sweep-groups 0"}) {
    std::string err;
    EXPECT_EQ(fvrun(dir_, zones("w") + " -c case.ini --device cpu " + bad, err), 2) << bad;
    EXPECT_EQ(error_lines(err), 1) << bad << ": " << err;
  }
}

// Every point runs on all ranks: a campaign on 2 ranks gives the rows of one rank.
TEST_F(Campaign, RunsOnTwoRanks) {
  const std::string mpi = two_rank_fvrun();
  if (mpi.empty()) GTEST_SKIP() << "no mpiexec";
  std::string err;
  ASSERT_EQ(fvrun(dir_,
                  zones("w") + " -c case.ini --device cpu --sweep mach=2,2.5 --output-dir one",
                  err),
            0)
      << err;
  ASSERT_EQ(run(dir_, mpi,
                zones("w2") + " -c case.ini --device cpu --sweep mach=2,2.5 --output-dir two", err),
            0)
      << err;
  const Rows one = polar_rows(dir_ + "/one/polar.csv"), two = polar_rows(dir_ + "/two/polar.csv");
  ASSERT_EQ(two.size(), 2u);
  for (const auto& [folder, r] : one) {
    EXPECT_EQ(two.at(folder).at("status"), "converged");
    EXPECT_EQ(two.at(folder).at("warm_source"), r.at("warm_source"));
    for (const char* c : {"CL", "CD"}) {
      const double a = std::strtod(r.at(c).c_str(), nullptr);
      EXPECT_NEAR(std::strtod(two.at(folder).at(c).c_str(), nullptr), a, 1e-9 * std::abs(a))
          << folder << " " << c;
    }
  }
}

/// The lines of polar.csv (or a group file) that are rows, in file order.
std::vector<std::string> row_lines(const std::string& path) {
  std::istringstream in(read_file(path));
  std::vector<std::string> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) rows.push_back(line);
    header = false;
  }
  return rows;
}

// --sweep-groups 2 on 2 ranks: each rank runs half of the points on the 1-zone partitioning;
// polar.csv holds every row in the sweep order and equals one rank's (CL, CD to 1e-10
// relative, converged; the second group's first point starts cold), the group files are gone.
// A campaign interrupted with rows in polar.csv and a group file resumes from both.
TEST_F(Campaign, RankGroupsShareThePoints) {
  const std::string mpi = two_rank_fvrun();
  if (mpi.empty()) GTEST_SKIP() << "no mpiexec";
  std::string err;
  std::string deep = wedge_case(200); // 12 orders: a cold and a warm start agree to 1e-10
  deep.replace(deep.find("convergence = 10"), 16, "convergence = 12");
  std::ofstream(dir_ + "/case.ini") << deep;
  const std::string sweep = zones("w") + " -c case.ini --device cpu --sweep mach=2,2.25,2.5,2.75";
  ASSERT_EQ(fvrun(dir_, sweep + " --output-dir one", err), 0) << err;
  ASSERT_EQ(run(dir_, mpi, sweep + " --sweep-groups 2 --output-dir two", err), 0) << err;
  EXPECT_NE(err.find("4 of 4 points converged"), std::string::npos) << err;
  const Rows one = polar_rows(dir_ + "/one/polar.csv"), two = polar_rows(dir_ + "/two/polar.csv");
  ASSERT_EQ(two.size(), 4u);
  for (const auto& [folder, r] : one) {
    EXPECT_EQ(two.at(folder).at("converged"), r.at("converged")) << folder;
    for (const char* c : {"CL", "CD"}) {
      const double a = std::strtod(r.at(c).c_str(), nullptr);
      EXPECT_NEAR(std::strtod(two.at(folder).at(c).c_str(), nullptr), a, 1e-10 * std::abs(a))
          << folder << " " << c;
    }
  }
  EXPECT_EQ(two.at("mach_2").at("warm_source"), "cold");
  EXPECT_EQ(two.at("mach_2.25").at("warm_source"), "mach_2");
  EXPECT_EQ(two.at("mach_2.5").at("warm_source"), "cold"); // the second group's first point
  EXPECT_EQ(two.at("mach_2.75").at("warm_source"), "mach_2.5");
  const std::vector<std::string> lines = row_lines(dir_ + "/two/polar.csv");
  ASSERT_EQ(lines.size(), 4u);
  const char* order[] = {"mach_2", "mach_2.25", "mach_2.5", "mach_2.75"};
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_EQ(lines[k].substr(lines[k].rfind(',') + 1), order[k]);
  EXPECT_FALSE(fs::exists(dir_ + "/two/polar.group1.csv"));

  // an interrupted campaign: mach_2 in polar.csv, mach_2.5 in the group file
  const std::string full = read_file(dir_ + "/two/polar.csv");
  std::ofstream(dir_ + "/whole.csv") << full;
  const std::string head = full.substr(0, full.find(lines[0]));
  std::ofstream(dir_ + "/two/polar.csv") << head << lines[0] << "\n";
  std::ofstream(dir_ + "/two/polar.group1.csv") << head << lines[2] << "\n";
  ASSERT_EQ(run(dir_, mpi, sweep + " --sweep-groups 2 --output-dir two", err), 0) << err;
  EXPECT_NE(err.find("2 of 4 points finished"), std::string::npos) << err;
  EXPECT_EQ(without_seconds(dir_ + "/two/polar.csv"), without_seconds(dir_ + "/whole.csv"));
  EXPECT_FALSE(fs::exists(dir_ + "/two/polar.group1.csv"));
}

// SIGTERM to mpiexec during a --sweep-groups campaign: every group ends its point, fvrun exits
// non-zero with the finished rows in polar.csv (or a group file); the same command finishes the
// campaign from them, every point converged and the group files gone.
TEST_F(Campaign, RankGroupsResumeAfterSigterm) {
  const std::string mpi = two_rank_fvrun(true);
  if (mpi.empty()) GTEST_SKIP() << "no mpiexec";
  std::string err;
  const std::string args =
      zones("fine") + " -c case.ini --device cpu --sweep mach=2,2.5,3,3.5 --sweep-groups 2";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cmd =
        command(dir_, mpi, args) + " > /dev/null 2> '" + dir_ + "/interrupted.txt'";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string polar = dir_ + "/out/polar.csv", group = dir_ + "/out/polar.group1.csv";
  auto finished = [&] { return polar_rows(polar).size() + polar_rows(group).size(); };
  const auto t0 = std::chrono::steady_clock::now();
  while (finished() == 0 && std::chrono::steady_clock::now() - t0 < std::chrono::minutes(2))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::size_t done = finished();
  EXPECT_GE(done, 1u);
  EXPECT_LT(done, 4u) << "the campaign finished before the signal: nothing was interrupted";

  ASSERT_EQ(run(dir_, mpi, args, err), 0) << err;
  EXPECT_NE(err.find(std::to_string(done) + " of 4 points finished"), std::string::npos) << err;
  const Rows rows = polar_rows(polar);
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& [folder, r] : rows)
    EXPECT_EQ(r.at("converged"), "yes") << folder;
  EXPECT_FALSE(fs::exists(group));
}

// --sweep-groups that does not divide the ranks, or whose group size the zone file holds no
// partitioning for, is a one-line usage error naming the way out.
TEST_F(Campaign, RankGroupsUsageErrors) {
  const std::string mpi = two_rank_fvrun();
  if (mpi.empty()) GTEST_SKIP() << "no mpiexec";
  std::string err;
  const std::string sweep = " -c case.ini --device cpu --sweep mach=2,2.5 --sweep-groups ";
  EXPECT_EQ(run(dir_, mpi, zones("w") + sweep + "3", err), 2) << err;
  EXPECT_NE(err.find("does not divide the 2 MPI ranks"), std::string::npos) << err;
  EXPECT_EQ(error_lines(err), 1) << err;
  EXPECT_EQ(run(dir_, mpi, zones("w2") + sweep + "2", err), 2) << err; // 2 parts, groups of 1
  EXPECT_NE(err.find("the file's partitionings: 2 zones"), std::string::npos) << err;
  EXPECT_NE(err.find("fvprep partition add " + zones("w2") + " --parts 1"), std::string::npos)
      << err;
  EXPECT_EQ(error_lines(err), 1) << err;
}

// A Mach sweep at fixed lift: every point reaches the target CL (the wedge's lift slope, about
// 0.5 per radian, is measured by the secant steps), the later ones from the alpha their warm
// source found; alpha and dCL/dalpha are in polar.csv.
TEST_F(Campaign, MachSweepAtFixedLift) {
  std::string err;
  ASSERT_EQ(fvrun(dir_,
                  zones("w") + " -c case.ini --device cpu --set freestream.target_cl=-0.07 "
                               "--sweep mach=2,2.2,2.4",
                  err),
            0)
      << err;
  const Rows rows = polar_rows(dir_ + "/out/polar.csv");
  ASSERT_EQ(rows.size(), 3u);
  double previous = 1e9;
  for (const char* folder : {"mach_2", "mach_2.2", "mach_2.4"}) {
    const auto& r = rows.at(folder);
    EXPECT_EQ(r.at("status"), "converged") << folder;
    EXPECT_NEAR(std::strtod(r.at("CL").c_str(), nullptr), -0.07, 1e-6) << folder;
    const double alpha = std::strtod(r.at("alpha").c_str(), nullptr);
    EXPECT_LT(alpha, previous) << folder; // less incidence at a higher Mach number
    previous = alpha;
    const double slope = std::strtod(r.at("dCL_dalpha").c_str(), nullptr);
    EXPECT_GT(slope, 0.1) << folder;
    EXPECT_LT(slope, 2.0) << folder;
  }
  EXPECT_EQ(rows.at("mach_2.4").at("warm_source"), "mach_2.2");
}

// Fixed lift on the NACA 0012 at M 0.8 (issue 49): target_cl = 0.3 is reached within 1e-5
// with the residual 8 orders down (CI's depth; README's example converges 10), alpha and
// dCL/dalpha in history.csv and the log.
TEST_F(Campaign, FixedLiftConvergesOnNaca0012) {
  const std::string mesh = fv::testing::shared_mesh("su2/naca0012_inv_su2.su2");
  if (mesh.empty()) GTEST_SKIP() << "../shared/meshes absent";
  std::string err;
  ASSERT_EQ(
      run(dir_, "'" FV_FVPREP_PATH "'", "'" + mesh + "' --extrude 1 -q -o naca.zones.h5", err), 0)
      << err;
  std::ofstream(dir_ + "/naca.ini") << R"([freestream]
mach = 0.8
aoa = 1.25
lift_axis = y
target_cl = 0.3
[time]
iterations = 200
convergence = 8
[monitor]
output_dir = naca
[patch airfoil]
type = slip_wall
[patch farfield]
type = farfield
[patch symmetry]
type = symmetry
)";
  ASSERT_EQ(fvrun(dir_, "naca.zones.h5 -c naca.ini --device cpu", err), 0) << err;
  EXPECT_NE(err.find("converged after"), std::string::npos) << err;
  EXPECT_NE(err.find("fixed lift: CL"), std::string::npos) << err;
  EXPECT_NEAR(history_last(dir_ + "/naca/history.csv", "CL"), 0.3, 1e-5);
  const double alpha = history_last(dir_ + "/naca/history.csv", "aoa");
  EXPECT_GT(alpha, 0.9);
  EXPECT_LT(alpha, 1.25); // less lift than at 1.25 degrees
  EXPECT_GT(history_last(dir_ + "/naca/history.csv", "dcl_dalpha"), 0);
}
