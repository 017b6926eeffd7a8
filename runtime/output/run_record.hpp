#pragma once
/// \file run_record.hpp
/// The record of a run in its output folder, written by one rank (rank 0) and needing no MPI:
/// case.resolved.ini (the resolved case text), history.csv (formats/history_file.hpp: one row
/// per iteration, rewritten atomically at every output interval and at the end; '#' header
/// with the resolved configuration, the residual reference and the restart points) and, with
/// monitor.profile, profile.csv (solver/profile_report.hpp). A RunObserver: run_case() feeds it.
///
///   output::RunRecord record(cfg);        // into cfg.monitor.outputDir
///   run_case(solver, record);
///
/// start() also stamps the folder (run.txt; a new run moves another run's outputs to
/// previous_run/: run_stamp.hpp).
/// A run that starts past iteration 0 (a restart) continues the folder's history.csv: its rows
/// after that iteration are dropped, its residual reference is handed to the run loop and its
/// wall clock carries on.
#include "formats/history_file.hpp"
#include "runtime/solver/run_loop.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fv::output {

/// Writes `text` to `path` through fv::AtomicFile (temporary, checked close, rename).
void write_text_file(const std::string& path, const std::string& text);

/// history.csv's columns: time, dt, the log residual of each StateModel::shown_residuals(), the
/// raw RMS of density and energy, the coefficients, cfl, linear_its, wall_s, CDp, CDv; with
/// fixed lift ([freestream] target_cl) aoa (degrees) and dcl_dalpha (per radian) after them.
std::vector<std::string> history_columns(const StateModel& sm, bool fixedLift = false,
                                         const Extrusion& extrusion = {});

/// See file comment. Keeps a reference to `cfg`, which must outlive it.
class RunRecord : public RunObserver {
 public:
  explicit RunRecord(const CaseConfig& cfg);
  ~RunRecord() override;

  /// Creates the folder, writes case.resolved.ini and opens history.csv (continued for a
  /// restart: the failure to read it is returned, not thrown).
  Continuation start(const EulerSolver& solver) override;
  void reference(const StateArray& reference) override;
  void row(const HistoryRow& row) override;
  /// Rewrites history.csv with the rows so far.
  void flush() override;
  /// Writes profile.csv.
  void profile(const std::vector<ProfileShare>& shares) override;
  /// run.txt's final status (run_stamp.hpp).
  void finished(const std::string& status) override;

 private:
  const CaseConfig& cfg_;
  std::string dir_;
  std::unique_ptr<HistoryFile> history_;
  std::unique_ptr<class RunStamp> stamp_; ///< run.txt (run_stamp.hpp), from start()
  int nVars_ = 0;
  std::vector<int> residuals_; ///< StateModel::shown_residuals(): the residual columns
  bool haveRef_ = false;
  StateArray ref_{};
  double wallOffset_ = 0;             ///< the continued history's last wall time
  std::vector<std::string> restarts_; ///< "restarted at iteration N" comments
};

} // namespace fv::output
