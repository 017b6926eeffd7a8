#include "runtime/output/run_record.hpp"
#include "runtime/output/run_stamp.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fv::output {
namespace {

/// Index of wall_s among history_columns() (time = 0) with `nResiduals` residual columns.
std::size_t wall_column(std::size_t nResiduals) {
  return 2 + nResiduals + 10;
}
constexpr const char* kRefKey = "residual_reference = ";
constexpr const char* kRestartKey = "restarted at iteration ";

/// The history comment block: the resolved configuration, the residual reference once known,
/// and the restart points of the runs this history continues.
std::string history_comments(const CaseConfig& cfg, int nVars, bool haveRef, const StateArray& ref,
                             const std::vector<std::string>& restarts) {
  std::ostringstream out;
  out << cfg.resolvedIni;
  if (!cfg.resolvedIni.empty() && cfg.resolvedIni.back() != '\n') out << "\n";
  if (haveRef) {
    out << kRefKey;
    for (int k = 0; k < nVars; ++k) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.17g", k ? ", " : "", ref[k]);
      out << buf;
    }
    out << "\n";
  }
  for (const auto& r : restarts)
    out << r << "\n";
  return out.str();
}

} // namespace

void write_text_file(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  {
    std::ofstream o(f.temp_path(), std::ios::binary);
    FV_VERIFY(o.good(), "cannot write '" << f.temp_path() << "'");
    o << text;
    o.close();
    FV_VERIFY(o.good(), "error writing '" << f.temp_path() << "'");
  }
  f.commit();
}

std::vector<std::string> history_columns(const StateModel& sm, bool fixedLift,
                                         const Extrusion& extrusion) {
  std::vector<std::string> v = {"time", "dt"};
  for (int k : sm.shown_residuals(extrusion))
    v.push_back("res_" + sm.conservative[static_cast<std::size_t>(k)]);
  for (const char* name : {"rms_rho", "rms_rhoE", "CL", "CD", "CS", "CMx", "CMy", "CMz", "cfl",
                           "linear_its", "wall_s", "CDp", "CDv"})
    v.push_back(name);
  if (fixedLift) {
    v.push_back("aoa");
    v.push_back("dcl_dalpha");
  }
  return v;
}

RunRecord::RunRecord(const CaseConfig& cfg)
    : cfg_(cfg), dir_(cfg.monitor.outputDir), nVars_(StateModel::of(cfg.flow).nVars),
      residuals_(StateModel::of(cfg.flow).shown_residuals(cfg.mesh.extrusion)) {}

RunRecord::~RunRecord() = default;

void RunRecord::finished(const std::string& status) {
  if (stamp_) stamp_->finish(status);
}

RunObserver::Continuation RunRecord::start(const EulerSolver& solver) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  FV_VERIFY(!ec, "cannot create output directory '" << dir_ << "': " << ec.message());
  stamp_ = std::make_unique<RunStamp>(dir_, solver.iteration());
  write_text_file((fs::path(dir_) / "case.resolved.ini").string(), cfg_.resolvedIni);
  history_ =
      std::make_unique<HistoryFile>((fs::path(dir_) / "history.csv").string(),
                                    history_columns(StateModel::of(cfg_.flow), cfg_.lift.on,
                                                    cfg_.mesh.extrusion));
  history_->set_precision(17);
  Continuation from;
  const int startIteration = solver.iteration();
  if (startIteration <= 0) return from;
  // a restart continues the history of the run that wrote it: rows after the restart iteration
  // are dropped, the residual reference and the wall clock carry on
  try {
    const std::size_t kept = history_->resume(startIteration);
    for (const std::string& c : history_->resumed_comments()) {
      if (c.rfind(kRestartKey, 0) == 0) restarts_.push_back(c);
      if (c.rfind(kRefKey, 0) != 0) continue;
      std::istringstream in(c.substr(std::string(kRefKey).size()));
      std::string item;
      int k = 0;
      while (k < nVars_ && std::getline(in, item, ','))
        from.reference[k++] = std::strtod(item.c_str(), nullptr);
      from.haveReference = k == nVars_;
    }
    if (kept > 0) wallOffset_ = history_->value(kept - 1, wall_column(residuals_.size()));
    FV_LOG_INFO("history: continuing " << history_->path() << " (" << kept
                                       << " rows up to iteration " << startIteration << ")");
  } catch (const Error& e) {
    from.failure = e.what();
  }
  restarts_.push_back(kRestartKey + std::to_string(startIteration));
  return from;
}

void RunRecord::reference(const StateArray& reference) {
  ref_ = reference;
  haveRef_ = true;
}

void RunRecord::row(const HistoryRow& row) {
  if (!history_) return;
  const IterationStats& st = row.stats;
  std::vector<real_t> values;
  values.reserve(wall_column(residuals_.size()) + 5);
  values.push_back(st.time);
  values.push_back(st.dt);
  for (int k : residuals_)
    values.push_back(row.logResidual[k]);
  for (real_t x : {st.rms[StateModel::kDensity], st.rms[StateModel::kEnergy], row.coeff.CL,
                   row.coeff.CD, row.coeff.CS, row.coeff.CMx, row.coeff.CMy, row.coeff.CMz, st.cfl,
                   static_cast<real_t>(st.linearIterations), wallOffset_ + row.wallSeconds,
                   row.coeff.CDp, row.coeff.CDv})
    values.push_back(x);
  if (cfg_.lift.on) {
    values.push_back(row.aoaDeg);
    values.push_back(row.dclDalpha);
  }
  history_->add(st.iteration, values);
}

void RunRecord::flush() {
  if (!history_) return;
  history_->set_comments(history_comments(cfg_, nVars_, haveRef_, ref_, restarts_));
  history_->flush();
}

void RunRecord::profile(const std::vector<ProfileShare>& shares) {
  write_text_file((std::filesystem::path(dir_) / "profile.csv").string(), profile_csv(shares));
}

} // namespace fv::output
