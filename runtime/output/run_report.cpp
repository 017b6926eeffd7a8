#include "runtime/output/run_report.hpp"

#include "common/log.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "runtime/parallel/reduce.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <sstream>
#include <vector>

namespace fv::output {

void report_run(MPI_Comm comm, const CaseConfig& cfg, gidx_t globalCells, const RunSummary& sum,
                const CommTimes& t) {
  const int rank = parallel::comm_rank(comm), size = parallel::comm_size(comm);
  std::ostringstream coeff; // none without an iteration (iterations = 0: the initial state)
  if (!sum.history.empty())
    coeff << "; CL " << sum.history.back().coeff.CL << ", CD " << sum.history.back().coeff.CD;
  FV_LOG_INFO("fvrun: " << sum.stopReason << " after " << sum.iterations << " iterations in "
                        << sum.wallSeconds << " s (" << sum.nsPerCellIteration
                        << " ns per cell per iteration)" << coeff.str() << "; outputs in "
                        << cfg.monitor.outputDir);
  // time per iteration and its split (the slowest rank's value of each part): single zone,
  // all compute; several zones, measured with --comm-timing, else unknown (nan)
  const double iter = sum.wallSeconds / std::max(1, sum.iterations);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double compute = size > 1 ? nan : iter, packUnpack = size > 1 ? nan : 0.0,
         wait = size > 1 ? nan : 0.0;
  if (size > 1 && cfg.run.commTiming) {
    const double per = 1.0 / std::max(1, sum.iterations);
    std::vector<double> v = {t.pack * per, t.wait * per, t.unpack * per,
                             iter - (t.pack + t.wait + t.unpack) * per};
    std::vector<double> mx = v, mn = v;
    parallel::max_all(comm, mx);
    parallel::min_all(comm, mn);
    compute = mx[3];
    packUnpack = mx[0] + mx[2];
    wait = mx[1];
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "fvrun: time per iteration %.3f ms: compute %.3f ms (min over ranks %.3f), "
                  "pack+unpack %.3f ms, wait %.3f ms (max over ranks; %ld exchanges per rank)",
                  1e3 * iter, 1e3 * compute, 1e3 * mn[3], 1e3 * packUnpack, 1e3 * wait,
                  t.exchanges);
    FV_LOG_INFO(buf);
  } else if (size > 1) {
    FV_LOG_INFO("fvrun: time per iteration " << 1e3 * iter
                                             << " ms (--comm-timing splits it into compute, "
                                                "pack/unpack and wait)");
  }
  // machine-readable line for the bench scripts (mpi_scaling.sh, gpu_vs_cpu.sh): fvrun -v
  if (rank == 0 && log::level() >= log::Level::Debug)
    std::printf("FVRUN_TIMING ranks=%d cells=%lld iterations=%d time_per_iter_s=%.6e "
                "compute_s=%.6e pack_unpack_s=%.6e wait_s=%.6e\n",
                size, static_cast<long long>(globalCells), sum.iterations, iter, compute,
                packUnpack, wait);
}

} // namespace fv::output
