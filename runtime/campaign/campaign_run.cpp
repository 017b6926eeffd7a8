#include "runtime/campaign/campaign_run.hpp"

#include "common/error.hpp"
#include "common/log.hpp"
#include "runtime/campaign/polar_file.hpp"
#include "runtime/campaign/predictor.hpp"
#include "runtime/campaign/rank_groups.hpp"
#include "runtime/config/case_conditions.hpp"
#include "runtime/output/case_outputs.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

namespace fv::campaign {
namespace {

/// A point's outputs, handing a warm start's reference to the run loop (its orders are counted
/// from the cold free-stream residual, not from the warm state's first residual).
class PointObserver : public RunObserver {
 public:
  PointObserver(output::CaseOutputs& out, std::optional<StateArray> ref)
      : out_(out), ref_(std::move(ref)) {}
  Continuation start(const EulerSolver& s) override {
    Continuation c = out_.start(s);
    if (ref_) {
      c.haveReference = true;
      c.reference = *ref_;
    }
    return c;
  }
  void reference(const StateArray& r) override { out_.reference(r); }
  void row(const HistoryRow& r) override { out_.row(r); }
  void flush() override { out_.flush(); }
  void profile(const std::vector<ProfileShare>& s) override { out_.profile(s); }
  void solution(const EulerSolver& s, const std::string& why) override { out_.solution(s, why); }
  void checkpoint(const EulerSolver& s) override { out_.checkpoint(s); }
  void finished(const std::string& status) override { out_.finished(status); }

 private:
  output::CaseOutputs& out_;
  std::optional<StateArray> ref_;
};

/// The text of the file `path` (empty when there is none).
std::string read_text(const std::string& path) {
  if (!std::filesystem::exists(path)) return {};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Rank 0's `text`, given to every rank of `comm`.
std::string broadcast(MPI_Comm comm, std::string text) {
  long n = static_cast<long>(text.size());
  MPI_Bcast(&n, 1, MPI_LONG, 0, comm);
  text.resize(static_cast<std::size_t>(n));
  if (n > 0)
    MPI_Bcast(text.data(), parallel::mpi_count(text.size(), "polar.csv"), MPI_CHAR, 0, comm);
  return text;
}

/// COLLECTIVE over `world`: the rows of an interrupted campaign (polar.csv and every group
/// file in its folder), read on world rank 0 and loaded by every rank, so that every group
/// resumes from the same rows, read before any group writes. Returns how many files had rows.
int load_finished_rows(MPI_Comm world, PolarFile& polar, const std::string& dir) {
  const bool rank0 = parallel::comm_rank(world) == 0;
  std::vector<std::string> paths = {polar.path()};
  if (rank0)
    for (const std::string& p : group_polar_paths(dir))
      paths.push_back(p);
  long n = static_cast<long>(paths.size());
  MPI_Bcast(&n, 1, MPI_LONG, 0, world);
  paths.resize(static_cast<std::size_t>(n));
  int files = 0;
  for (std::string& path : paths) {
    path = broadcast(world, path); // names other ranks did not list
    const std::string text = broadcast(world, rank0 ? read_text(path) : std::string());
    if (text.empty()) continue;
    polar.load(text, path);
    ++files;
  }
  return files;
}

/// World rank 0's polar.csv: `polar`'s rows (its group's and those read at the start) and every
/// group file's, in point order. `end`: the campaign is over, the group files go.
void merge_polar(const PolarFile& polar, const std::string& dir, bool end) {
  PolarFile merged = polar; // the others' rows are not the group's warm-start sources
  const std::vector<std::string> files = group_polar_paths(dir);
  for (const std::string& f : files)
    merged.load(read_text(f), f);
  merged.write();
  if (end)
    for (const std::string& f : files)
      std::filesystem::remove(f);
}

/// COLLECTIVE over the world: the summaries of every group's points together.
CampaignSummary combine(const RankGroups& groups, const CampaignSummary& s) {
  const bool leader = parallel::comm_rank(groups.comm()) == 0; // counts each group once
  long sums[3] = {leader ? static_cast<long>(s.skipped) : 0,
                  leader ? static_cast<long>(s.failed) : 0, leader ? s.iterations : 0};
  int stop = s.stopSignal;
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_LONG, MPI_SUM, groups.world());
  MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, groups.world());
  CampaignSummary all = s;
  all.skipped = static_cast<std::size_t>(sums[0]);
  all.failed = static_cast<std::size_t>(sums[1]);
  all.iterations = sums[2];
  all.stopSignal = stop;
  return all;
}

/// How one try of a point ended.
struct Try {
  bool converged = false;
  std::optional<RunSummary> sum; ///< none when an error stopped it
  std::string error;
};

} // namespace

CampaignSummary run_campaign(const RankGroups& groups, CaseRun& run, const Zone& zone,
                             const ZoneFileHeader& header, const CaseConfig& cfg,
                             const std::string& zoneFile) {
  const MPI_Comm comm = groups.comm();
  const std::string& dir = cfg.monitor.outputDir;
  const bool leader = parallel::comm_rank(comm) == 0, rank0 = leader && groups.index() == 0;
  PolarFile polar(cfg, header.meshUuid, dir);
  const std::vector<CampaignPoint>& points = polar.points();
  CampaignSummary summary;
  summary.points = points.size();
  if (load_finished_rows(groups.world(), polar, dir) > 0 && rank0)
    FV_LOG_INFO("campaign: " << polar.rows().size() << " of " << points.size()
                             << " points finished in " << polar.path() << ", skipped");
  if (rank0) FV_LOG_INFO("campaign: " << points.size() << " points into " << dir);
  const auto [first, last] = groups.points(points.size());
  const std::string tag = groups.count() == 1
                              ? std::string("campaign: ")
                              : "campaign (group " + std::to_string(groups.index() + 1) + "/" +
                                    std::to_string(groups.count()) + "): ";
  if (groups.count() > 1)
    FV_LOG_INFO(tag << "points " << first + 1 << " to " << last << " on "
                    << parallel::comm_size(comm)
                    << (parallel::comm_size(comm) == 1 ? " rank" : " ranks"));
  EulerSolver& solver = run.solver();
  // converged states kept in memory where no restart.h5 is written (write_solution = false)
  std::map<std::size_t, std::vector<real_t>> kept;

  for (std::size_t i = first; i < last; ++i) {
    if (polar.rows().count(i)) {
      ++summary.skipped;
      summary.failed += polar.rows().at(i).converged() ? 0 : 1;
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const CampaignPoint& p = points[i];
    // the nearest converged point whose state is at hand (ties: the earlier point)
    std::optional<std::size_t> source;
    real_t nearest = 0;
    auto restart_of = [&](std::size_t j) {
      return (std::filesystem::path(dir) / points[j].folder / "restart.h5").string();
    };
    for (const auto& [j, r] : polar.rows()) {
      // a state at hand: kept, or its restart.h5 (a resumed campaign's folder may lack it)
      if (!r.converged() || !(kept.count(j) || std::filesystem::exists(restart_of(j)))) continue;
      const real_t d = point_distance(cfg.sweep, p, points[j]);
      if (!source || d < nearest) {
        source = j;
        nearest = d;
      }
    }
    std::vector<std::string> sets = point_overrides(cfg.sweep, p, dir);
    if (source && cfg.lift.on) // fixed lift: from the angle the source point found
      sets.push_back("freestream.aoa=" + format_real(polar.rows().at(*source).alpha));
    const CaseConfig pc = resolve_case_again(cfg, sets);
    solver.set_conditions(pc);
    const StateArray coldRef = solver.cold_reference(); // leaves the free stream, iteration 0

    PolarRow row;
    row.point = i;
    row.warmSource = "cold";
    // the secant predictor ([sweep] extrapolate): the finished point k beyond the source j on
    // p's axis nearest to j, its state and j's extrapolated to p (predictor.hpp)
    auto predict = [&](std::size_t j, const auto& load) {
      std::optional<std::size_t> k;
      real_t t = 0, best = 0;
      for (const auto& [m, r] : polar.rows()) {
        if (m == j || !r.converged() || !(kept.count(m) || std::filesystem::exists(restart_of(m))))
          continue;
        const std::optional<real_t> s = secant_step(p, points[j], points[m]);
        const real_t d = point_distance(cfg.sweep, points[j], points[m]);
        if (s && (!k || d < best)) {
          k = m;
          t = *s;
          best = d;
        }
      }
      if (!k) return;
      std::vector<real_t> U = solver.conservative();
      load(*k);
      const std::size_t keptCells = extrapolate_state(
          U, solver.conservative(), t, zone.nTotalCells(), solver.state(), pc.flow.gamma);
      solver.set_conservative(U);
      FV_LOG_INFO(tag << p.folder << " starts from " << points[j].folder << " and "
                      << points[*k].folder << " extrapolated (t = " << t << "; " << keptCells
                      << " cells kept " << points[j].folder << "'s state)");
    };
    auto attempt = [&](bool warm) {
      Try t;
      output::CaseOutputs outputs(comm, zone, header, pc, zoneFile);
      std::optional<StateArray> ref;
      if (warm) {
        const PolarRow& from = polar.rows().at(*source);
        const std::string& folder = points[*source].folder;
        auto load = [&](std::size_t j) {
          if (kept.count(j))
            solver.set_conservative(kept.at(j));
          else
            outputs.read_restart(solver, restart_of(j));
        };
        load(*source);
        if (cfg.sweep.extrapolate) predict(*source, load);
        solver.warm_start(cfg.sweep.warmCflFactor * from.finalCfl, coldRef);
        ref = coldRef;
        row.warmSource = folder;
      } else {
        solver.initialise(); // the free stream (cold_reference() left it too)
        row.warmSource = "cold";
      }
      PointObserver observer(outputs, ref);
      try {
        t.sum = run.run(observer);
        t.converged = t.sum->converged;
      } catch (const Error& e) {
        t.error = e.what();
      }
      row.iterations += solver.iteration();
      row.finalCfl = solver.cfl_controller().cfl();
      return t;
    };
    Try t = attempt(source.has_value());
    if (t.sum && t.sum->stopSignal) { // the point's outputs are written; it has no row
      summary.stopSignal = t.sum->stopSignal;
      FV_LOG_WARN(tag << t.sum->stopReason << " during " << p.folder << "; " << polar.path()
                      << " holds the points finished before it: run the same command again "
                      << "to go on");
      break;
    }
    row.status = t.converged ? PointStatus::Converged : PointStatus::Failed;
    if (!t.converged && source) {
      FV_LOG_WARN(tag << p.folder << ": the warm start from " << row.warmSource << " failed ("
                      << (t.error.empty() ? t.sum->stopReason : t.error)
                      << "); retrying from the free stream");
      t = attempt(false);
      row.status = t.converged ? PointStatus::Retried : PointStatus::Failed;
    }
    const real_t nan = std::numeric_limits<real_t>::quiet_NaN();
    row.alpha = pc.flow.aoaDeg;
    row.dclDalpha = row.orders = nan;
    row.CL = row.CD = row.CDp = row.CDv = row.CS = row.CMx = row.CMy = row.CMz = nan;
    if (t.sum && !t.sum->history.empty()) {
      const Coefficients& c = t.sum->history.back().coeff;
      row.CL = c.CL, row.CD = c.CD, row.CDp = c.CDp, row.CDv = c.CDv, row.CS = c.CS;
      row.CMx = c.CMx, row.CMy = c.CMy, row.CMz = c.CMz;
      row.orders = t.sum->orders;
      if (pc.lift.on) {
        row.alpha = t.sum->aoaDeg;
        row.dclDalpha = t.sum->dclDalpha;
      }
    }
    if (row.converged() && !pc.monitor.writeSolution) kept[i] = solver.conservative();
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    polar.set(row);
    if (rank0)
      merge_polar(polar, dir, false);
    else if (leader)
      polar.write(group_polar_path(dir, groups.index()));
    summary.iterations += row.iterations;
    summary.failed += row.converged() ? 0 : 1;
    FV_LOG_INFO(
        tag << "point " << i + 1 << "/" << points.size() << " " << p.folder << ": "
            << to_string(row.status) << " after " << row.iterations << " iterations (" << row.orders
            << " orders; "
            << (row.warmSource == "cold" ? std::string("cold") : "warm from " + row.warmSource)
            << "), CL " << row.CL << ", CD " << row.CD
            << (pc.lift.on ? ", alpha " + format_real(row.alpha) : "") << ", " << row.seconds
            << " s" << (t.error.empty() ? "" : "; " + t.error));
  }
  // every group done (or stopped): polar.csv gets every row, the group files go
  wait_for_every_group(groups.world());
  const CampaignSummary all = combine(groups, summary);
  if (rank0) merge_polar(polar, dir, true);
  if (rank0 && !all.stopSignal)
    FV_LOG_INFO("campaign: " << all.points - all.failed << " of " << all.points
                             << " points converged (" << all.skipped << " from an earlier run), "
                             << all.iterations << " iterations in this run; " << polar.path());
  return all;
}

} // namespace fv::campaign
