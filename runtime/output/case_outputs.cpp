#include "runtime/output/case_outputs.hpp"

#include "common/log.hpp"
#include "runtime/output/derived_fields.hpp"
#include "runtime/output/run_report.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <algorithm>
#include <filesystem>

namespace fv::output {

CaseOutputs::CaseOutputs(MPI_Comm comm, const Zone& zone, const ZoneFileHeader& header,
                         const CaseConfig& cfg, std::string zoneFile)
    : comm_(comm), zone_(zone), header_(header), cfg_(cfg), zoneFile_(std::move(zoneFile)),
      writer_(comm, zone, header.nGlobalNodes, header.nGlobalCells, header.meshUuid) {
  if (parallel::comm_rank(comm) == 0) record_ = std::make_unique<RunRecord>(cfg);
}

CaseOutputs::~CaseOutputs() = default;

void CaseOutputs::read_restart(EulerSolver& solver, const std::string& path) {
  log::Phase p("reading restart " + path);
  const StateModel& sm = solver.state();
  const int nv = sm.nVars;
  const idx_t nt = zone_.nTotalCells();
  std::vector<real_t> owned(static_cast<std::size_t>(zone_.nCells) * nv);
  int held = nv;
  // a mean-flow restart (Euler, laminar) may start a RANS run: nu-tilde of the free stream
  const SolutionInfo at = writer_.read_restart(path, owned.data(), nv, phys::kNumEq, &held);
  const std::vector<real_t> inf = sm.freestream(cfg_.flow);
  std::vector<real_t> U(static_cast<std::size_t>(nt) * nv, 0.0);
  for (idx_t c = 0; c < zone_.nCells; ++c)
    for (int k = 0; k < nv; ++k) {
      const real_t* u = &owned[static_cast<std::size_t>(c) * nv];
      U[static_cast<std::size_t>(k) * nt + c] = k < held ? u[k] : u[0] * inf[k];
    }
  if (held < nv)
    FV_LOG_INFO("restart " << path << " holds the mean flow only: "
                           << sm.conservative[static_cast<std::size_t>(held)]
                           << " starts from the free stream");
  solver.set_conservative(U);
  solver.set_progress(static_cast<int>(at.iteration), at.time);
  if (at.cfl > 0) solver.continue_cfl(at.cfl); // where the run that wrote it had got to
  p.note("iteration " + std::to_string(at.iteration) +
         (at.cfl > 0 ? ", CFL " + format_real(at.cfl) : std::string()));
}

RunObserver::Continuation CaseOutputs::start(const EulerSolver& solver) {
  return record_ ? record_->start(solver) : Continuation{};
}

void CaseOutputs::reference(const StateArray& reference) {
  if (record_) record_->reference(reference);
}

void CaseOutputs::row(const HistoryRow& row) {
  if (record_) record_->row(row);
}

void CaseOutputs::flush() {
  if (record_) record_->flush();
}

void CaseOutputs::profile(const std::vector<ProfileShare>& shares) {
  if (record_) record_->profile(shares);
}

void CaseOutputs::finished(const std::string& status) {
  if (record_) record_->finished(status);
}

void CaseOutputs::checkpoint(const EulerSolver& solver) {
  write_restart(solver);
}

void CaseOutputs::solution(const EulerSolver& solver, const std::string& reason) {
  const bool final = reason == "final";
  if (!cfg_.monitor.writeSolution && final) return; // benchmarks: history/profile only
  // the restart first: it is the work a failed later write (a full disk) must not take along
  // a diverged state never replaces the last good restart; a stop wrote it already
  if (final && restartIteration_ != solver.iteration()) write_restart(solver);
  write_volume(solver, reason);
  if (final) write_surfaces(solver);
}

void CaseOutputs::write_volume(const EulerSolver& solver, const std::string& reason) {
  const std::string stem = reason == "final" ? "solution" : "solution_last_good";
  const std::filesystem::path dir(cfg_.monitor.outputDir);
  VolumeTargets to;
  if (cfg_.monitor.solutionFormat != SolutionFormat::Cgns) to.h5 = (dir / (stem + ".h5")).string();
  if (cfg_.monitor.solutionFormat != SolutionFormat::Xdmf) {
    to.cgns = (dir / (stem + ".cgns")).string();
    to.patches = header_.patches;
  }
  const int iteration = solver.iteration();
  writer_.write_volume(to, volume_fields(solver), iteration, solver.time(), cfg_.resolvedIni,
                       [&](const std::string& path) {
                         FV_LOG_INFO("wrote " << path << " (" << reason << ", iteration "
                                              << iteration << ")");
                       });
}

void CaseOutputs::write_surfaces(const EulerSolver& solver) {
  std::vector<idx_t> patches;
  std::vector<std::string> names;
  const auto& monitored = cfg_.monitor.forcePatches;
  for (idx_t p = 0; p < zone_.nPatches(); ++p) {
    const std::string& name = cfg_.patches[static_cast<std::size_t>(p)].name;
    if (std::find(monitored.begin(), monitored.end(), name) != monitored.end()) {
      patches.push_back(p);
      names.push_back(name);
    }
  }
  const std::vector<real_t> W = solver.primitive();
  // viscous models: the viscous force, heat flux and y+ of the wall faces (a residual
  // evaluation of the current state)
  const std::vector<real_t> wall =
      cfg_.flow.viscous() ? solver.wall_viscous_data() : std::vector<real_t>();
  writer_.write_surfaces(cfg_.monitor.outputDir + "/surface", patches, names,
                         [&](idx_t p) { return surface_columns(zone_, cfg_, W, wall, p); });
}

void CaseOutputs::write_restart(const EulerSolver& solver) {
  if (header_.meshUuid.empty()) { // a restart must name its mesh; fvprep always sets it
    FV_LOG_INFO("no restart written: " << zoneFile_ << " has no mesh UUID (write it with fvprep)");
    return;
  }
  const StateModel& sm = solver.state();
  const int nv = sm.nVars;
  const idx_t nt = zone_.nTotalCells();
  const std::vector<real_t> U = solver.conservative();
  std::vector<real_t> owned(static_cast<std::size_t>(zone_.nCells) * nv);
  for (idx_t c = 0; c < zone_.nCells; ++c)
    for (int k = 0; k < nv; ++k)
      owned[static_cast<std::size_t>(c) * nv + k] = U[static_cast<std::size_t>(k) * nt + c];
  const std::string path = cfg_.monitor.outputDir + "/restart.h5";
  writer_.write_restart(path, owned.data(), sm.conservative, solver.iteration(), solver.time(),
                        cfg_.resolvedIni, solver.cfl_controller().cfl());
  restartIteration_ = solver.iteration();
  FV_LOG_INFO("wrote " << path << " (iteration " << solver.iteration() << ")");
}

void CaseOutputs::report(const RunSummary& sum, const EulerSolver& solver) const {
  report_run(comm_, cfg_, header_.nGlobalCells, sum, solver.comm_times());
}

} // namespace fv::output
