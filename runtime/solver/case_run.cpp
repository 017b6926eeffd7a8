#include "runtime/solver/case_run.hpp"

#include "common/log.hpp"
#include "common/version.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "runtime/parallel/reduce.hpp"

namespace fv {

CaseRun::CaseRun(MPI_Comm comm, const Zone& zone, const ZoneFileHeader& header,
                 const CaseConfig& cfg)
    : meshUuid_(header.meshUuid) {
  const int size = parallel::comm_size(comm);
  const std::string where = select_device(cfg.run.device);
  // the transport is chosen on one rank too, so that an impossible request fails the same
  communicator_ = backend::make_communicator(comm, cfg.run.transport);
  ParallelSetup par;
  if (size > 1) {
    par.comm = communicator_.get();
    par.overlap = cfg.run.overlap;
    par.commTiming = cfg.run.commTiming;
  }
  const gidx_t maxHalo = parallel::max_all<gidx_t>(comm, zone.nHaloCells);
  FV_LOG_INFO("fvkit " << kVersion << " fvrun: " << header.nGlobalCells << " cells in " << size
                       << " zone" << (size > 1 ? "s" : "") << " (rank 0: " << zone.nCells
                       << " cells, " << zone.nHaloCells << " halo; largest halo " << maxHalo
                       << "), " << zone.nPatches() << " patches; device: " << where
                       << (size > 1 ? std::string("; transport ") + communicator_->name() +
                                          (par.overlap ? ", overlapped" : ", not overlapped")
                                    : std::string()));
  log::Phase p("copying the zone to the device");
  solver_ = std::make_unique<EulerSolver>(zone, cfg, par);
  solver_->initialise();
  backend::synchronize();
  p.note(std::to_string(backend::bytes_allocated() >> 20) + " MiB on the device");
}

CaseRun::~CaseRun() = default;

RunSummary CaseRun::run(RunObserver& observer) {
  if (!assemblyChosen_) {
    assemblyChosen_ = true;
    const AssemblyChoice a = solver_->choose_assembly(meshUuid_);
    FV_LOG_INFO("residual assembly: " << a.note);
    FV_LOG_INFO("node interpolation: " << a.nodeLoop);
  }
  solver_->reset_comm_times();
  return run_case(*solver_, observer);
}

} // namespace fv
