// A run started from a restart continues history.csv: rows after the restart iteration are
// dropped, the residual reference carries on, and the history equals the continuous run's row
// for row (in-process restart: the state of iteration k handed to a new solver, as fvrun does
// with restart.h5).
#include "formats/history_file.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/output/run_record.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using fv::real_t;

namespace {
const std::string kCase = std::string(R"(
[freestream]
mach = 0.6
aoa = 3
[time]
cfl_ramp_iterations = 5
[monitor]
output_interval = 3
)") + fv::testing::kBoxWallZminPatches;

struct Snapshot {
  std::vector<real_t> U;
  int iteration = 0;
  real_t time = 0;
};

/// Runs `iterations` from `from` (nullptr: the initial state) writing into `dir`.
Snapshot run(const fv::Zone& zone, const fv::Mesh& mesh, const std::string& integrator,
             int iterations, const std::string& dir, const Snapshot* from) {
  fv::IniFile ini = fv::IniFile::parse(kCase, "restart.ini");
  ini.set_override("time.integrator=" + integrator);
  if (integrator == "lusgs")
    ini.set_override("time.lusgs_ordering=natural"); // test zones: no hyperplanes
  ini.set_override("time.iterations=" + std::to_string(iterations));
  ini.set_override("monitor.output_dir=" + dir);
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  if (from) {
    solver.set_conservative(from->U);
    solver.set_progress(from->iteration, from->time);
  }
  fv::output::RunRecord record(cfg);
  fv::run_case(solver, record);
  return {solver.conservative(), solver.iteration(), solver.time()};
}

std::vector<std::string> columns() {
  return {"time",    "dt",       "res_rho",    "res_rhoU", "res_rhoV", "res_rhoW", "res_rhoE",
          "rms_rho", "rms_rhoE", "CL",         "CD",       "CS",       "CMx",      "CMy",
          "CMz",     "cfl",      "linear_its", "wall_s",   "CDp",      "CDv"};
}
constexpr std::size_t kWall = 17; // wall_s

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
} // namespace

TEST(RestartHistory, ContinuesTheHistoryRowForRow) {
  const fv::Mesh mesh = fv::testing::box_mesh(6, 3, 3, {0, 0, 0}, {2, 1, 1}, false, 0.1);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  for (const std::string integrator : {"ssprk3", "lusgs"}) {
    SCOPED_TRACE(integrator);
    const std::string base = fv::testing::scratch_dir() + "/" + integrator;
    // continuous: 12 iterations
    run(zone, mesh, integrator, 12, base + "/full", nullptr);
    // 7 iterations, then 3 more (up to iteration 10: [time] iterations is the total; rows
    // 8..10 that a restart from 7 must drop), then the restart from iteration 7 runs the
    // remaining 5 (up to 12)
    const Snapshot at7 = run(zone, mesh, integrator, 7, base + "/split", nullptr);
    ASSERT_EQ(at7.iteration, 7);
    run(zone, mesh, integrator, 10, base + "/split", &at7);
    {
      fv::HistoryFile h(base + "/split/history.csv", columns());
      EXPECT_EQ(h.resume(1000), 10u) << "the second part continued the first";
    }
    run(zone, mesh, integrator, 12, base + "/split", &at7);

    fv::HistoryFile full(base + "/full/history.csv", columns()),
        split(base + "/split/history.csv", columns());
    ASSERT_EQ(full.resume(1000), 12u);
    ASSERT_EQ(split.resume(1000), 12u);
    for (std::size_t r = 0; r < 12; ++r) {
      EXPECT_EQ(split.iteration(r), full.iteration(r));
      for (std::size_t k = 0; k < columns().size(); ++k) { // all but wall_s
        if (k == kWall) continue;
        EXPECT_EQ(split.value(r, k), full.value(r, k)) << "row " << r << " " << columns()[k];
      }
      if (r > 0) {
        EXPECT_GE(split.value(r, kWall), split.value(r - 1, kWall)) << "wall clock carries on";
      }
    }
    // the header keeps the configuration and names the restart points
    const std::string text = slurp(base + "/split/history.csv");
    EXPECT_NE(text.find("# [freestream]"), std::string::npos);
    EXPECT_NE(text.find("# residual_reference = "), std::string::npos);
    EXPECT_NE(text.find("# restarted at iteration 7\n# restarted at iteration 7\n"),
              std::string::npos)
        << text.substr(0, 2000);
  }
}
