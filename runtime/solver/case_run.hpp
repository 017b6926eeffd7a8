#pragma once
/// \file case_run.hpp
/// fvrun's run of one case on this rank's mapped zone: the device and the transport chosen
/// ([run] device, transport), the job logged in one line, the solver copied to the device and
/// initialised; then the residual assembly chosen and the iteration loop run (run_case()),
/// reporting to the outputs' RunObserver. Between the two, a restart may replace the initial
/// state (output::CaseOutputs::read_restart()).
///
///   CaseRun run(comm, zone, header, cfg);
///   outputs.read_restart(run.solver(), path);   // optional
///   const RunSummary sum = run.run(outputs);
#include "common/zone.hpp"
#include "runtime/backend/communicator.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/euler_solver.hpp"
#include "runtime/solver/run_loop.hpp"

#include <memory>
#include <mpi.h>

namespace fv {

/// See file comment. Keeps references to `zone` and `cfg`, which must outlive it. COLLECTIVE
/// over comm (one zone per rank).
class CaseRun {
 public:
  CaseRun(MPI_Comm comm, const Zone& zone, const ZoneFileHeader& header, const CaseConfig& cfg);
  ~CaseRun();

  EulerSolver& solver() { return *solver_; }
  const EulerSolver& solver() const { return *solver_; }

  /// Chooses the residual assembly and the node interpolation for the current state (logged;
  /// at the first call only: a campaign's later points keep them), then runs the case from it,
  /// reporting to `observer`.
  RunSummary run(RunObserver& observer);

 private:
  std::string meshUuid_;
  std::unique_ptr<backend::Communicator> communicator_;
  std::unique_ptr<EulerSolver> solver_;
  bool assemblyChosen_ = false;
};

} // namespace fv
