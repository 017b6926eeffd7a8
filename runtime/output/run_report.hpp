#pragma once
/// \file run_report.hpp
/// fvrun's end-of-run report (log lines on rank 0, collective over the ranks of `comm`):
///   fvrun: <stop reason> after N iterations in S s (X ns per cell per iteration); CL, CD;
///     outputs in <dir>
///   fvrun: time per iteration ... and its split (the slowest rank's value of each part): one
///     zone, all compute; several zones, measured with --comm-timing (run.comm_timing), else
///     unknown (nan)
/// and the machine-readable line the bench scripts parse (scripts/mpi_scaling.sh,
/// gpu_vs_cpu.sh), on stdout of rank 0 with fvrun -v:
///   FVRUN_TIMING ranks=R cells=C iterations=N time_per_iter_s=T compute_s=X pack_unpack_s=Y
///     wait_s=Z
#include "runtime/config/case_config.hpp"
#include "runtime/solver/run_loop.hpp"
#include "runtime/solver/spatial_operator.hpp"

#include <mpi.h>

namespace fv::output {

/// Reports a finished run (see file comment). `times`: this rank's halo exchange times over
/// the run (EulerSolver::comm_times()). COLLECTIVE over comm.
void report_run(MPI_Comm comm, const CaseConfig& cfg, gidx_t globalCells, const RunSummary& sum,
                const CommTimes& times);

} // namespace fv::output
