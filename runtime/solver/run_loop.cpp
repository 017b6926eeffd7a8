#include "runtime/solver/run_loop.hpp"
#include "runtime/solver/state_model.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "common/stop_request.hpp"
#include "runtime/backend/profiler.hpp"
#include "runtime/config/case_conditions.hpp"
#include "runtime/solver/fixed_lift.hpp"
#include "runtime/solver/monitor.hpp"
#include "runtime/solver/progress_estimate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace fv {
namespace {

/// When the restart is written while the run goes on ([monitor] checkpoint_interval,
/// checkpoint_minutes).
class Checkpoints {
 public:
  explicit Checkpoints(const MonitorConfig& m)
      : interval_(m.checkpointInterval), seconds_(60.0 * m.checkpointMinutes) {}
  bool due(int iteration, double wallSeconds) const {
    return (interval_ > 0 && iteration % interval_ == 0) ||
           (seconds_ > 0 && wallSeconds - last_ >= seconds_);
  }
  void written(double wallSeconds) { last_ = wallSeconds; }

 private:
  int interval_;
  double seconds_;
  double last_ = 0;
};

/// What every rank does after an iteration.
struct Agreement {
  int stopSignal = 0;      ///< a rank received a stop signal (stop_request.hpp)
  bool checkpoint = false; ///< a rank's checkpoint is due (wall clocks differ)
};

/// The ranks' stop signals and checkpoint wishes combined (one small allreduce with MPI).
Agreement agree(const EulerSolver& solver, bool checkpointDue) {
  std::int64_t v[2] = {stop_signal(), checkpointDue ? 1 : 0};
  if (solver.comm()) solver.comm()->allreduce(v, 2, backend::ReduceOp::Max);
  return {static_cast<int>(v[0]), v[1] != 0};
}

} // namespace

Coefficients coefficients(const CaseConfig& cfg, const std::array<real_t, 6>& f,
                          const std::array<real_t, 3>& viscousForce) {
  const FlowConfig& flow = cfg.flow;
  // no dynamic pressure (a gas at rest): no coefficients, rather than forces passed off as ones
  const real_t q = flow.dynamic_pressure() > 0 ? flow.dynamic_pressure()
                                               : std::numeric_limits<real_t>::quiet_NaN();
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

RunSummary run_case(EulerSolver& solver) {
  RunObserver none;
  return run_case(solver, none);
}

RunSummary run_case(EulerSolver& solver, RunObserver& observer) {
  const CaseConfig& cfg = solver.config();
  RunSummary sum;
  // A run that starts from a restart (solver.iteration() > 0) continues the residual reference
  // of the run that wrote it, when the observer (rank 0's) knows it.
  const int startIteration = solver.iteration();
  const StateModel sm = StateModel::of(cfg.flow);
  const int nv = sm.nVars;
  const std::vector<int> shown = sm.shown_residuals(cfg.mesh.extrusion);
  RunObserver::Continuation from = observer.start(solver);
  StateArray& ref = from.reference;
  bool& haveRef = from.haveReference;
  if (startIteration > 0) {
    const std::string& failure = from.failure;
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
  }
  if (haveRef) observer.reference(ref);
  const bool givenRef = haveRef; // a restart's or a warm start's: the first row is measured
  // A warm start (a campaign's point from a neighbour's converged state) converges only once its
  // residual also dropped half the target below its own first one: the cold reference can be
  // dominated by cells the new conditions hardly change (a RANS wall), so that the neighbour's
  // state would pass at once although its far field is not yet the new one.
  const bool warm = givenRef && startIteration == 0;
  real_t warmFirst = 0; // log10 of the warm start's first residual measure
  std::optional<FixedLift> lift;
  if (cfg.lift.on) lift.emplace(cfg.lift, cfg.flow.aoaDeg);

  const auto t0 = std::chrono::steady_clock::now();
  const real_t nCells = static_cast<real_t>(solver.global_cells());
  {
    std::string head = "  iter";
    for (int k : shown) {
      char col[24];
      const std::string& name = sm.conservative[static_cast<std::size_t>(k)];
      std::snprintf(col, sizeof col, " %9s", ("log(" + name + ")").c_str());
      head += col;
    }
    FV_LOG_INFO("residuals: log10 of each equation's RMS relative to the "
                << (haveRef ? "run's reference" : "first iteration's")
                << " (history.csv also holds the RMS values)");
    FV_LOG_INFO(head << "        CL        CD     wall s  ms/iter  ns/cell/iter       CFL  lin"
                     << "  time left");
  }
  int lastPrinted = 0;
  double lastPrintSeconds = 0;
  // a progress line at every output interval, and at least every kProgressSeconds
  constexpr double kProgressSeconds = 10;
  const bool steadyTarget = cfg.time.localTimeStep && cfg.time.convergenceOrders > 0;
  Checkpoints checkpoints(cfg.monitor);
  // [time] iterations is the last iteration, counted from the first run's start (a restart at
  // iteration k runs iterations - k more); more_iterations (fvrun --more N): N more instead
  int maxIter = cfg.time.moreIterations > 0 ? cfg.time.moreIterations
                                            : std::max(0, cfg.time.iterations - startIteration);
  if (maxIter == 0 && startIteration > 0)
    FV_LOG_WARN("the restart is at iteration " << startIteration
                                               << ", [time] iterations = " << cfg.time.iterations
                                               << ": no iteration is left (--more N runs N more)");
  ProgressEstimate eta(maxIter, steadyTarget ? cfg.time.convergenceOrders : 0);
  sum.stopReason = "iteration limit";
  if (!cfg.time.localTimeStep && cfg.time.finalTime > 0 &&
      solver.time() >= cfg.time.finalTime * (1 - 1e-12)) { // a restart at or past final_time
    FV_LOG_WARN("the run starts at time " << solver.time() << ", at or past [time] final_time = "
                                          << cfg.time.finalTime << ": no step is taken");
    maxIter = 0;
    sum.converged = true;
    sum.stopReason = "final time";
  }
  if (cfg.monitor.profile) backend::profiling_start();
  for (int it = 0; it < maxIter; ++it) {
    IterationStats st;
    try {
      st = solver.step();
    } catch (const Error& e) {
      if (cfg.monitor.profile) (void)backend::profiling_stop();
      observer.flush();
      observer.solution(solver, "last good state");
      observer.finished(std::string("failed: ") + e.what());
      throw;
    }
    HistoryRow row;
    row.stats = st;
    if (!haveRef) {
      ref = residual_reference(cfg.flow, st.rms);
      haveRef = true;
      observer.reference(ref);
    }
    for (int k = 0; k < nv; ++k)
      row.logResidual[k] = std::log10(std::max(st.rms[k], 1e-300) / ref[k]);
    row.coeff = coefficients(cfg, st.forces, st.viscousForce);
    if (lift) {
      row.aoaDeg = lift->aoa_deg();
      row.dclDalpha = lift->slope();
    }
    row.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sum.history.push_back(row);
    observer.row(row);
    sum.iterations = it + 1;

    bool stop = false;
    // density and energy: the momentum components can be identically zero (2D flows)
    const real_t worst = std::log10(residual_measure(cfg.flow, st.rms, ref));
    eta.add(sum.iterations, row.wallSeconds, worst);
    if (steadyTarget) {
      sum.orders = -worst;
      if (warm && it == 0) warmFirst = worst;
      if (worst <= -cfg.time.convergenceOrders && (it > 0 || startIteration > 0 || givenRef) &&
          (!warm || worst <= warmFirst - cfg.time.convergenceOrders / 2) &&
          (!lift || lift->reached(row.coeff.CL))) {
        stop = true;
        sum.converged = true;
        sum.stopReason = "converged";
      }
      if (!stop && lift)
        if (const std::optional<real_t> aoa = lift->observe(
                row.coeff.CL, worst,
                !(solver.spatial_operator().first_order() && cfg.scheme.order == 2))) {
          FV_LOG_INFO("iteration " << st.iteration << ": fixed lift: CL " << row.coeff.CL
                                   << ", angle of attack " << *aoa << " deg (dCL/dalpha "
                                   << lift->slope() << " per radian)");
          solver.set_conditions(resolve_case_again(cfg, {"freestream.aoa=" + format_real(*aoa)}));
        }
    }
    if (!cfg.time.localTimeStep && cfg.time.finalTime > 0 &&
        st.time >= cfg.time.finalTime * (1 - 1e-12)) {
      stop = true;
      sum.converged = true;
      sum.stopReason = "final time";
    }
    // a stop signal on any rank, or a checkpoint due: every rank decides alike
    const Agreement agreed =
        agree(solver, !stop && checkpoints.due(solver.iteration(), row.wallSeconds));
    if (!stop && agreed.stopSignal) {
      stop = true;
      sum.stopSignal = agreed.stopSignal;
      sum.stopReason = std::string("stopped by ") + signal_name(agreed.stopSignal);
    }
    const bool last = stop || it + 1 == maxIter;
    if ((it + 1) % cfg.monitor.outputInterval == 0 || last || it == 0 ||
        row.wallSeconds - lastPrintSeconds >= kProgressSeconds) {
      const double perIter =
          (row.wallSeconds - lastPrintSeconds) / std::max(1, sum.iterations - lastPrinted);
      std::string line;
      char buf[256];
      std::snprintf(buf, sizeof buf, "%6d", st.iteration);
      line += buf;
      for (int k : shown) {
        std::snprintf(buf, sizeof buf, " %9.4f", row.logResidual[k]);
        line += buf;
      }
      std::snprintf(buf, sizeof buf, " %9.5f %9.5f %10.2f %8.3f %13.1f %9.3g %4d", row.coeff.CL,
                    row.coeff.CD, row.wallSeconds, 1e3 * perIter, 1e9 * perIter / nCells, st.cfl,
                    st.linearIterations);
      line += buf;
      if (lift) {
        std::snprintf(buf, sizeof buf, "  alpha %.6f", row.aoaDeg);
        line += buf;
      }
      if (!last) line += "  " + eta.text();
      FV_LOG_INFO(line);
      lastPrinted = sum.iterations;
      lastPrintSeconds = row.wallSeconds;
      if (!last) observer.flush();
    }
    if (agreed.checkpoint && !last) {
      observer.flush();
      observer.checkpoint(solver);
      checkpoints.written(row.wallSeconds);
    }
    if (stop) break;
  }
  if (lift) {
    sum.aoaDeg = lift->aoa_deg();
    sum.dclDalpha = lift->slope();
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
    observer.profile(sum.profile);
  }
  observer.flush();
  if (sum.stopSignal) observer.checkpoint(solver); // the work, whatever else is written
  observer.solution(solver, "final");
  observer.finished(sum.stopReason);
  return sum;
}

} // namespace fv
