#include "runtime/solver/case_run.hpp"

#include "common/log.hpp"
#include "common/version.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/select.hpp"
#include "runtime/backend/transport.hpp"
#include "runtime/backend/wait_watchdog.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "runtime/parallel/reduce.hpp"
#include "runtime/physics/navier_stokes/transport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace fv {
namespace {

/// "N MiB on the device, B bytes per cell; ...": what this case takes per cell and how large a
/// zone of it the device could hold (its whole memory: the CUDA context and other processes'
/// share are not counted).
std::string capacity_note(const Zone& zone) {
  const double bytes = static_cast<double>(backend::bytes_allocated());
  const double perCell = bytes / std::max<double>(1, zone.nCells);
  const double total = static_cast<double>(backend::device_memory_total());
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "%.0f MiB on the device, %.0f bytes per cell; its %.1f GiB would hold at most "
                "%.3g million cells of this case",
                bytes / 1048576.0, perCell, total / 1073741824.0, total / perCell / 1e6);
  return buf;
}

/// The free stream and the coefficients' references, once at the start.
void log_conditions(const CaseConfig& cfg) {
  const FlowConfig& f = cfg.flow;
  const auto& w = f.freestream;
  const real_t speed = std::sqrt(w[phys::kVelocity] * w[phys::kVelocity] +
                                 w[phys::kVelocity + 1] * w[phys::kVelocity + 1] +
                                 w[phys::kVelocity + 2] * w[phys::kVelocity + 2]);
  std::ostringstream m;
  m << "free stream: Mach " << f.mach << ", alpha " << f.aoaDeg << " deg, beta " << f.sideslipDeg
    << " deg, p " << w[phys::kPressure] << ", rho " << w[phys::kDensity] << ", |u| " << speed;
  if (f.viscous()) // as given, or of the viscosity law at the free-stream temperature
    m << ", Re "
      << (f.reynolds > 0 ? f.reynolds
                         : w[phys::kDensity] * speed * f.reynoldsLength /
                               phys::viscosity(f.transport, f.temperature))
      << " on " << f.reynoldsLength;
  const MonitorConfig& mon = cfg.monitor;
  const Extrusion& e = cfg.mesh.extrusion;
  m << (f.nondimensional ? " (nondimensional)" : " (SI)") << "; coefficients: q "
    << f.dynamic_pressure() << ", reference area " << mon.refArea;
  if (e.extruded() && mon.refArea == mon.refLength * e.thickness) // the 2D default
    m << " (2D: chord " << mon.refLength << " x thickness " << e.thickness << ")";
  m << ", length " << mon.refLength << ", lift along " << enum_name(kLiftAxisNames, f.liftAxis)
    << ", moments about (" << cfg.monitor.momentOrigin[0] << ", " << cfg.monitor.momentOrigin[1]
    << ", " << cfg.monitor.momentOrigin[2] << ")";
  FV_LOG_INFO(m.str());
}

} // namespace

CaseRun::CaseRun(MPI_Comm comm, const Zone& zone, const ZoneFileHeader& header,
                 const CaseConfig& cfg)
    : meshUuid_(header.meshUuid) {
  const int size = parallel::comm_size(comm);
  if (size > 1) backend::set_wait_limit(cfg.run.waitLimit); // the handler: run_mpi_main's
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
  log_conditions(cfg);
  log::Phase p("copying the zone to the device");
  solver_ = std::make_unique<EulerSolver>(zone, cfg, par);
  solver_->initialise();
  backend::synchronize();
  p.note(capacity_note(zone));
}


CaseRun::~CaseRun() = default;

RunSummary CaseRun::run(RunObserver& observer) {
  if (!assemblyChosen_) {
    assemblyChosen_ = true;
    const AssemblyChoice a = solver_->choose_assembly(meshUuid_);
    FV_LOG_DEBUG("residual assembly: " << a.note); // developers: fvrun -v
    FV_LOG_DEBUG("node interpolation: " << a.nodeLoop);
  }
  solver_->reset_comm_times();
  return run_case(*solver_, observer);
}

} // namespace fv
