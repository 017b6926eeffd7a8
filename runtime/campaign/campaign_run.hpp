#pragma once
/// \file campaign_run.hpp
/// fvrun's campaign ([sweep], fvrun --sweep; README "Campaigns", docs/solver.md "Warm starts"):
/// every point of the sweep (campaign_points.hpp) run on the live solver of one CaseRun, the
/// zone copied to the device once. For each point, in order:
///   1. the case resolved again with the point's values (resolve_case_again()) and its
///      conditions set on the solver (EulerSolver::set_conditions);
///   2. the cold reference: the residual of the free stream under those conditions
///      (EulerSolver::cold_reference()), so that the orders of a warm start mean a cold run's;
///   3. a warm start from the converged state of the nearest finished point whose state is at
///      hand (point_distance(), ties to the earlier point; its restart.h5, or the state kept
///      in memory when no solution is written), the CFL law resumed at warm_cfl_factor times that
///      point's final CFL (EulerSolver::warm_start), or a cold start from the free stream when no
///      point has converged yet;
///   4. the run (run_case()) into the point's folder through output::CaseOutputs; a warm start
///      that fails (a non-physical state, or no convergence within [time] iterations) is run
///      again cold, and a point that fails cold is reported failed; the campaign goes on;
///   5. its row in polar.csv (polar_file.hpp), rewritten atomically, and one log line.
/// A polar.csv already in the output folder (an interrupted campaign started again with the
/// same command) gives the points to skip. A stop signal (stop_request.hpp) ends the point in
/// progress after its iteration (its folder gets its outputs, polar.csv no row) and the
/// campaign (CampaignSummary::stopSignal): polar.csv holds the points finished before it.
///
/// By default every rank runs every point (rank 0 writes polar.csv). With [sweep] groups = G
/// (fvrun --sweep-groups G; rank_groups.hpp) the ranks form G groups, each a campaign as above
/// on its own communicator and zones over a contiguous share of the points (group g: points
/// [g n / G, (g + 1) n / G), so that its warm-start chain is unbroken; its first point starts
/// cold). Each group's leader writes its rows to polar.group<g>.csv (group 0: world rank 0,
/// which merges every group file into polar.csv after each of its points); once every group is
/// done, or stopped, world rank 0 merges them into polar.csv, in point order, and removes them.
/// Resuming reads polar.csv and the group files. A stop signal ends each group's point in
/// progress; the campaign ends when every group has. Warm starts come only from the group's own
/// points (and those of an earlier run), never from another group's running chain, so a
/// campaign's rows do not depend on the groups' timing.
#include "common/zone.hpp"
#include "runtime/campaign/rank_groups.hpp"
#include "runtime/config/case_config.hpp"
#include "runtime/solver/case_run.hpp"

#include <mpi.h>
#include <string>

namespace fv::campaign {

/// What a campaign did.
struct CampaignSummary {
  std::size_t points = 0;  ///< points of the sweep
  std::size_t skipped = 0; ///< finished in an earlier run (polar.csv)
  std::size_t failed = 0;  ///< points that failed (this run and earlier ones)
  long iterations = 0;     ///< iterations of this run's points, every try
  int stopSignal = 0;      ///< a stop signal ended the campaign (stop_request.hpp), 0: none
};

/// Runs this rank's group's share of the campaign of `cfg` (cfg.sweep.active()) on `run`,
/// whose solver was made for `cfg` on `zone` over groups.comm(); `zoneFile` names the zone
/// file in messages. COLLECTIVE over groups.world(). Returns the whole campaign's summary
/// (every group's points), the same on every rank.
CampaignSummary run_campaign(const RankGroups& groups, CaseRun& run, const Zone& zone,
                             const ZoneFileHeader& header, const CaseConfig& cfg,
                             const std::string& zoneFile);

} // namespace fv::campaign
