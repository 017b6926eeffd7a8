#include "runtime/campaign/campaign_points.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace fv::campaign {

std::string format_value(real_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

std::vector<CampaignPoint> campaign_points(const SweepConfig& sweep) {
  std::vector<CampaignPoint> points(1);
  for (const SweepAxis& axis : sweep.axes) {
    std::vector<CampaignPoint> next;
    for (const CampaignPoint& p : points)
      for (real_t v : axis.values) {
        CampaignPoint q = p;
        q.values.push_back(v);
        q.folder += (q.folder.empty() ? "" : "_") + axis.key + "_" + format_value(v);
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  return points;
}

real_t point_distance(const SweepConfig& sweep, const CampaignPoint& a, const CampaignPoint& b) {
  real_t d2 = 0;
  for (std::size_t k = 0; k < sweep.axes.size(); ++k) {
    const real_t d = (a.values[k] - b.values[k]) / sweep.axes[k].spacing();
    d2 += d * d;
  }
  return std::sqrt(d2);
}

std::vector<std::string> point_overrides(const SweepConfig& sweep, const CampaignPoint& p,
                                         const std::string& dir) {
  std::vector<std::string> sets;
  for (std::size_t k = 0; k < sweep.axes.size(); ++k) {
    // the value itself, not its 12-digit name: the point's case is the single run at it
    sets.push_back("freestream." + sweep.axes[k].key + "=" + format_real(p.values[k]));
    sets.push_back("sweep." + sweep.axes[k].key + "=none");
  }
  sets.push_back("sweep.groups=1"); // a point runs on one group of ranks
  sets.push_back("monitor.output_dir=" + (std::filesystem::path(dir) / p.folder).string());
  return sets;
}

} // namespace fv::campaign
