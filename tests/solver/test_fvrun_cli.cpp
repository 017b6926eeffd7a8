// fvrun end to end: zone file -> fvrun -> outputs, and the exit codes and messages of usage
// errors (runs the fvrun binary).
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/prepare.hpp"
#include "prep/zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <cctype>
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

std::string read_file(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Runs fvrun with `args` in `dir`; returns the exit code, stderr in `err`. In a sanitizer
/// build fvrun initialises Open MPI, whose allocations kept until exit LeakSanitizer suppresses
/// by library (tests/sanitizer/lsan.supp): the child unwinds every malloc fully
/// (fast_unwind_on_malloc=0, appended so that it wins), because Open MPI's frames have no frame
/// pointers; the tests themselves keep the faster default.
int fvrun(const std::string& dir, const std::string& args, std::string& err) {
  const std::string errPath = dir + "/stderr.txt";
  const std::string cmd =
      "cd '" + dir +
      "' && OMP_NUM_THREADS=1 "
      "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0\" '" FV_FVRUN_PATH
      "' " +
      args + " > /dev/null 2> '" + errPath + "'";
  const int status = std::system(cmd.c_str());
  err = read_file(errPath);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const std::string kCase = R"(
[freestream]
mach = 2.0
lift_axis = y
[time]
iterations = 30
[monitor]
output_interval = 10
output_dir = out
)" + std::string(fv::testing::kSupersonicWedgePatches);

class FvrunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fv::testing::scratch_dir();
    fv::GenOptions o;
    o.family = fv::MeshFamily::Wedge;
    o.n = {16, 10, 1};
    const fv::Mesh mesh = fv::generate_mesh(o);
    std::vector<fv::idx_t> part(mesh.nCells(), 0);
    const std::vector<fv::Zone> zones = fv::build_zones(mesh, part, 1, fv::PrepOptions{});
    fv::ZoneFileHeader h;
    h.nGlobalCells = zones[0].nCells;
    h.nGlobalFaces = zones[0].nFaces;
    h.nGlobalNodes = zones[0].nNodes;
    h.patches = mesh.patches;
    fv::write_zone_file(dir_ + "/wedge.zones.h5", h, zones);
    std::ofstream(dir_ + "/case.ini") << kCase;
  }
  /// wedge.zones.h5 as fvprep writes it: through prepare_zones, with the mesh UUID a restart
  /// names (SetUp's has none).
  void prepare_wedge() {
    fv::GenOptions o;
    o.family = fv::MeshFamily::Wedge;
    o.n = {16, 10, 1};
    const fv::Mesh mesh = fv::generate_mesh(o);
    fv::PrepareOptions po;
    fv::PreparedZones pz = fv::prepare_zones(mesh, fv::build_faces(mesh, po.prep.faces), po);
    fv::write_zone_file(dir_ + "/wedge.zones.h5", pz.header, pz.zones);
  }
  std::string dir_;
};

} // namespace

TEST_F(FvrunCli, RunsAndWritesOutputs) {
  std::string err;
  ASSERT_EQ(fvrun(dir_, "wedge.zones.h5 -c case.ini --device cpu --set time.cfl=1.2", err), 0)
      << err;
  EXPECT_NE(err.find("iteration limit after 30 iterations"), std::string::npos) << err;
  // the conditions once, what the residual columns are relative to, the time left
  EXPECT_NE(err.find("free stream: Mach 2, alpha 0 deg"), std::string::npos) << err;
  EXPECT_NE(err.find("coefficients: q "), std::string::npos) << err;
  EXPECT_NE(err.find("relative to the first iteration's"), std::string::npos) << err;
  EXPECT_NE(err.find("to the iteration limit"), std::string::npos) << err;
  const std::string hist = read_file(dir_ + "/out/history.csv");
  EXPECT_NE(hist.find("# cfl = 1.2"), std::string::npos); // the override is recorded
  EXPECT_NE(hist.find("\n30,"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/out/solution.h5"));
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/out/solution.xmf"));
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/out/case.resolved.ini"));
  // the wall surface as CSV and as VTK PolyData: one polygon per wall face, with its corners
  const std::string csv = read_file(dir_ + "/out/surface_lower_wall.csv");
  const std::string vtp = read_file(dir_ + "/out/surface_lower_wall.vtp");
  const auto faces = std::count(csv.begin(), csv.end(), '\n') - 1;
  ASSERT_GT(faces, 0);
  EXPECT_NE(vtp.find("NumberOfPolys=\"" + std::to_string(faces) + "\""), std::string::npos);
  EXPECT_NE(vtp.find("NumberOfPoints=\"" + std::to_string(4 * faces) + "\""), std::string::npos)
      << "the wedge's wall faces are quadrilaterals";
  EXPECT_NE(vtp.find("Name=\"Cp\""), std::string::npos);
  // command-line shorthands override the file
  ASSERT_EQ(fvrun(dir_, "wedge.zones.h5 -c case.ini --iterations 5 --output-dir o2 -q", err), 0)
      << err;
  EXPECT_NE(read_file(dir_ + "/o2/history.csv").find("\n5,"), std::string::npos);
  EXPECT_TRUE(err.empty()) << err; // --quiet
}

TEST_F(FvrunCli, UsageErrorsExitWithTwo) {
  std::string err;
  EXPECT_EQ(fvrun(dir_, "wedge.zones.h5 -c case.ini --set scheme.limiter=minmod", err), 2);
  EXPECT_NE(err.find("fvrun: error:"), std::string::npos) << err;
  EXPECT_NE(err.find("valid: venkat, barth, none"), std::string::npos) << err;

  std::ofstream(dir_ + "/missing.ini") << "[patch inlet]\ntype = supersonic_inflow\n";
  EXPECT_EQ(fvrun(dir_, "wedge.zones.h5 -c missing.ini", err), 2);
  EXPECT_NE(err.find("without a boundary condition: outlet, lower_wall, upper, side1, side2"),
            std::string::npos)
      << err;

  EXPECT_EQ(fvrun(dir_, "wedge.zones.h5 -c nonexistent.ini", err), 2);
  EXPECT_NE(err.find("cannot open case file"), std::string::npos) << err;

  EXPECT_EQ(fvrun(dir_, "wedge.zones.h5 -c case.ini --device tpu", err), 2);
  EXPECT_NE(err.find("valid: auto, cpu, cuda"), std::string::npos) << err;

  EXPECT_EQ(fvrun(dir_, "wedge.zones.h5", err), 2); // -c is required

  // a file that is not a zone file: runtime error, exit 1
  std::ofstream(dir_ + "/bogus.zones.h5") << "not hdf5";
  EXPECT_EQ(fvrun(dir_, "bogus.zones.h5 -c case.ini", err), 1);
  EXPECT_NE(err.find("bogus.zones.h5"), std::string::npos) << err;
}

// The shortcut options of case keys (--cfl, --iterations, --device, --output-dir, ...) hand
// their text to the key as written: parsed and checked as the case file's value would be, the
// message naming the command line and the key; an empty value is an error, not "not given".
TEST_F(FvrunCli, ShortcutOptionsTakeTheKeysText) {
  std::string err;
  const auto resolved = [&](const std::string& dir, const std::string& key) {
    std::istringstream in(read_file(dir_ + "/" + dir + "/case.resolved.ini"));
    for (std::string line; std::getline(in, line);)
      if (line.rfind(key + " = ", 0) == 0) return line.substr(key.size() + 3);
    return std::string("(missing)");
  };
  // a small CFL is not rounded to six decimals, a long one keeps every digit
  ASSERT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 1 --cfl 1e-7 "
                  "--output-dir tiny -q",
                  err),
            0)
      << err;
  EXPECT_EQ(std::strtod(resolved("tiny", "cfl").c_str(), nullptr), 1e-7) << resolved("tiny", "cfl");
  ASSERT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 1 "
                  "--cfl 0.1234567891 --output-dir long -q",
                  err),
            0)
      << err;
  EXPECT_EQ(std::strtod(resolved("long", "cfl").c_str(), nullptr), 0.1234567891)
      << resolved("long", "cfl");
  EXPECT_EQ(resolved("long", "iterations"), "1");
  // values the key refuses are usage errors naming the command line, the section and the key
  const struct {
    const char* args;
    const char* message;
  } bad[] = {
      {"--cfl 0", "command line: [time] cfl"},
      {"--cfl -1", "cfl must be > 0"},
      {"--cfl nan", "command line: [time] cfl"},
      {"--cfl fast", "is not a number"},
      {"--iterations -1", "command line: [time] iterations"},
      {"--iterations 2.5", "is not an integer >= 0"},
      {"--device ''", "command line: [run] device"},
      {"--device tpu", "valid: auto, cpu, cuda"},
      {"--output-dir ''", "command line: [monitor] output_dir"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.args);
    EXPECT_EQ(fvrun(dir_, std::string("wedge.zones.h5 -c case.ini ") + b.args, err), 2) << err;
    EXPECT_NE(err.find(b.message), std::string::npos) << err;
  }
  // the flags set their key's value, recorded like any other
  ASSERT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 1 --no-overlap "
                  "--comm-timing --output-dir flags -q",
                  err),
            0)
      << err;
  EXPECT_EQ(resolved("flags", "overlap"), "false");
  EXPECT_EQ(resolved("flags", "comm_timing"), "true");
  EXPECT_EQ(resolved("flags", "device"), "cpu");
}

TEST_F(FvrunCli, ProfileTableAndCsvWithoutSolution) {
  std::string err;
  ASSERT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 6 --output-dir prof "
                  "--profile --set monitor.write_solution=false --set time.integrator=ssprk3",
                  err),
            0)
      << err;
  EXPECT_NE(err.find("kernel profile (cpu"), std::string::npos) << err;
  EXPECT_NE(err.find("% iter"), std::string::npos) << err;
  EXPECT_NE(err.find("(outside kernels)"), std::string::npos) << err;
  const std::string csv = read_file(dir_ + "/prof/profile.csv");
  EXPECT_EQ(csv.rfind("label,calls,total_ms,percent_of_iteration,ns_per_cell_iteration\n", 0), 0u)
      << csv;
  // 3 stages x 6, the face loop reading stored face states (the default)
  EXPECT_NE(csv.find("\ninterior_state_fluxes,18,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("\ninterior_fluxes,"), std::string::npos) << csv;
  EXPECT_NE(read_file(dir_ + "/prof/history.csv").find("\n6,"), std::string::npos);
  EXPECT_NE(read_file(dir_ + "/prof/history.csv").find("# profile = true"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/prof/solution.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/prof/restart.h5"));
  // [scheme] face_states = off: the face loops reconstruct from the stored gradient, and the
  // history is the same, bit for bit
  ASSERT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 6 --output-dir prof_off "
                  "--profile --set monitor.write_solution=false --set time.integrator=ssprk3 "
                  "--set scheme.face_states=off",
                  err),
            0)
      << err;
  const std::string off = read_file(dir_ + "/prof_off/profile.csv");
  EXPECT_NE(off.find("\ninterior_fluxes,18,"), std::string::npos) << off;
  EXPECT_EQ(off.find("\ninterior_state_fluxes,"), std::string::npos) << off;
  const auto rows = [](const std::string& history) { // the rows but for their wall_s field
    std::istringstream in(history);
    std::string line, out;
    std::size_t wall = std::string::npos;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> fields;
      std::istringstream f(line);
      for (std::string v; std::getline(f, v, ',');)
        fields.push_back(v);
      if (wall == std::string::npos) // the header
        wall = static_cast<std::size_t>(std::find(fields.begin(), fields.end(), "wall_s") -
                                        fields.begin());
      for (std::size_t i = 0; i < fields.size(); ++i)
        if (i != wall) out += fields[i] + ",";
      out += "\n";
    }
    return out;
  };
  EXPECT_EQ(rows(read_file(dir_ + "/prof/history.csv")),
            rows(read_file(dir_ + "/prof_off/history.csv")));
}

// The outputs open in ParaView: the volume solution (XDMF) and the wall surface (VTK PolyData),
// with the cells and arrays fvrun wrote, and render. Needs pvbatch (Debian: paraview,
// python3-paraview) and xvfb-run; skipped where they are not installed.
TEST_F(FvrunCli, OutputsOpenInParaView) {
  const bool have = std::system("command -v xvfb-run > /dev/null 2>&1") == 0 &&
                    (std::system("command -v pvbatch > /dev/null 2>&1") == 0 ||
                     std::system("command -v pvbatch3.11 > /dev/null 2>&1") == 0);
  if (!have) GTEST_SKIP() << "ParaView (pvbatch) or xvfb-run not installed";
  std::string err;
  ASSERT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 3 --output-dir pv "
                  "--set monitor.solution_format=both",
                  err),
            0)
      << err;
  // xvfb-run -a picks the first display whose lock file is free, which races with any other X
  // server starting on the machine ("bad X server connection"). Start from a display number of
  // this process's own and try again, on another, only when it is the X server that failed.
  const std::string log = dir_ + "/paraview.txt";
  int rc = -1;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int display = 100 + static_cast<int>(::getpid() % 700) + 37 * attempt;
    const std::string cmd =
        "cd '" + dir_ +
        "' && PV=$(command -v pvbatch || command -v pvbatch3.11) && xvfb-run -a -n " +
        std::to_string(display) + " -s '-screen 0 640x480x24 -nolisten tcp' \"$PV\" '" +
        std::string(FV_SOURCE_DIR) + "/tests/solver/paraview_open.py' pv/surface.png " +
        "pv/surface_lower_wall.vtp pv/solution.xmf pv/solution.cgns > '" + log + "' 2>&1";
    rc = std::system(cmd.c_str());
    const std::string tried = read_file(log);
    const bool x_failed = tried.find("X server") != std::string::npos ||
                          tried.find("Xvfb failed") != std::string::npos;
    if (rc == 0 || !x_failed) break;
  }
  ASSERT_EQ(rc, 0) << read_file(log);
  const std::string out = read_file(log);
  const std::string csv = read_file(dir_ + "/pv/surface_lower_wall.csv");
  const auto faces = std::count(csv.begin(), csv.end(), '\n') - 1;
  EXPECT_NE(
      out.find("surface_lower_wall.vtp cells " + std::to_string(faces) + " arrays Cp,S,faceId,p"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("solution.xmf cells 160 arrays Cp,mach,p,rho,rhoU,velocity"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("solution.cgns cells 160 arrays CoefPressure,Density,EnergyStagnationDensity,"
                     "Mach,Momentum,Pressure,Velocity"),
            std::string::npos)
      << out;
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/pv/surface.png"));
}

// [monitor] solution_format = cgns: solution.cgns (mesh, one BC per patch, FlowSolution at cell
// centres) passes the CGNS library's own checker, and no XDMF pair is written.
TEST_F(FvrunCli, CgnsSolutionPassesCgnscheck) {
  std::string err;
  ASSERT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 3 --output-dir cg "
                  "--set monitor.solution_format=cgns",
                  err),
            0)
      << err;
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/cg/solution.cgns"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/cg/solution.h5"));
  if (std::system("command -v cgnscheck > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "cgnscheck (Debian: cgns-convert) not installed";
  const std::string log = dir_ + "/cgnscheck.txt";
  const std::string cmd = "cgnscheck '" + dir_ + "/cg/solution.cgns' > '" + log + "' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << read_file(log);
  const std::string out = read_file(log);
  EXPECT_NE(out.find("checking complete"), std::string::npos) << out;
  EXPECT_EQ(out.find("ERROR"), std::string::npos) << out;
  for (const char* bc : {"inlet", "outlet", "lower_wall", "upper", "side1", "side2"})
    EXPECT_NE(out.find(std::string("checking BC \"") + bc + "\""), std::string::npos) << bc;
  EXPECT_NE(out.find("checking solution field \"Pressure\""), std::string::npos) << out;
}

// scripts/plot_history.py draws a run's history.csv as a PNG (needs matplotlib; skipped where
// no python3 has it, as in CI).
TEST_F(FvrunCli, HistoryPlotScriptWritesAPng) {
  std::string python;
  for (const char* py : {"python3", "/usr/bin/python3"})
    if (python.empty() &&
        std::system((std::string(py) + " -c 'import matplotlib' > /dev/null 2>&1").c_str()) == 0)
      python = py;
  if (python.empty()) GTEST_SKIP() << "no python3 with matplotlib";
  std::string err;
  ASSERT_EQ(
      fvrun(dir_, "wedge.zones.h5 -c case.ini --device cpu --iterations 5 --output-dir hp", err), 0)
      << err;
  const std::string log = dir_ + "/plot.txt";
  const std::string cmd = "cd '" + dir_ + "' && " + python + " '" + std::string(FV_SOURCE_DIR) +
                          "/scripts/plot_history.py' hp/history.csv -o hp/history.png > '" + log +
                          "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read_file(log);
  const std::string png = read_file(dir_ + "/hp/history.png");
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

// A mean-flow restart (here Euler) starts a RANS run: rho nu-tilde from the free stream, and
// the RANS run's restart carries the six variables (a zone file with the wall distance of the
// wedge's wall).
TEST_F(FvrunCli, EulerRestartStartsARansRun) {
  fv::GenOptions o;
  o.family = fv::MeshFamily::Wedge;
  o.n = {16, 10, 1};
  const fv::Mesh mesh = fv::generate_mesh(o);
  fv::PrepareOptions po;
  po.prep.walls = {"lower_wall"};
  fv::PreparedZones pz = fv::prepare_zones(mesh, fv::build_faces(mesh, po.prep.faces), po);
  ASSERT_FALSE(pz.zones[0].cellWallDistance.empty());
  fv::write_zone_file(dir_ + "/wedge_walls.zones.h5", pz.header, pz.zones);
  std::string err;
  ASSERT_EQ(
      fvrun(dir_, "wedge_walls.zones.h5 -c case.ini --iterations 5 --output-dir euler -q", err), 0)
      << err;
  std::string rans = kCase;
  rans.replace(rans.find("[time]"), 6, "[physics]\nmodel = rans_sa\n[time]");
  rans.replace(rans.find("lower_wall]\ntype = slip_wall"), 28, "lower_wall]\ntype = no_slip_wall");
  std::ofstream(dir_ + "/rans.ini") << rans;
  ASSERT_EQ(fvrun(dir_,
                  "wedge_walls.zones.h5 -c rans.ini --iterations 8 --output-dir rans "
                  "--restart euler/restart.h5",
                  err),
            0)
      << err;
  EXPECT_NE(err.find("holds the mean flow only: rhoNuTilde starts from the free stream"),
            std::string::npos)
      << err;
  const std::string hist = read_file(dir_ + "/rans/history.csv");
  EXPECT_NE(hist.find("res_rhoNuTilde"), std::string::npos);
  EXPECT_NE(hist.find("\n8,"), std::string::npos) << "continues at iteration 6..8";
  EXPECT_NE(read_file(dir_ + "/rans/restart.h5").find("rhoNuTilde"), std::string::npos);
  EXPECT_NE(read_file(dir_ + "/rans/solution.h5").find("mu_t"), std::string::npos);
}

// Runs that are no mistake but were mishandled: no iteration at all (the initial state is
// written, no coefficient reported), and a restart at the end of a time-accurate run (no step,
// never a negative one).
TEST_F(FvrunCli, NoIterationAndARestartPastTheFinalTime) {
  prepare_wedge();
  std::string err;
  ASSERT_EQ(
      fvrun(dir_, "wedge.zones.h5 -c case.ini --device cpu --iterations 0 --output-dir z", err), 0)
      << err;
  EXPECT_NE(err.find("after 0 iterations"), std::string::npos) << err;
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/z/solution.h5"));
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/z/restart.h5"));

  const std::string timed = "wedge.zones.h5 -c case.ini --device cpu --set time.stepping=global "
                            "--set time.final_time=2e-5 --set time.dt=1e-5 ";
  ASSERT_EQ(fvrun(dir_, timed + "--output-dir t1", err), 0) << err;
  EXPECT_NE(err.find("final time after 2 iterations"), std::string::npos) << err;
  ASSERT_EQ(fvrun(dir_, timed + "--output-dir t2 --restart t1/restart.h5", err), 0) << err;
  EXPECT_NE(err.find("no step is taken"), std::string::npos) << err;
  EXPECT_NE(err.find("final time after 0 iterations"), std::string::npos) << err;
  EXPECT_EQ(read_file(dir_ + "/t2/history.csv").find("-1e-05"), std::string::npos);
}

// Coefficients are never silently wrong: none (nan) without a free-stream speed (no dynamic
// pressure); a reference area or length whose product with it underflows is a usage error.
TEST_F(FvrunCli, CoefficientsWithoutAUsableDivisorAreRefused) {
  std::string err;
  // a gas at rest (a shock tube) runs, with no coefficients instead of forces over q = 1
  EXPECT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --device cpu --iterations 2 --output-dir r "
                  "--set freestream.mach=0",
                  err),
            0)
      << err;
  EXPECT_NE(err.find("CL nan, CD nan"), std::string::npos) << err;
  EXPECT_EQ(fvrun(dir_, "wedge.zones.h5 -c case.ini --set monitor.reference_area=1e-320", err), 2);
  EXPECT_NE(err.find("reference_area = 9.99989e-321 times the dynamic pressure is no usable"),
            std::string::npos)
      << err;
  EXPECT_EQ(fvrun(dir_,
                  "wedge.zones.h5 -c case.ini --set monitor.reference_length=1e-300 "
                  "--set monitor.reference_area=1e-20",
                  err),
            2);
  EXPECT_NE(err.find("reference_length"), std::string::npos) << err;
}

// Issue 50, item 2: a run stopped by SIGTERM (a batch system's time limit) finishes its
// iteration, writes its restart and solution, says how to go on and exits 128 + 15; restarted,
// it continues the CFL law and the history and reaches the uninterrupted run's converged CL and
// CD (to 1e-10) at the same total iteration count (+-1). checkpoint_interval writes the restart
// while the run goes on.
TEST_F(FvrunCli, StopSignalKeepsTheWorkAndTheRestartContinues) {
  prepare_wedge();
  const std::string args = "wedge.zones.h5 -c case.ini --device cpu --set time.iterations=500 "
                           "--set time.convergence=11 --set monitor.output_interval=1 ";
  std::string err;
  ASSERT_EQ(fvrun(dir_, args + "--output-dir whole", err), 0) << err;
  ASSERT_NE(err.find("converged after"), std::string::npos) << err;
  const auto last_row = [&](const std::string& hist) {
    std::string t = read_file(hist);
    t.pop_back();
    return t.substr(t.rfind('\n') + 1);
  };
  const std::string whole = last_row(dir_ + "/whole/history.csv");
  const int wholeIterations = std::stoi(whole);

  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // (the sanitizers' full unwinding of fvrun(), whose suppressions name Open MPI's frames)
    const std::string cmd = "cd '" + dir_ +
                            "' && OMP_NUM_THREADS=1 ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}"
                            "fast_unwind_on_malloc=0\" exec '" FV_FVRUN_PATH "' " +
                            args + "--output-dir part --set monitor.checkpoint_interval=3 " +
                            "> /dev/null 2> part.txt";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // stop it half way: once history.csv holds a third of the uninterrupted run's rows
  const auto t0 = std::chrono::steady_clock::now();
  const auto rows = [&](const std::string& hist) { // data rows: they start with a digit
    std::istringstream in(read_file(hist));
    int n = 0;
    for (std::string line; std::getline(in, line);)
      n += !line.empty() && std::isdigit(static_cast<unsigned char>(line[0]));
    return n;
  };
  while (rows(dir_ + "/part/history.csv") < wholeIterations / 3 &&
         std::chrono::steady_clock::now() - t0 < std::chrono::minutes(2))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  const std::string stopped = read_file(dir_ + "/part.txt");
  EXPECT_NE(stopped.find("stopped by SIGTERM after iteration"), std::string::npos) << stopped;
  EXPECT_NE(stopped.find("continue with --restart part/restart.h5"), std::string::npos) << stopped;
  EXPECT_NE(stopped.find("restart.h5 (iteration 3)"), std::string::npos) << stopped; // checkpoint
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/part/solution.h5"));
  const int stoppedAt = std::stoi(last_row(dir_ + "/part/history.csv"));
  ASSERT_LT(stoppedAt, wholeIterations) << "the run converged before the signal";

  ASSERT_EQ(fvrun(dir_, args + "--output-dir part --restart part/restart.h5", err), 0) << err;
  EXPECT_NE(err.find("CFL "), std::string::npos) << err; // the CFL law continues
  const std::string resumed = last_row(dir_ + "/part/history.csv");
  EXPECT_NEAR(std::stoi(resumed), wholeIterations, 1) << resumed << "\n" << whole;
  const auto column = [&](const std::string& hist, const std::string& name) {
    std::string t = read_file(hist);
    std::string header;
    std::istringstream in(t);
    while (std::getline(in, header) && header.rfind("#", 0) == 0) {
    }
    std::vector<std::string> names;
    std::stringstream hs(header);
    for (std::string c; std::getline(hs, c, ',');)
      names.push_back(c);
    const std::string row = last_row(hist);
    std::vector<std::string> vals;
    std::stringstream rs(row);
    for (std::string c; std::getline(rs, c, ',');)
      vals.push_back(c);
    const auto at = std::find(names.begin(), names.end(), name) - names.begin();
    return std::stod(vals.at(static_cast<std::size_t>(at)));
  };
  for (const char* c : {"CL", "CD"}) {
    const double a = column(dir_ + "/whole/history.csv", c);
    const double b = column(dir_ + "/part/history.csv", c);
    EXPECT_NEAR(b, a, 1e-10 * std::max(1e-3, std::fabs(a))) << c;
  }
}

namespace {

/// The columns of the last row of a history.csv, by name.
std::map<std::string, double> last_values(const std::string& history) {
  std::istringstream in(history);
  std::string line, header, last;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') (header.empty() ? header : last) = line;
  std::map<std::string, double> row;
  std::istringstream h(header), v(last);
  std::string name, value;
  while (std::getline(h, name, ',') && std::getline(v, value, ','))
    row[name] = std::stod(value);
  return row;
}

} // namespace

// Issue 50, items 5 and 6: the NACA 0012 Euler case prepared with fvprep's default extrusion
// (0.4 on this mesh) and with --extrude 1, run without lift_axis, gives the coefficients per
// unit span both times: the reference area is the chord times the thickness the zone file
// records, the lift is along y. At iteration 8 they differ by the local time step alone (the
// extruded sides' areas enter it), here to 1e-2, where a reference area of 1 made them differ
// by the factor 0.4; converged they agree to the convergence level
// (Naca0012.NewtonTenOrdersWithSu2LiftAndDragInDoubleAndMixedPrecision). A lift axis along the
// extrusion is a usage error.
TEST(FvrunExtrusion, NacaCoefficientsDoNotDependOnTheThickness) {
  FV_REQUIRE_SHARED_MESH(mesh, "su2/naca0012_inv_su2.su2");
  const std::string dir = fv::testing::scratch_dir();
  std::string c = read_file(std::string(FV_SOURCE_DIR) + "/examples/naca0012.ini");
  c.erase(c.find("lift_axis = y\n"), 14);
  std::ofstream(dir + "/naca.ini") << c;
  std::map<std::string, std::map<std::string, double>> rows;
  for (const std::string extrude : {"", "--extrude 1"}) {
    const std::string name = extrude.empty() ? "default" : "one";
    ASSERT_EQ(std::system(("'" FV_FVPREP_PATH "' '" + mesh + "' " + extrude + " -q -o '" + dir +
                           "/" + name + ".zones.h5'")
                              .c_str()),
              0);
    std::string err;
    ASSERT_EQ(fvrun(dir,
                    name + ".zones.h5 -c naca.ini --device cpu --iterations 8 --output-dir " + name,
                    err),
              0)
        << err;
    EXPECT_NE(
        err.find(extrude.empty()
                     ? "reference area 0.4 (2D: chord 1 x thickness 0.4), length 1, lift "
                       "along y"
                     : "reference area 1 (2D: chord 1 x thickness 1), length 1, lift along y"),
        std::string::npos)
        << err;
    rows[name] = last_values(read_file(dir + "/" + name + "/history.csv"));
    ASSERT_EQ(rows[name]["iteration"], 8);
    // item 17: no residual of the momentum across the 2D plane (zero), in the history or on
    // the console
    EXPECT_EQ(rows[name].count("res_rhoW"), 0u);
    EXPECT_EQ(rows[name].count("res_rhoV"), 1u);
    EXPECT_EQ(err.find("log(rhoW)"), std::string::npos) << err;
    EXPECT_NE(err.find("log(rhoV)"), std::string::npos) << err;
  }
  for (const char* k : {"CL", "CD", "CMz"}) {
    const double a = rows["default"][k], b = rows["one"][k];
    EXPECT_NEAR(a / b, 1.0, 1e-2) << k << ": " << a << " with the default extrusion, " << b
                                  << " with --extrude 1";
  }
  EXPECT_GT(rows["one"]["CL"], 0.05); // lift along y: the aoa turns the flow in the plane
  std::ofstream(dir + "/z.ini") << c << "[freestream]\nlift_axis = z\n";
  std::string err;
  EXPECT_EQ(fvrun(dir, "default.zones.h5 -c z.ini --device cpu --iterations 1 --output-dir z", err),
            2);
  EXPECT_NE(err.find("z.ini:"), std::string::npos) << err;
  EXPECT_NE(err.find("lift_axis = z is along the extrusion of the 2D mesh extruded by 0.4 along "
                     "(0, 0, 1)"),
            std::string::npos)
      << err;
}

// Issue 50, item 4: an output folder holds one run. run.txt names it (id, start, status); a new
// run in a folder of another run first moves that run's outputs to previous_run/ and says so;
// a restart continues its folder and moves nothing.
TEST_F(FvrunCli, AnOutputFolderHoldsOneRun) {
  prepare_wedge();
  const std::string args = "wedge.zones.h5 -c case.ini --device cpu --output-dir same ";
  const auto value = [&](const std::string& path, const std::string& key) {
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);)
      if (line.rfind(key + " = ", 0) == 0) return line.substr(key.size() + 3);
    return std::string();
  };
  std::string err;
  ASSERT_EQ(fvrun(dir_, args + "--iterations 4", err), 0) << err;
  EXPECT_NE(err.find(" bytes per cell; its "), std::string::npos) << err; // capacity (issue 51)
  const std::string first = value(dir_ + "/same/run.txt", "id");
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(value(dir_ + "/same/run.txt", "status"), "iteration limit");
  EXPECT_FALSE(value(dir_ + "/same/run.txt", "finished").empty());

  ASSERT_EQ(fvrun(dir_, args + "--iterations 3 --set monitor.solution_format=cgns", err), 0) << err;
  EXPECT_NE(err.find("held the outputs of another run (" + first + " (iteration limit))"),
            std::string::npos)
      << err;
  EXPECT_NE(value(dir_ + "/same/run.txt", "id"), first);
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/same/previous_run/solution.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/same/solution.h5")); // not this run's
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/same/solution.cgns"));
  EXPECT_EQ(value(dir_ + "/same/previous_run/run.txt", "id"), first);

  // a restart from the folder's own restart continues it: nothing moved, history goes on
  const std::string second = value(dir_ + "/same/run.txt", "id");
  ASSERT_EQ(fvrun(dir_, args + "--iterations 6 --restart same/restart.h5", err), 0) << err;
  EXPECT_EQ(err.find("held the outputs of another run"), std::string::npos) << err;
  EXPECT_EQ(value(dir_ + "/same/previous_run/run.txt", "id"), first);
  EXPECT_NE(read_file(dir_ + "/same/history.csv").find("\n6,"), std::string::npos);
  EXPECT_NE(value(dir_ + "/same/run.txt", "id"), second);
}
