#pragma once
/// \file polar_file.hpp
/// polar.csv, a campaign's table in its output folder (README "Campaigns"): '#' lines naming
/// the campaign (the mesh UUID and the campaign's resolved configuration but output_dir, so
/// that a moved folder still resumes and another campaign or case is refused), a header line,
/// then one row per finished point in the campaign's point order:
///
///   <swept keys>, CL, CD, CDp, CDv, CS, CMx, CMy, CMz, alpha, dCL_dalpha, iterations, orders,
///   converged, status, warm_source, final_cfl, seconds, folder
///
/// Reals with 17 significant digits (swept values with 12: format_value()), so that a resumed
/// campaign's table equals an uninterrupted one's but for the seconds. Written by one rank,
/// rewritten whole after every point through fv::AtomicFile: the file always holds the
/// points finished so far, whatever stops the process.
///
/// With groups of ranks ([sweep] groups), each group but the first keeps its rows in a group
/// file of the same form beside it, polar.group<g>.csv (group_polar_path()); polar.csv is
/// merged from them (rank 0, after each of its points and at the end, when the group files go).
/// A resumed campaign reads polar.csv and every group file.
#include "runtime/campaign/campaign_points.hpp"
#include "runtime/config/case_config.hpp"

#include <map>
#include <string>
#include <vector>

namespace fv::campaign {

/// How a point ended.
enum class PointStatus {
  Converged, ///< its first try converged
  Retried,   ///< a warm start failed, the cold retry converged
  Failed     ///< no try converged (diverged, non-physical, or the iteration limit)
};
const char* to_string(PointStatus s);

/// One row of polar.csv.
struct PolarRow {
  std::size_t point = 0; ///< index into campaign_points()
  real_t CL = 0, CD = 0, CDp = 0, CDv = 0, CS = 0, CMx = 0, CMy = 0, CMz = 0;
  real_t alpha = 0;     ///< the final angle of attack (degrees; fixed lift moves it)
  real_t dclDalpha = 0; ///< fixed lift: dCL/dalpha per radian (NaN without)
  int iterations = 0;   ///< every try of the point together
  real_t orders = 0;    ///< orders the residual dropped by (its last try)
  PointStatus status = PointStatus::Failed;
  std::string warmSource; ///< the folder of the point it started from, or "cold"
  real_t finalCfl = 0;    ///< the CFL the point ended with (a warm start's source CFL)
  double seconds = 0;
  bool converged() const { return status != PointStatus::Failed; }
};

/// polar.csv of a campaign: its points and, once read or added, their rows.
class PolarFile {
 public:
  /// The table at `dir`/polar.csv of the campaign `cfg` (resolved with its [sweep]) on the
  /// mesh `meshUuid`. Nothing is read or written yet.
  PolarFile(const CaseConfig& cfg, const std::string& meshUuid, const std::string& dir);

  const std::string& path() const { return path_; }
  const std::vector<CampaignPoint>& points() const { return points_; }
  const std::map<std::size_t, PolarRow>& rows() const { return rows_; }

  /// The text of an existing polar.csv (or group file, named `source` in messages; empty:
  /// path()): its rows are taken as finished points (a resumed campaign). A file of another
  /// campaign, case or mesh, or a row that names no point, is an error naming the first
  /// difference.
  void load(const std::string& text, const std::string& source = "");
  /// Adds (or replaces) a point's row.
  void set(const PolarRow& row);
  /// The whole file: header, then the rows in point order.
  std::string text() const;
  /// Writes text() to `path` (empty: path()) atomically.
  void write(const std::string& path = "") const;

 private:
  std::string header() const;
  SweepConfig sweep_;
  std::string comments_;
  std::string path_;
  std::vector<CampaignPoint> points_;
  std::map<std::size_t, PolarRow> rows_;
};

/// The group file of group `group` (>= 1) of a campaign whose output folder is `dir`:
/// `dir`/polar.group<group>.csv.
std::string group_polar_path(const std::string& dir, int group);
/// The group files in `dir` (of any group count: an interrupted campaign's), sorted.
std::vector<std::string> group_polar_paths(const std::string& dir);

} // namespace fv::campaign
