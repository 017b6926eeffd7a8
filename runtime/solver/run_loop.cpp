#include "runtime/solver/run_loop.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fv {

Coefficients coefficients(const CaseConfig& cfg, const std::array<real_t, 6>& f) {
  real_t q = cfg.dynamic_pressure();
  if (!(q > 0)) q = 1.0;
  const real_t fa = 1.0 / (q * cfg.refArea), ma = fa / cfg.refLength;
  auto dot = [&](const std::array<real_t, 3>& d) {
    return f[0] * d[0] + f[1] * d[1] + f[2] * d[2];
  };
  Coefficients c;
  c.CL = dot(cfg.liftDir) * fa;
  c.CD = dot(cfg.dragDir) * fa;
  c.CS = dot(cfg.sideDir) * fa;
  c.CMx = f[3] * ma;
  c.CMy = f[4] * ma;
  c.CMz = f[5] * ma;
  return c;
}

std::string history_csv(const CaseConfig& cfg, const std::vector<HistoryRow>& rows) {
  std::ostringstream out;
  std::istringstream ini(cfg.resolvedIni);
  std::string line;
  while (std::getline(ini, line))
    out << (line.rfind("#", 0) == 0 ? "" : "# ") << line << "\n";
  out << "iteration,time,dt,res_rho,res_rhou,res_rhov,res_rhow,res_rhoE,rms_rho,rms_rhoE,CL,CD,"
         "CS,CMx,CMy,CMz,wall_s\n";
  char buf[512];
  for (const auto& r : rows) {
    const auto& s = r.stats;
    std::snprintf(buf, sizeof buf,
                  "%d,%.17g,%.17g,%.6f,%.6f,%.6f,%.6f,%.6f,%.17e,%.17e,%.17g,%.17g,%.17g,%.17g,"
                  "%.17g,%.17g,%.4f\n",
                  s.iteration, s.time, s.dt, r.logResidual[0], r.logResidual[1], r.logResidual[2],
                  r.logResidual[3], r.logResidual[4], s.rms[0], s.rms[4], r.coeff.CL, r.coeff.CD,
                  r.coeff.CS, r.coeff.CMx, r.coeff.CMy, r.coeff.CMz, r.wallSeconds);
    out << buf;
  }
  return out.str();
}

namespace {
void write_text(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  {
    std::ofstream o(f.temp_path(), std::ios::binary);
    FV_VERIFY(o.good(), "cannot write '" << f.temp_path() << "'");
    o << text;
    o.close();
    FV_VERIFY(o.good(), "error writing '" << f.temp_path() << "'");
  }
  f.commit();
}
} // namespace

RunSummary run_case(EulerSolver& solver, bool writeFiles, const SolutionWriter& writer) {
  const CaseConfig& cfg = solver.config();
  RunSummary sum;
  namespace fs = std::filesystem;
  const std::string dir = cfg.outputDir;
  if (writeFiles) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    FV_VERIFY(!ec, "cannot create output directory '" << dir << "': " << ec.message());
    write_text((fs::path(dir) / "case.resolved.ini").string(), cfg.resolvedIni);
  }
  const std::string historyPath = (fs::path(dir) / "history.csv").string();
  auto flush_history = [&] {
    if (writeFiles) write_text(historyPath, history_csv(cfg, sum.history));
  };

  const auto t0 = std::chrono::steady_clock::now();
  std::array<real_t, 5> ref{};
  const real_t nCells = static_cast<real_t>(solver.global_cells());
  FV_LOG_INFO("  iter   log(rho)  log(rhou) log(rhov) log(rhow) log(rhoE)        CL        CD"
              "     wall s  ms/iter  ns/cell/iter");
  int lastPrinted = 0;
  double lastPrintSeconds = 0;
  const int maxIter = cfg.iterations;
  sum.stopReason = "iteration limit";
  for (int it = 0; it < maxIter; ++it) {
    IterationStats st;
    try {
      st = solver.step();
    } catch (const Error&) {
      flush_history();
      if (writer) writer(solver, "last good state");
      throw;
    }
    HistoryRow row;
    row.stats = st;
    if (it == 0)
      for (int k = 0; k < 5; ++k)
        ref[k] = st.rms[k] > 1e-300 ? st.rms[k] : 1.0;
    for (int k = 0; k < 5; ++k)
      row.logResidual[k] = std::log10(std::max(st.rms[k], 1e-300) / ref[k]);
    row.coeff = coefficients(cfg, st.forces);
    row.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sum.history.push_back(row);
    sum.iterations = it + 1;

    bool stop = false;
    if (cfg.localTimeStep && cfg.convergenceOrders > 0 && it > 0) {
      // density and energy: the momentum components can be identically zero (2D flows)
      const real_t worst = std::max(row.logResidual[0], row.logResidual[4]);
      if (worst <= -cfg.convergenceOrders) {
        stop = true;
        sum.converged = true;
        sum.stopReason = "converged";
      }
    }
    if (!cfg.localTimeStep && cfg.finalTime > 0 && st.time >= cfg.finalTime * (1 - 1e-12)) {
      stop = true;
      sum.converged = true;
      sum.stopReason = "final time";
    }
    const bool last = stop || it + 1 == maxIter;
    if ((it + 1) % cfg.outputInterval == 0 || last || it == 0) {
      const double perIter =
          (row.wallSeconds - lastPrintSeconds) / std::max(1, sum.iterations - lastPrinted);
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "%6d %9.4f %9.4f %9.4f %9.4f %9.4f %9.5f %9.5f %10.2f %8.3f %13.1f",
                    st.iteration, row.logResidual[0], row.logResidual[1], row.logResidual[2],
                    row.logResidual[3], row.logResidual[4], row.coeff.CL, row.coeff.CD,
                    row.wallSeconds, 1e3 * perIter, 1e9 * perIter / nCells);
      FV_LOG_INFO(buf);
      lastPrinted = sum.iterations;
      lastPrintSeconds = row.wallSeconds;
      if (!last) flush_history();
    }
    if (stop) break;
  }
  sum.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sum.nsPerCellIteration = sum.iterations ? 1e9 * sum.wallSeconds / (sum.iterations * nCells) : 0.0;
  flush_history();
  if (writer) writer(solver, "final");
  return sum;
}

} // namespace fv
