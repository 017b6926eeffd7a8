#pragma once
/// \file case_outputs.hpp
/// Everything fvrun writes for one case into its output folder (monitor.output_dir), as the
/// RunObserver the run loop reports to, constructed once per run on every rank:
///   run.txt, case.resolved.ini, history.csv,     RunRecord (rank 0; run.txt: run_stamp.hpp,
///   profile.csv                                  another run's outputs to previous_run/)
///   solution.h5 + .xmf | solution.cgns             the volume solution (monitor.solution_format)
///                                                  at the end, solution_last_good.* when a
///                                                  non-physical state stops the run
///   surface_<patch>.csv + .vtp                     each monitored wall patch: p, Cp (viscous
///                                                  models: Cf vector and magnitude, heat flux,
///                                                  y+), at the end
///   restart.h5                                     the conservative state, at the end
/// the end-of-run report (run_report.hpp), and the reading of a restart into a solver: from a
/// run on any number of ranks of the same mesh, a mean-flow restart (Euler, laminar) starting a
/// RANS run with the free stream's nu-tilde. With monitor.write_solution = false only the
/// record is written (benchmarks). Files go through fv::AtomicFile; derived quantities come
/// from the model (derived_fields.hpp).
///
///   output::CaseOutputs outputs(comm, zone, header, cfg, zonePath);
///   if (!restart.empty()) outputs.read_restart(solver, restart);
///   const RunSummary sum = run_case(solver, outputs);
///   outputs.report(sum, solver);
#include "common/zone.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/output/collective_writer.hpp"
#include "runtime/output/run_record.hpp"
#include "runtime/solver/run_loop.hpp"

#include <memory>
#include <mpi.h>
#include <string>

namespace fv::output {

/// See file comment. Keeps references to `zone` and `cfg`, which must outlive it; `zoneFile`
/// names the zone file in messages. read_restart(), solution() and report() are COLLECTIVE
/// over comm; the record's calls (start() ... profile()) write on rank 0 only.
class CaseOutputs : public RunObserver {
 public:
  CaseOutputs(MPI_Comm comm, const Zone& zone, const ZoneFileHeader& header, const CaseConfig& cfg,
              std::string zoneFile);
  ~CaseOutputs() override;

  /// Starts `solver` from the restart at `path` (state, iteration and time).
  void read_restart(EulerSolver& solver, const std::string& path);

  // ---- RunObserver: the record on rank 0, the solution files on every rank
  Continuation start(const EulerSolver& solver) override;
  void reference(const StateArray& reference) override;
  void row(const HistoryRow& row) override;
  void flush() override;
  void profile(const std::vector<ProfileShare>& shares) override;
  void solution(const EulerSolver& solver, const std::string& reason) override;
  void finished(const std::string& status) override;
  /// The restart (restart.h5), atomically: a checkpoint of the run going on or stopped
  /// (written with [monitor] write_solution = false too: it is the run's work).
  void checkpoint(const EulerSolver& solver) override;

  /// The end-of-run report of a run that reported here (run_report.hpp).
  void report(const RunSummary& sum, const EulerSolver& solver) const;

 private:
  void write_volume(const EulerSolver& solver, const std::string& reason);
  void write_surfaces(const EulerSolver& solver);
  void write_restart(const EulerSolver& solver);

  MPI_Comm comm_;
  const Zone& zone_;
  ZoneFileHeader header_;
  const CaseConfig& cfg_;
  std::string zoneFile_;
  CollectiveWriter writer_;
  std::unique_ptr<RunRecord> record_; ///< rank 0
  int restartIteration_ = -1;         ///< the iteration of the restart written last
};

} // namespace fv::output
