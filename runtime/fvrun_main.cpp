// fvrun: runs a compressible Euler, Navier-Stokes or RANS case on a prepared zone file, on the
// GPU when there is one (or with --device cpu on the CPU through OpenMP, from the same kernels).
//
//   [mpirun -np N] fvrun mesh.zones.h5 -c case.ini [--set section.key=value]... [--iterations N]
//         [--cfl X] [--device auto|cpu|cuda] [--output-dir DIR] [--restart FILE]
//         [--no-overlap] [--comm-timing] [--cuda-aware-mpi] [--profile] [--quiet]
//         [--sweep KEY=SPEC]... [--sweep-groups G]
// One zone per MPI rank (N = the zone count of the file, or one of its partitionings). The
// steps, each in its room:
//   parse   config/fvrun_cli.hpp        the command line and the case file with its overrides
//   open    parallel/zone_mapping.hpp   this rank's zone of the partitioning with one per rank
//                                       (per rank of its group: campaign/rank_groups.hpp)
//   run     solver/case_run.hpp         device, transport, solver, iteration loop
//   report  output/case_outputs.hpp     every file of the output folder, restart reading, the
//                                       end-of-run report
//   or, with [sweep] (--sweep), all of a campaign's points on the same solver:
//           campaign/campaign_run.hpp   warm starts, polar.csv, resume; with --sweep-groups,
//                                       groups of ranks sharing the points
#include "common/error.hpp"
#include "common/log.hpp"
#include "common/stop_request.hpp"
#include "formats/hdf5_file.hpp"
#include "formats/zone_file_reader.hpp"
#include "runtime/campaign/campaign_run.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/config/fvrun_cli.hpp"
#include "runtime/output/case_outputs.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/mpi_util.hpp"
#include "runtime/parallel/zone_mapping.hpp"
#include "runtime/solver/case_run.hpp"

#include <mpi.h>

int main(int argc, char** argv) {
  fv::h5::skip_library_shutdown(); // a failed write (a full disk) must not crash at exit
  fv::install_stop_request();      // SIGINT, SIGTERM, SIGUSR1: stop after the iteration
  return fv::parallel::run_mpi_main("fvrun", argc, argv, [&]() -> int {
    // ---- parse
    fv::FvrunCommandLine cl;
    if (const std::optional<int> exit = fv::parse_fvrun_command_line(argc, argv, cl)) return *exit;
    const fv::log::Level level = fv::log::level();
    if (fv::parallel::comm_rank(MPI_COMM_WORLD) != 0)
      fv::log::set_level(fv::log::Level::Warn); // one progress log per job (per rank group)
    const fv::IniFile ini = cl.case_file();
    // the case needs the mesh's patches (any partitioning's header), the zone the case's groups
    const fv::CaseConfig cfg = fv::resolve_case(ini, fv::open_zone_file(cl.zonePath).header());
    FV_VERIFY_USAGE(!cfg.sweep.active() || cl.restartPath.empty(),
                    "--restart does not start a campaign: its points start from each other "
                    "(run the same command again to resume one)");
    FV_VERIFY_USAGE(cfg.sweep.active() || cfg.sweep.groups == 1,
                    "--sweep-groups ([sweep] groups) shares a campaign's points: give --sweep");
    const fv::campaign::RankGroups groups(MPI_COMM_WORLD, cfg.sweep.groups);
    const MPI_Comm comm = groups.comm();
    if (fv::parallel::comm_rank(comm) == 0) fv::log::set_level(level);

    // ---- open
    const fv::parallel::RankZone mapped =
        fv::parallel::map_rank_zone(comm, cl.zonePath, !cl.noChecksums, groups.count());

    // ---- run
    fv::CaseRun run(comm, mapped.zone, mapped.header, cfg);
    if (cfg.sweep.active()) {
      const fv::campaign::CampaignSummary s =
          fv::campaign::run_campaign(groups, run, mapped.zone, mapped.header, cfg, cl.zonePath);
      if (s.stopSignal) return 128 + s.stopSignal;
      return s.failed == 0 ? 0 : 1;
    }
    fv::output::CaseOutputs outputs(comm, mapped.zone, mapped.header, cfg, cl.zonePath);
    if (!cl.restartPath.empty()) outputs.read_restart(run.solver(), cl.restartPath);
    const fv::RunSummary sum = run.run(outputs);

    // ---- report
    outputs.report(sum, run.solver());
    if (sum.stopSignal) { // the outputs of the last iteration are written: say how to go on
      FV_LOG_WARN("fvrun: " << sum.stopReason << " after iteration " << run.solver().iteration()
                            << "; continue with --restart " << cfg.monitor.outputDir
                            << "/restart.h5");
      return 128 + sum.stopSignal;
    }
    return 0;
  });
}
