#pragma once
/// \file run_stamp.hpp
/// An output folder holds one run. run.txt names it (written by rank 0 through AtomicFile):
///
///   id = host-pid-start     started = 2026-12-07T13:56:02Z     status = running
///   finished = ...          (status: converged, iteration limit, final time, stopped by
///                            SIGTERM, failed: <message>; "running" after a crash)
///
/// A run that starts at iteration 0 in a folder holding the outputs of another run (any file
/// fvrun writes there) first moves them into previous_run/ (replacing an older one) and says
/// so; a restart continues its folder (its history.csv) and moves nothing.
#include <string>

namespace fv::output {

class RunStamp {
 public:
  /// Stamps `dir` for a run starting at `iteration` (0: a new run; the folder must exist).
  RunStamp(std::string dir, int iteration);
  /// The run's final status (RunSummary::stopReason, or "failed: ...").
  void finish(const std::string& status);
  const std::string& id() const { return id_; }

 private:
  void write(const std::string& status, const std::string& finished) const;
  std::string dir_, id_, started_;
};

/// Whether `name` is a file fvrun writes into an output folder (run.txt, case.resolved.ini,
/// history.csv/.png, profile.csv, restart.h5, solution* and surface_* files).
bool is_run_output(const std::string& name);

} // namespace fv::output
