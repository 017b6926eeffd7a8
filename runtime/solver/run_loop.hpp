#pragma once
/// \file run_loop.hpp
/// The iteration loop of fvrun around an EulerSolver: CFL ramp, convergence and final-time
/// stopping, the progress line, and the reports to a RunObserver (history rows, the state to
/// write) that the outputs implement.
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/profile_report.hpp"
#include "runtime/solver/state_model.hpp"

#include <array>
#include <limits>
#include <string>
#include <vector>

namespace fv {

/// Force and moment coefficients over the monitored wall patches.
struct Coefficients {
  real_t CL = 0, CD = 0, CS = 0;    ///< lift, drag, side force / (q_inf A_ref)
  real_t CDp = 0, CDv = 0;          ///< pressure and viscous (skin-friction) parts of CD
  real_t CMx = 0, CMy = 0, CMz = 0; ///< moments about moment_origin / (q_inf A_ref L_ref)
};

/// Coefficients of raw forces/moments (IterationStats::forces) with the case's reference
/// values (NaN when the free stream is at rest: no dynamic pressure).
Coefficients coefficients(const CaseConfig& cfg, const std::array<real_t, 6>& forces,
                          const std::array<real_t, 3>& viscousForce = {});

/// One row of history.csv.
struct HistoryRow {
  IterationStats stats;
  StateArray logResidual{}; ///< log10(rms / rms of the first iteration)
  Coefficients coeff;
  double wallSeconds = 0;
  /// Fixed lift ([freestream] target_cl): the angle of attack of the iteration (degrees) and
  /// the dCL/dalpha its updates use (per radian); NaN without fixed lift.
  real_t aoaDeg = std::numeric_limits<real_t>::quiet_NaN();
  real_t dclDalpha = std::numeric_limits<real_t>::quiet_NaN();
};

/// How a run ended.
struct RunSummary {
  int iterations = 0;     ///< iterations done in this run
  bool converged = false; ///< residual drop or final time reached
  std::string stopReason; ///< "converged", "final time", "iteration limit", "stopped by SIGTERM"
  int stopSignal = 0;     ///< the stop signal that ended the run (stop_request.hpp), 0: none
  /// Orders the convergence measure dropped by at the last iteration (local stepping with a
  /// convergence target; NaN otherwise).
  real_t orders = std::numeric_limits<real_t>::quiet_NaN();
  /// Fixed lift: the final angle of attack (degrees) and dCL/dalpha (per radian); NaN without.
  real_t aoaDeg = std::numeric_limits<real_t>::quiet_NaN();
  real_t dclDalpha = std::numeric_limits<real_t>::quiet_NaN();
  double wallSeconds = 0;
  double nsPerCellIteration = 0;
  std::vector<HistoryRow> history;
  /// Per-kernel shares of the run (monitor.profile = true), last row "(outside kernels)".
  std::vector<ProfileShare> profile;
};

/// What a run reports as it goes, to whoever records it: fvrun's outputs (output::CaseOutputs,
/// runtime/output/case_outputs.hpp) or the history files alone (output::RunRecord); the solver
/// includes no output. run_case() calls every rank's observer, in this order:
///   start -> reference? -> (row -> flush at the output interval -> checkpoint?)* -> profile? ->
///   flush -> solution("final") -> finished
/// (a stop signal, stop_request.hpp, ends the loop after its iteration: the final outputs
/// follow, RunSummary::stopSignal says why)
/// and, when a non-physical state stops the run: flush -> solution("last good state") ->
/// finished("failed: ...").
class RunObserver {
 public:
  /// What an observer knows of the run a restart continues (start()).
  struct Continuation {
    /// the continued run's residual reference is known; at iteration 0 (a warm start:
    /// EulerSolver::warm_start), the reference to measure the orders against
    bool haveReference = false;
    StateArray reference{};
    std::string failure; ///< why the continued history cannot be continued (empty: it can)
  };
  virtual ~RunObserver() = default;
  /// Before the first iteration, at solver.iteration() (> 0: a restart, whose run's residual
  /// reference the observer may know: rank 0's answer is what every rank uses).
  virtual Continuation start(const EulerSolver& /*solver*/) { return {}; }
  /// The residual reference the log residuals are relative to, once known.
  virtual void reference(const StateArray& /*reference*/) {}
  /// Every iteration's row.
  virtual void row(const HistoryRow& /*row*/) {}
  /// The rows so far are to be kept (every output_interval iterations, and at the end).
  virtual void flush() {}
  /// The per-kernel profile of the run (monitor.profile).
  virtual void profile(const std::vector<ProfileShare>& /*shares*/) {}
  /// The state to write: "final" at the end, "last good state" before a non-physical state
  /// stops the run. COLLECTIVE where the observer's writers are.
  virtual void solution(const EulerSolver& /*solver*/, const std::string& /*reason*/) {}
  /// How the run ended: RunSummary::stopReason, or "failed: <message>" when an error stopped
  /// it (after the last good state's solution()).
  virtual void finished(const std::string& /*status*/) {}
  /// The state to keep while the run goes on ([monitor] checkpoint_interval and
  /// checkpoint_minutes) and at a stop signal (before solution()): the restart. COLLECTIVE
  /// where the observer's writers are.
  virtual void checkpoint(const EulerSolver& /*solver*/) {}
};

/// Runs the case: initialise() must have been called. Reports to `observer` (see RunObserver):
/// its rows, the output intervals (monitor.output_interval), the profile and the state to
/// write. When the solver starts past iteration 0 (a restart), the observer's continuation
/// gives the residual reference (broadcast from rank 0); without one, log residuals are
/// relative to this run's first iteration. Logs a progress line every output_interval
/// iterations; with monitor.profile it times every kernel (profiler.hpp) and logs the table of
/// profile_report.hpp. With [freestream] target_cl it adjusts the angle of attack (FixedLift,
/// fixed_lift.hpp; EulerSolver::set_conditions) and converges only once the lift is reached too.
RunSummary run_case(EulerSolver& solver, RunObserver& observer);
/// The same with nothing recorded.
RunSummary run_case(EulerSolver& solver);

} // namespace fv
