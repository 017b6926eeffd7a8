#include "runtime/solver/profile_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace fv {

std::vector<ProfileShare> profile_shares(const std::vector<backend::KernelProfileRow>& rows,
                                         double wallSeconds, int iterations, double cells) {
  const double wallMs = 1e3 * wallSeconds;
  const double per = cells > 0 && iterations > 0 ? 1e6 / (cells * iterations) : 0.0;
  std::vector<ProfileShare> out;
  double kernelMs = 0;
  for (const auto& r : rows) {
    ProfileShare s;
    s.label = r.label;
    s.calls = r.calls;
    s.ms = r.ms;
    s.percent = wallMs > 0 ? 100.0 * r.ms / wallMs : 0.0;
    s.nsPerCellIteration = r.ms * per;
    kernelMs += r.ms;
    out.push_back(s);
  }
  ProfileShare rest;
  rest.label = "(outside kernels)";
  rest.ms = std::max(0.0, wallMs - kernelMs);
  rest.percent = wallMs > 0 ? 100.0 * rest.ms / wallMs : 0.0;
  rest.nsPerCellIteration = rest.ms * per;
  out.push_back(rest);
  return out;
}

std::string profile_table(const std::vector<ProfileShare>& shares) {
  std::size_t w = 6;
  for (const auto& s : shares)
    w = std::max(w, s.label.size());
  std::ostringstream o;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-*s %10s %12s %8s %14s\n", static_cast<int>(w), "kernel",
                "calls", "total ms", "% iter", "ns/cell/iter");
  o << buf;
  double ms = 0, pc = 0, ns = 0;
  for (const auto& s : shares) {
    std::snprintf(buf, sizeof buf, "%-*s %10lld %12.3f %8.2f %14.3f\n", static_cast<int>(w),
                  s.label.c_str(), s.calls, s.ms, s.percent, s.nsPerCellIteration);
    o << buf;
    ms += s.ms;
    pc += s.percent;
    ns += s.nsPerCellIteration;
  }
  std::snprintf(buf, sizeof buf, "%-*s %10s %12.3f %8.2f %14.3f\n", static_cast<int>(w), "total",
                "", ms, pc, ns);
  o << buf;
  return o.str();
}

std::string profile_csv(const std::vector<ProfileShare>& shares) {
  std::ostringstream o;
  o << "label,calls,total_ms,percent_of_iteration,ns_per_cell_iteration\n";
  char buf[320];
  for (const auto& s : shares) {
    std::snprintf(buf, sizeof buf, "%s,%lld,%.6f,%.4f,%.6f\n", s.label.c_str(), s.calls, s.ms,
                  s.percent, s.nsPerCellIteration);
    o << buf;
  }
  return o.str();
}

} // namespace fv
