// Run-to-run identical results, and the non-physical-state stop.
#include "common/error.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/output/run_record.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

using fv::real_t;

namespace {
const std::string kCase = std::string(R"(
[freestream]
mach = 0.7
aoa = 5
[time]
integrator = ssprk3
iterations = 15
[monitor]
output_interval = 5
)") + fv::testing::kBoxWallZminPatches;

/// What the run loop hands a solution writer: the state and why ("final", "last good state").
using Writer = std::function<void(const fv::EulerSolver&, const std::string&)>;
/// Hands the states to write to a Writer; records nothing.
struct WriterObserver : fv::RunObserver {
  explicit WriterObserver(Writer w) : write(std::move(w)) {}
  void solution(const fv::EulerSolver& s, const std::string& why) override { write(s, why); }
  Writer write;
};
/// The same, recording the run (case.resolved.ini, history.csv) in its output folder.
struct RecordingWriter : fv::output::RunRecord {
  RecordingWriter(const fv::CaseConfig& cfg, Writer w) : RunRecord(cfg), write(std::move(w)) {}
  void solution(const fv::EulerSolver& s, const std::string& why) override { write(s, why); }
  Writer write;
};

// a bump on the zmin wall makes the flow non-trivial
fv::Mesh bump_mesh(bool tets) {
  return fv::testing::box_mesh(8, 4, 4, {0, 0, 0}, {2, 1, 1}, tets, 0.1,
                               [](real_t x, real_t y, real_t z) {
                                 const real_t b = 0.1 * std::exp(-20 * (x - 1) * (x - 1));
                                 return std::array<real_t, 3>{x, y, z + b * (1 - z)};
                               });
}
} // namespace

TEST(Determinism, RunsRepeatBitwise) {
  for (const std::string integrator : {"ssprk3", "newton"})
    for (bool tets : {false, true}) {
      SCOPED_TRACE(integrator + (tets ? " tets" : " hexes"));
      const fv::Mesh mesh = bump_mesh(tets);
      const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
      fv::IniFile ini = fv::IniFile::parse(kCase, "det.ini");
      ini.set_override("monitor.output_interval=5");
      ini.set_override("time.integrator=" + integrator);
      ini.set_override("time.convergence=0"); // all 15 iterations
      const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
      std::vector<real_t> first;
      std::vector<fv::HistoryRow> hist;
      for (int run = 0; run < 2; ++run) {
        fv::EulerSolver solver(zone, cfg);
        solver.initialise();
        const fv::RunSummary s = fv::run_case(solver);
        EXPECT_EQ(s.iterations, 15);
        const auto U = solver.conservative();
        if (run == 0) {
          first = U;
          hist = s.history;
          // the bump produces a real flow: residuals and forces are not trivial
          EXPECT_GT(s.history.front().stats.rms[0], 1e-6);
          EXPECT_NE(s.history.back().coeff.CL, 0.0);
          continue;
        }
        ASSERT_EQ(U.size(), first.size());
        for (std::size_t i = 0; i < U.size(); ++i)
          ASSERT_EQ(U[i], first[i]) << "entry " << i;
        for (std::size_t i = 0; i < hist.size(); ++i) {
          for (int k = 0; k < 5; ++k)
            ASSERT_EQ(s.history[i].stats.rms[k], hist[i].stats.rms[k]);
          ASSERT_EQ(s.history[i].coeff.CL, hist[i].coeff.CL);
        }
      }
    }
}

TEST(Determinism, HistoryFileHoldsConfigAndRows) {
  const fv::Mesh mesh = bump_mesh(false);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  fv::IniFile ini = fv::IniFile::parse(kCase, "det.ini");
  const std::string dir = fv::testing::scratch_dir() + "/out";
  ini.set_override("monitor.output_dir=" + dir);
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  int writes = 0;
  RecordingWriter record(cfg, [&](const fv::EulerSolver&, const std::string& why) {
    EXPECT_EQ(why, "final");
    ++writes;
  });
  fv::run_case(solver, record);
  EXPECT_EQ(writes, 1);
  std::ifstream f(dir + "/history.csv");
  ASSERT_TRUE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  EXPECT_NE(text.find("# [freestream]"), std::string::npos);
  EXPECT_NE(text.find("# mach = 0.69999999999999996"), std::string::npos);
  EXPECT_NE(text.find("iteration,time,dt,res_rho"), std::string::npos);
  EXPECT_NE(text.find("\n15,"), std::string::npos); // last row
  EXPECT_TRUE(std::filesystem::exists(dir + "/case.resolved.ini"));
}

TEST(Determinism, NonPhysicalStateStopsWithCellAndIteration) {
  const fv::Mesh mesh = bump_mesh(false);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  fv::IniFile ini = fv::IniFile::parse(kCase, "det.ini");
  ini.set_override("time.cfl=50"); // far beyond stability
  ini.set_override("time.iterations=200");
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  std::string why;
  try {
    WriterObserver writer([&](const fv::EulerSolver& s, const std::string& w) {
      why = w;
      // the state handed to the writer is the last good one
      const auto W = s.primitive();
      const fv::idx_t n = s.zone().nTotalCells();
      for (fv::idx_t c = 0; c < s.zone().nCells; ++c) {
        ASSERT_GT(W[c], 0.0);
        ASSERT_GT(W[4 * n + c], 0.0);
      }
    });
    fv::run_case(solver, writer);
    FAIL() << "CFL 50 did not blow up";
  } catch (const fv::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("non-physical state at iteration"), std::string::npos) << msg;
    EXPECT_NE(msg.find("in cell"), std::string::npos) << msg;
  }
  EXPECT_EQ(why, "last good state");
}
