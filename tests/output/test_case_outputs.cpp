// The output room (runtime/output/) on one rank: RunRecord's history.csv rows, their
// continuation after a restart and profile.csv; CaseOutputs writing every file of a run (volume
// solution in both formats, wall surfaces with the viscous columns, restart, record) with the
// model's derived fields, reading the restart back into a RANS run (a laminar restart: nu-tilde
// from the free stream), and a zone file without a mesh UUID writing no restart.
#include "common/log.hpp"
#include "formats/history_file.hpp"
#include "formats/solution_file.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/output/case_outputs.hpp"
#include "runtime/output/derived_fields.hpp"
#include "runtime/output/run_record.hpp"
#include "runtime/solver/case_run.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "tests/solver/test_meshes.hpp"
#include "tests/testing/testing.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <mpi.h>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using fv::real_t;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kEuler = std::string(R"(
[freestream]
mach = 0.6
aoa = 3
[monitor]
output_interval = 2
)") + fv::testing::kBoxWallZminPatches;

/// A row of made-up values for iteration i (each value distinct and not round).
fv::HistoryRow made_up_row(int i, double wall) {
  fv::HistoryRow r;
  r.stats.iteration = i;
  r.stats.time = 0.5 * i;
  r.stats.dt = 1.0 / (3 + i);
  r.stats.cfl = 1.5 + i;
  r.stats.linearIterations = 7 * i;
  for (int k = 0; k < 5; ++k) {
    r.stats.rms[k] = 1.0 / (11 + k + i);
    r.logResidual[k] = -0.1 * (k + 1) * i - 1.0 / 7;
  }
  r.coeff.CL = 0.3 / i;
  r.coeff.CD = 0.02 / i;
  r.coeff.CS = -0.01 / i;
  r.coeff.CMx = 1.0 / (13 * i);
  r.coeff.CMy = 2.0 / (13 * i);
  r.coeff.CMz = 3.0 / (13 * i);
  r.coeff.CDp = 0.015 / i;
  r.coeff.CDv = 0.005 / i;
  r.wallSeconds = wall;
  return r;
}

/// The values of `r` in history.csv's column order (wall_s offset by `wallOffset`).
std::vector<double> row_values(const fv::HistoryRow& r, double wallOffset) {
  std::vector<double> v = {r.stats.time, r.stats.dt};
  for (int k = 0; k < 5; ++k)
    v.push_back(r.logResidual[k]);
  for (double x :
       {r.stats.rms[0], r.stats.rms[4], r.coeff.CL, r.coeff.CD, r.coeff.CS, r.coeff.CMx,
        r.coeff.CMy, r.coeff.CMz, r.stats.cfl, static_cast<double>(r.stats.linearIterations),
        wallOffset + r.wallSeconds, r.coeff.CDp, r.coeff.CDv})
    v.push_back(x);
  return v;
}

void expect_rows(const fv::CaseConfig& cfg, const std::vector<fv::HistoryRow>& rows,
                 const std::vector<double>& wallOffsets) {
  fv::HistoryFile h(cfg.monitor.outputDir + "/history.csv",
                    fv::output::history_columns(fv::StateModel::of(cfg.flow)));
  ASSERT_EQ(h.resume(1000), rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    EXPECT_EQ(h.iteration(r), rows[r].stats.iteration);
    const std::vector<double> v = row_values(rows[r], wallOffsets[r]);
    ASSERT_EQ(v.size(), h.columns().size());
    for (std::size_t k = 0; k < v.size(); ++k)
      EXPECT_EQ(h.value(r, k), v[k]) << "row " << r << " " << h.columns()[k];
  }
}

} // namespace

TEST(RunRecord, WritesHistoryRowsAndContinuesThemAfterARestart) {
  const fv::Mesh mesh = fv::testing::box_mesh(4, 2, 2, {0, 0, 0}, {2, 1, 1}, false);
  const fv::Zone zone = fv::testing::zone_from_mesh(mesh);
  const std::string dir = fv::testing::scratch_dir() + "/record";
  fv::IniFile ini = fv::IniFile::parse(kEuler, "record.ini");
  ini.set_override("monitor.output_dir=" + dir);
  const fv::CaseConfig cfg = fv::resolve_case(ini, mesh.patches);
  fv::EulerSolver solver(zone, cfg);
  solver.initialise();
  fv::StateArray ref{};
  for (int k = 0; k < 5; ++k)
    ref[k] = 0.1 * (k + 1) + 1.0 / 3;
  std::vector<fv::HistoryRow> rows;
  {
    fv::output::RunRecord record(cfg);
    const fv::RunObserver::Continuation from = record.start(solver);
    EXPECT_FALSE(from.haveReference);
    EXPECT_TRUE(from.failure.empty());
    EXPECT_EQ(slurp(dir + "/case.resolved.ini"), cfg.resolvedIni);
    record.reference(ref);
    for (int i = 1; i <= 4; ++i) {
      rows.push_back(made_up_row(i, 0.25 * i));
      record.row(rows.back());
    }
    record.flush();
  }
  expect_rows(cfg, rows, {0, 0, 0, 0});
  const std::string text = slurp(dir + "/history.csv");
  EXPECT_NE(text.find("# [freestream]"), std::string::npos);
  char line[256];
  std::snprintf(line, sizeof line, "# residual_reference = %.17g, %.17g, %.17g, %.17g, %.17g\n",
                ref[0], ref[1], ref[2], ref[3], ref[4]);
  EXPECT_NE(text.find(line), std::string::npos) << text.substr(0, 4000);

  // a restart at iteration 2: the rows after it go, the reference comes back bit for bit, the
  // wall clock carries on from the kept rows' last value
  solver.set_progress(2, 1.0);
  {
    fv::output::RunRecord record(cfg);
    const fv::RunObserver::Continuation from = record.start(solver);
    EXPECT_TRUE(from.failure.empty()) << from.failure;
    ASSERT_TRUE(from.haveReference);
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(from.reference[k], ref[k]) << k;
    record.reference(from.reference);
    rows.resize(2);
    rows.push_back(made_up_row(3, 0.125));
    record.row(rows.back());
    record.flush();
    fv::ProfileShare share;
    share.label = "interior_fluxes";
    share.calls = 12;
    record.profile({share});
  }
  expect_rows(cfg, rows, {0, 0, rows[1].wallSeconds});
  EXPECT_NE(slurp(dir + "/history.csv").find("# restarted at iteration 2\n"), std::string::npos);
  EXPECT_EQ(slurp(dir + "/profile.csv")
                .rfind("label,calls,total_ms,percent_of_iteration,ns_per_cell_iteration\n"
                       "interior_fluxes,12,",
                       0),
            0u);

  // a history that cannot be continued is reported to the run loop, not thrown
  std::ofstream(dir + "/history.csv") << "iteration,something,else\n1,2,3\n";
  fv::output::RunRecord broken(cfg);
  EXPECT_FALSE(broken.start(solver).failure.empty());
}

namespace {

const char* kLaminar = R"(
[freestream]
mach = 0.3
aoa = 2
[physics]
model = navier_stokes
[time]
iterations = 3
cfl = 2
[monitor]
force_patches = zmin
output_interval = 2
solution_format = both
[patch xmin]
type = farfield
[patch xmax]
type = farfield
[patch ymin]
type = farfield
[patch ymax]
type = farfield
[patch zmin]
type = no_slip_wall
[patch zmax]
type = farfield
)";

fv::CaseConfig laminar_case(const fv::Mesh& mesh, const std::string& dir,
                            const std::string& model = "navier_stokes", int iterations = 3) {
  fv::IniFile ini = fv::IniFile::parse(kLaminar, "laminar.ini");
  ini.set_override("monitor.output_dir=" + dir);
  ini.set_override("physics.model=" + model);
  ini.set_override("time.iterations=" + std::to_string(iterations));
  return fv::resolve_case(ini, mesh.patches);
}

} // namespace

TEST(CaseOutputs, WritesEveryFileOfARunAndStartsARansRunFromItsRestart) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const fv::Mesh mesh = fv::testing::box_mesh(6, 3, 3, {0, 0, 0}, {2, 1, 1}, false, 0.1);
  const fv::Zone zone = fv::testing::zone_with_zmin_wall(mesh);
  fv::ZoneFileHeader header;
  header.meshUuid = "box-uuid";
  header.nGlobalCells = zone.nCells;
  header.nGlobalNodes = zone.nNodes;
  header.patches = mesh.patches;
  const std::string dir = fv::testing::scratch_dir();
  const fv::CaseConfig cfg = laminar_case(mesh, dir + "/laminar");
  fv::CaseRun run(comm, zone, header, cfg);
  fv::output::CaseOutputs outputs(comm, zone, header, cfg, "box.zones.h5");
  const fv::RunSummary sum = run.run(outputs);
  outputs.report(sum, run.solver());
  EXPECT_EQ(sum.iterations, 3);

  const std::string out = dir + "/laminar/";
  for (const char* f : {"case.resolved.ini", "history.csv", "solution.h5", "solution.xmf",
                        "solution.cgns", "surface_zmin.csv", "surface_zmin.vtp", "restart.h5"})
    EXPECT_TRUE(fs::exists(out + f)) << f;
  EXPECT_NE(slurp(out + "history.csv").find("\n3,"), std::string::npos);
  // the volume solution holds the model's fields with the values of the final state
  const fv::SolutionData sol = fv::read_solution(out + "solution.h5");
  EXPECT_EQ(sol.info.iteration, 3);
  EXPECT_EQ(sol.info.meshUuid, "box-uuid");
  const std::vector<fv::CellField> fields = fv::output::volume_fields(run.solver());
  std::set<std::string> names;
  for (const fv::CellField& f : fields)
    names.insert(f.name);
  EXPECT_EQ(names, (std::set<std::string>{"rho", "velocity", "p", "mach", "Cp", "rhoU", "T"}));
  ASSERT_EQ(sol.fields.size(), fields.size());
  for (const fv::CellField& f : sol.fields) { // zone_from_mesh: global ids are the local ones
    const auto it = std::find_if(fields.begin(), fields.end(),
                                 [&](const fv::CellField& g) { return g.name == f.name; });
    ASSERT_NE(it, fields.end()) << f.name;
    EXPECT_EQ(f.components, it->components) << f.name;
    EXPECT_EQ(f.values, it->values) << f.name;
  }
  // one cell's Mach number and temperature, from the state
  {
    const std::vector<real_t> W = run.solver().primitive();
    const fv::idx_t n = zone.nTotalCells();
    const real_t w[5] = {W[0], W[n], W[2 * n], W[3 * n], W[4 * n]};
    const auto value = [&](const char* name) {
      return std::find_if(sol.fields.begin(), sol.fields.end(),
                          [&](const fv::CellField& f) { return f.name == name; })
          ->values[0];
    };
    EXPECT_NEAR(value("mach"), fv::phys::mach_number(w, cfg.flow.gamma), 1e-12);
    EXPECT_NEAR(value("T"), w[4] / (w[0] * cfg.flow.gasConstant), 1e-9);
  }
  const std::string csv = slurp(out + "surface_zmin.csv");
  EXPECT_NE(csv.find(",p,Cp,Cf_x,Cf_y,Cf_z,Cf,heat_flux,y_plus\n"), std::string::npos)
      << csv.substr(0, 200);

  // the laminar restart starts a RANS run: the mean flow as written, nu-tilde of the free
  // stream, the iteration and time carried on; [time] iterations counts from the first run
  const fv::CaseConfig rans = laminar_case(mesh, dir + "/rans", "rans_sa", 6);
  fv::CaseRun next(comm, zone, header, rans);
  fv::output::CaseOutputs nextOutputs(comm, zone, header, rans, "box.zones.h5");
  nextOutputs.read_restart(next.solver(), out + "restart.h5");
  EXPECT_EQ(next.solver().iteration(), 3);
  EXPECT_EQ(next.solver().time(), run.solver().time());
  const std::vector<real_t> U0 = run.solver().conservative(), U = next.solver().conservative();
  const fv::idx_t nt = zone.nTotalCells();
  for (fv::idx_t c = 0; c < zone.nCells; ++c) {
    for (int k = 0; k < 5; ++k)
      ASSERT_EQ(U[k * nt + c], U0[k * nt + c]) << "cell " << c << " variable " << k;
    ASSERT_EQ(U[5 * nt + c], U0[c] * rans.flow.nuTildeFreestream) << "cell " << c;
  }
  const fv::RunSummary more = next.run(nextOutputs);
  EXPECT_EQ(more.iterations, 3);
  EXPECT_NE(slurp(dir + "/rans/solution.h5").find("mu_t"), std::string::npos);

  // [monitor] write_solution = false (benchmarks): no solution or surfaces at the end, but a
  // checkpoint (or a stop signal's restart, run_loop.cpp) still writes restart.h5 (issue 50)
  {
    fv::CaseConfig bench = laminar_case(mesh, dir + "/bench");
    bench.monitor.writeSolution = false;
    fv::output::CaseOutputs quiet(comm, zone, header, bench, "box.zones.h5");
    fs::create_directories(dir + "/bench");
    quiet.checkpoint(run.solver());
    quiet.solution(run.solver(), "final");
    EXPECT_TRUE(fs::exists(dir + "/bench/restart.h5"));
    EXPECT_FALSE(fs::exists(dir + "/bench/solution.h5"));
  }

  // a zone file without a mesh UUID: everything but the restart
  fv::ZoneFileHeader anonymous = header;
  anonymous.meshUuid.clear();
  const fv::CaseConfig plain = laminar_case(mesh, dir + "/anonymous");
  fv::output::CaseOutputs unnamed(comm, zone, anonymous, plain, "box.zones.h5");
  fs::create_directories(dir + "/anonymous");
  unnamed.solution(run.solver(), "final");
  EXPECT_TRUE(fs::exists(dir + "/anonymous/solution.h5"));
  EXPECT_TRUE(fs::exists(dir + "/anonymous/surface_zmin.csv"));
  EXPECT_FALSE(fs::exists(dir + "/anonymous/restart.h5"));
}
