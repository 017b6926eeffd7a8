#include "runtime/campaign/polar_file.hpp"

#include "common/error.hpp"
#include "runtime/output/run_record.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace fv::campaign {
namespace {

constexpr const char* kColumns[] = {"CL",         "CD",      "CDp",       "CDv",    "CS",
                                    "CMx",        "CMy",     "CMz",       "alpha",  "dCL_dalpha",
                                    "iterations", "orders",  "converged", "status", "warm_source",
                                    "final_cfl",  "seconds", "folder"};
constexpr std::size_t kNumColumns = sizeof kColumns / sizeof kColumns[0];

std::string real(real_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(line);
  while (std::getline(in, item, ','))
    out.push_back(item);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

real_t number(const std::string& s) {
  return std::strtod(s.c_str(), nullptr); // "nan" too
}

} // namespace

const char* to_string(PointStatus s) {
  switch (s) {
  case PointStatus::Converged:
    return "converged";
  case PointStatus::Retried:
    return "retried";
  case PointStatus::Failed:
    break;
  }
  return "failed";
}

PolarFile::PolarFile(const CaseConfig& cfg, const std::string& meshUuid, const std::string& dir)
    : sweep_(cfg.sweep), path_((std::filesystem::path(dir) / "polar.csv").string()),
      points_(campaign_points(cfg.sweep)) {
  std::ostringstream c;
  c << "# fvrun campaign polar: one row per finished point (README \"Campaigns\")\n";
  c << "# mesh_uuid = " << meshUuid << "\n";
  std::istringstream in(cfg.resolvedIni);
  std::string line;
  while (std::getline(in, line)) // the case but where its outputs go
    if (!line.empty() && line[0] != '#' && line.rfind("output_dir = ", 0) != 0)
      c << "# " << line << "\n";
  comments_ = c.str();
}

std::string PolarFile::header() const {
  std::string h = comments_;
  for (const SweepAxis& a : sweep_.axes)
    h += a.key + ",";
  for (std::size_t k = 0; k < kNumColumns; ++k)
    h += std::string(kColumns[k]) + (k + 1 < kNumColumns ? "," : "\n");
  return h;
}

void PolarFile::load(const std::string& text, const std::string& source) {
  const std::string& where = source.empty() ? path_ : source; // the file, for messages
  const std::string head = header();
  std::istringstream in(text), want(head);
  std::string line, expected;
  int lineNo = 0;
  while (std::getline(want, expected)) {
    ++lineNo;
    const bool got = static_cast<bool>(std::getline(in, line));
    FV_VERIFY(got && line == expected,
              where << " is of another campaign, case or mesh (line " << lineNo << ": '"
                    << (got ? line : std::string("end of file")) << "', this campaign: '"
                    << expected << "'): remove it or choose another output_dir");
  }
  const std::size_t nAxes = sweep_.axes.size();
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty()) continue;
    const std::vector<std::string> f = split(line);
    FV_VERIFY(f.size() == nAxes + kNumColumns, where << ":" << lineNo << ": " << f.size()
                                                     << " columns, expected "
                                                     << nAxes + kNumColumns);
    const std::string& folder = f.back();
    std::size_t point = points_.size();
    for (std::size_t i = 0; i < points_.size(); ++i)
      if (points_[i].folder == folder) point = i;
    FV_VERIFY(point < points_.size(),
              where << ":" << lineNo << ": '" << folder << "' is no point of this campaign");
    PolarRow r;
    r.point = point;
    const std::string* v = f.data() + nAxes;
    real_t* reals[] = {&r.CL, &r.CD, &r.CDp, &r.CDv, &r.CS, &r.CMx, &r.CMy, &r.CMz};
    for (int k = 0; k < 8; ++k)
      *reals[k] = number(v[k]);
    r.alpha = number(v[8]);
    r.dclDalpha = number(v[9]);
    r.iterations = std::atoi(v[10].c_str());
    r.orders = number(v[11]);
    r.status = v[13] == "converged" ? PointStatus::Converged
               : v[13] == "retried" ? PointStatus::Retried
                                    : PointStatus::Failed;
    r.warmSource = v[14];
    r.finalCfl = number(v[15]);
    r.seconds = number(v[16]);
    rows_[point] = r;
  }
}

void PolarFile::set(const PolarRow& row) {
  rows_[row.point] = row;
}

std::string PolarFile::text() const {
  std::string t = header();
  for (const auto& [point, r] : rows_) {
    for (real_t v : points_[point].values)
      t += format_value(v) + ",";
    for (real_t v : {r.CL, r.CD, r.CDp, r.CDv, r.CS, r.CMx, r.CMy, r.CMz, r.alpha, r.dclDalpha})
      t += real(v) + ",";
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.3f", r.seconds);
    t += std::to_string(r.iterations) + "," + real(r.orders) + "," +
         (r.converged() ? "yes" : "no") + "," + to_string(r.status) + "," + r.warmSource + "," +
         real(r.finalCfl) + "," + secs + "," + points_[point].folder + "\n";
  }
  return t;
}

void PolarFile::write(const std::string& path) const {
  output::write_text_file(path.empty() ? path_ : path, text());
}

std::string group_polar_path(const std::string& dir, int group) {
  return (std::filesystem::path(dir) / ("polar.group" + std::to_string(group) + ".csv")).string();
}

std::vector<std::string> group_polar_paths(const std::string& dir) {
  std::vector<std::string> paths;
  std::error_code ec; // no folder yet: none
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    // polar.group<digits>.csv
    const std::string name = e.path().filename().string(), head = "polar.group", tail = ".csv";
    if (name.size() <= head.size() + tail.size() || name.rfind(head, 0) != 0 ||
        name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
      continue;
    const std::string digits = name.substr(head.size(), name.size() - head.size() - tail.size());
    if (digits.find_first_not_of("0123456789") == std::string::npos)
      paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

} // namespace fv::campaign
