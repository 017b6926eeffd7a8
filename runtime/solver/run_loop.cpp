#include "runtime/solver/run_loop.hpp"
#include "runtime/solver/state_model.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/history_file.hpp"
#include "runtime/backend/profiler.hpp"
#include "runtime/solver/monitor.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace fv {

Coefficients coefficients(const CaseConfig& cfg, const std::array<real_t, 6>& f,
                          const std::array<real_t, 3>& viscousForce) {
  const FlowConfig& flow = cfg.flow;
  real_t q = flow.dynamic_pressure();
  if (!(q > 0)) q = 1.0;
  const real_t fa = 1.0 / (q * cfg.monitor.refArea), ma = fa / cfg.monitor.refLength;
  auto dot = [&](const std::array<real_t, 3>& d) {
    return f[0] * d[0] + f[1] * d[1] + f[2] * d[2];
  };
  Coefficients c;
  c.CL = dot(flow.liftDir) * fa;
  c.CD = dot(flow.dragDir) * fa;
  c.CS = dot(flow.sideDir) * fa;
  c.CMx = f[3] * ma;
  c.CMy = f[4] * ma;
  c.CMz = f[5] * ma;
  c.CDv = (viscousForce[0] * flow.dragDir[0] + viscousForce[1] * flow.dragDir[1] +
           viscousForce[2] * flow.dragDir[2]) *
          fa;
  c.CDp = c.CD - c.CDv;
  return c;
}

namespace {
/// history.csv's columns: time, dt, the log residual of every conserved variable of the model,
/// the raw RMS of density and energy, the coefficients, cfl, linear_its, wall_s, CDp, CDv.
std::vector<std::string> history_columns(const StateModel& sm) {
  std::vector<std::string> v = {"time", "dt"};
  for (const std::string& name : sm.conservative)
    v.push_back("res_" + name);
  for (const char* name : {"rms_rho", "rms_rhoE", "CL", "CD", "CS", "CMx", "CMy", "CMz", "cfl",
                           "linear_its", "wall_s", "CDp", "CDv"})
    v.push_back(name);
  return v;
}
/// Index of wall_s among history_columns() (time = 0).
std::size_t wall_column(const StateModel& sm) {
  return 2 + static_cast<std::size_t>(sm.nVars) + 10;
}
constexpr const char* kRefKey = "residual_reference = ";
constexpr const char* kRestartKey = "restarted at iteration ";

/// The history comment block: the resolved configuration, the residual reference once known,
/// and the restart points of the runs this history continues.
std::string history_comments(const CaseConfig& cfg, bool haveRef, const StateArray& ref,
                             const std::vector<std::string>& restarts) {
  const int nv = StateModel::of(cfg.flow).nVars;
  std::ostringstream out;
  out << cfg.resolvedIni;
  if (!cfg.resolvedIni.empty() && cfg.resolvedIni.back() != '\n') out << "\n";
  if (haveRef) {
    out << kRefKey;
    for (int k = 0; k < nv; ++k) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.17g", k ? ", " : "", ref[k]);
      out << buf;
    }
    out << "\n";
  }
  for (const auto& r : restarts)
    out << r << "\n";
  return out.str();
}
} // namespace

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
  const std::string dir = cfg.monitor.outputDir;
  if (writeFiles) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    FV_VERIFY(!ec, "cannot create output directory '" << dir << "': " << ec.message());
    write_text((fs::path(dir) / "case.resolved.ini").string(), cfg.resolvedIni);
  }
  // history.csv through HistoryFile (rewritten atomically). A run that starts from a restart
  // (solver.iteration() > 0) continues the history of the run that wrote it: rows after the
  // restart iteration are dropped, the residual reference and the wall clock carry on.
  const int startIteration = solver.iteration();
  const StateModel sm = StateModel::of(cfg.flow);
  const int nv = sm.nVars;
  std::unique_ptr<HistoryFile> history;
  StateArray ref{};
  bool haveRef = false;
  double wallOffset = 0;
  std::vector<std::string> restarts;
  if (writeFiles) {
    history = std::make_unique<HistoryFile>((fs::path(dir) / "history.csv").string(),
                                            history_columns(sm));
    history->set_precision(17);
  }
  if (startIteration > 0) {
    std::string failure;
    if (history) {
      try {
        const std::size_t kept = history->resume(startIteration);
        for (const std::string& c : history->resumed_comments()) {
          if (c.rfind(kRestartKey, 0) == 0) restarts.push_back(c);
          if (c.rfind(kRefKey, 0) != 0) continue;
          std::istringstream in(c.substr(std::string(kRefKey).size()));
          std::string item;
          int k = 0;
          while (k < nv && std::getline(in, item, ','))
            ref[k++] = std::strtod(item.c_str(), nullptr);
          haveRef = k == nv;
        }
        if (kept > 0) wallOffset = history->value(kept - 1, wall_column(sm));
        FV_LOG_INFO("history: continuing " << history->path() << " (" << kept
                                           << " rows up to iteration " << startIteration << ")");
      } catch (const Error& e) {
        failure = e.what();
      }
    }
    if (solver.comm()) { // every rank needs the reference (convergence stop)
      std::vector<double> buf = {failure.empty() ? 0.0 : 1.0, haveRef ? 1.0 : 0.0};
      buf.insert(buf.end(), ref.begin(), ref.begin() + nv);
      solver.comm()->broadcast(buf.data(), buf.size() * sizeof(double), 0);
      FV_VERIFY(buf[0] == 0.0,
                (failure.empty() ? "rank 0 could not continue history.csv" : failure));
      haveRef = buf[1] != 0.0;
      for (int k = 0; k < nv; ++k)
        ref[k] = buf[2 + k];
    }
    FV_VERIFY(failure.empty(), failure);
    if (!haveRef)
      FV_LOG_WARN("history: no residual reference of the first run found; log residuals of "
                  "this run are relative to its first iteration");
    restarts.push_back(kRestartKey + std::to_string(startIteration));
  }
  auto flush_history = [&] {
    if (!history) return;
    history->set_comments(history_comments(cfg, haveRef, ref, restarts));
    history->flush();
  };

  const auto t0 = std::chrono::steady_clock::now();
  const real_t nCells = static_cast<real_t>(solver.global_cells());
  {
    std::string head = "  iter";
    for (const std::string& name : sm.conservative) {
      char col[24];
      std::snprintf(col, sizeof col, " %9s", ("log(" + name + ")").c_str());
      head += col;
    }
    FV_LOG_INFO(head << "        CL        CD     wall s  ms/iter  ns/cell/iter       CFL  lin");
  }
  int lastPrinted = 0;
  double lastPrintSeconds = 0;
  const int maxIter = cfg.time.iterations;
  sum.stopReason = "iteration limit";
  if (cfg.monitor.profile) backend::profiling_start();
  for (int it = 0; it < maxIter; ++it) {
    IterationStats st;
    try {
      st = solver.step();
    } catch (const Error&) {
      if (cfg.monitor.profile) (void)backend::profiling_stop();
      flush_history();
      if (writer) writer(solver, "last good state");
      throw;
    }
    HistoryRow row;
    row.stats = st;
    if (!haveRef) {
      ref = residual_reference(cfg.flow, st.rms);
      haveRef = true;
    }
    for (int k = 0; k < nv; ++k)
      row.logResidual[k] = std::log10(std::max(st.rms[k], 1e-300) / ref[k]);
    row.coeff = coefficients(cfg, st.forces, st.viscousForce);
    row.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sum.history.push_back(row);
    if (history) {
      std::vector<real_t> values;
      values.reserve(wall_column(sm) + 3);
      values.push_back(st.time);
      values.push_back(st.dt);
      for (int k = 0; k < nv; ++k)
        values.push_back(row.logResidual[k]);
      for (real_t x : {st.rms[StateModel::kDensity], st.rms[StateModel::kEnergy], row.coeff.CL,
                       row.coeff.CD, row.coeff.CS, row.coeff.CMx, row.coeff.CMy, row.coeff.CMz,
                       st.cfl, static_cast<real_t>(st.linearIterations),
                       wallOffset + row.wallSeconds, row.coeff.CDp, row.coeff.CDv})
        values.push_back(x);
      history->add(st.iteration, values);
    }
    sum.iterations = it + 1;

    bool stop = false;
    if (cfg.time.localTimeStep && cfg.time.convergenceOrders > 0 &&
        (it > 0 || startIteration > 0)) {
      // density and energy: the momentum components can be identically zero (2D flows)
      const real_t worst = std::log10(residual_measure(cfg.flow, st.rms, ref));
      if (worst <= -cfg.time.convergenceOrders) {
        stop = true;
        sum.converged = true;
        sum.stopReason = "converged";
      }
    }
    if (!cfg.time.localTimeStep && cfg.time.finalTime > 0 &&
        st.time >= cfg.time.finalTime * (1 - 1e-12)) {
      stop = true;
      sum.converged = true;
      sum.stopReason = "final time";
    }
    const bool last = stop || it + 1 == maxIter;
    if ((it + 1) % cfg.monitor.outputInterval == 0 || last || it == 0) {
      const double perIter =
          (row.wallSeconds - lastPrintSeconds) / std::max(1, sum.iterations - lastPrinted);
      std::string line;
      char buf[256];
      std::snprintf(buf, sizeof buf, "%6d", st.iteration);
      line += buf;
      for (int k = 0; k < nv; ++k) {
        std::snprintf(buf, sizeof buf, " %9.4f", row.logResidual[k]);
        line += buf;
      }
      std::snprintf(buf, sizeof buf, " %9.5f %9.5f %10.2f %8.3f %13.1f %9.3g %4d", row.coeff.CL,
                    row.coeff.CD, row.wallSeconds, 1e3 * perIter, 1e9 * perIter / nCells, st.cfl,
                    st.linearIterations);
      line += buf;
      FV_LOG_INFO(line);
      lastPrinted = sum.iterations;
      lastPrintSeconds = row.wallSeconds;
      if (!last) flush_history();
    }
    if (stop) break;
  }
  sum.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sum.nsPerCellIteration = sum.iterations ? 1e9 * sum.wallSeconds / (sum.iterations * nCells) : 0.0;
  if (cfg.monitor.profile) {
    // per rank: this zone's kernels over its owned cells (rank 0's table with MPI)
    const std::vector<backend::KernelProfileRow> rows = backend::profiling_stop();
    sum.profile = profile_shares(rows, sum.wallSeconds, sum.iterations,
                                 static_cast<double>(solver.zone().nCells));
    FV_LOG_INFO("kernel profile (" << backend_name() << ", " << solver.zone().nCells << " cells, "
                                   << sum.iterations << " iterations):\n"
                                   << profile_table(sum.profile));
    if (writeFiles) write_text((fs::path(dir) / "profile.csv").string(), profile_csv(sum.profile));
  }
  flush_history();
  if (writer) writer(solver, "final");
  return sum;
}

} // namespace fv
