#pragma once
/// \file run_loop.hpp
/// The iteration loop of fvrun around an EulerSolver: CFL ramp, convergence and final-time
/// stopping, the progress line, history.csv, and the call site of the solution writers.
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/profile_report.hpp"
#include "runtime/solver/state_model.hpp"

#include <array>
#include <functional>
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
/// values (q_inf = 1 when the free stream is at rest).
Coefficients coefficients(const CaseConfig& cfg, const std::array<real_t, 6>& forces,
                          const std::array<real_t, 3>& viscousForce = {});

/// One row of history.csv.
struct HistoryRow {
  IterationStats stats;
  StateArray logResidual{}; ///< log10(rms / rms of the first iteration)
  Coefficients coeff;
  double wallSeconds = 0;
};

/// How a run ended.
struct RunSummary {
  int iterations = 0;     ///< iterations done in this run
  bool converged = false; ///< residual drop or final time reached
  std::string stopReason; ///< "converged", "final time", "iteration limit"
  double wallSeconds = 0;
  double nsPerCellIteration = 0;
  std::vector<HistoryRow> history;
  /// Per-kernel shares of the run (monitor.profile = true), last row "(outside kernels)".
  std::vector<ProfileShare> profile;
};

/// Writes the solution (volume/surface/restart). Called with reason "final" at the end and
/// "last good state" before a non-physical state stops the run. The output writers plug in
/// here; the single-zone fvrun passes the writers of formats/ once they exist.
using SolutionWriter = std::function<void(const EulerSolver&, const std::string& reason)>;

/// Runs the case: initialise() must have been called. Writes <output_dir>/history.csv
/// (formats/history_file.hpp: every output_interval iterations and at the end, atomically;
/// '#' header with the resolved configuration and the residual reference). When the solver
/// starts past iteration 0 (a restart), the existing history.csv is continued: its rows after
/// that iteration are dropped, its residual reference is reused (broadcast from rank 0) and
/// its wall clock carries on; and
/// <output_dir>/case.resolved.ini when `writeFiles`; logs a progress line every
/// output_interval iterations. With monitor.profile it times every kernel (profiler.hpp), logs
/// the table of profile_report.hpp and writes <output_dir>/profile.csv.
RunSummary run_case(EulerSolver& solver, bool writeFiles, const SolutionWriter& writer = {});

} // namespace fv
