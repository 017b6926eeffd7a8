#include "common/memory.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fv {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream os;
  if (in) os << in.rdbuf();
  return os.str();
}

/// The number of a "Key:   123 kB" line of /proc/meminfo, bytes; 0 if absent.
std::uint64_t meminfo_bytes(const std::string& meminfo, const std::string& key) {
  std::istringstream in(meminfo);
  std::string name, unit;
  std::uint64_t value = 0;
  while (in >> name >> value) {
    std::getline(in, unit);
    if (name == key + ":") return value * (unit.find("kB") != std::string::npos ? 1024 : 1);
  }
  return 0;
}

/// A cgroup memory file's number; 0 for "max", empty or unreadable text.
std::uint64_t cgroup_bytes(const std::string& text) {
  std::istringstream in(text);
  std::uint64_t v = 0;
  return (in >> v) ? v : 0;
}

/// cgroup v1 writes "no limit" as the largest page-aligned 63-bit value.
constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 60;

} // namespace

std::uint64_t resident_bytes() {
  std::istringstream in(read_text("/proc/self/statm"));
  std::uint64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::vector<CgroupMemory> cgroup_memory_files(const std::string& procCgroup,
                                              const std::string& root) {
  std::vector<CgroupMemory> out;
  auto v2 = [&](const std::string& dir) {
    out.push_back({dir + "/memory.max", dir + "/memory.current", dir + "/memory.stat"});
  };
  auto v1 = [&](const std::string& dir) {
    out.push_back(
        {dir + "/memory.limit_in_bytes", dir + "/memory.usage_in_bytes", dir + "/memory.stat"});
  };
  std::istringstream in(procCgroup);
  std::string line;
  while (std::getline(in, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    const std::string sub = path == "/" ? "" : path;
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      v2(root + sub);
      if (!sub.empty()) v2(root);
    } else {
      std::istringstream names(controllers);
      std::string c;
      while (std::getline(names, c, ','))
        if (c == "memory") {
          v1(root + "/memory" + sub);
          if (!sub.empty()) v1(root + "/memory");
        }
    }
  }
  return out;
}

namespace {

/// The inactive file pages of a memory.stat text, bytes (v1's hierarchical total when given).
std::uint64_t inactive_file_bytes(const std::string& stat) {
  std::istringstream in(stat);
  std::string key;
  std::uint64_t value = 0, v2 = 0, total = 0;
  bool hasTotal = false;
  while (in >> key >> value) {
    if (key == "inactive_file") v2 = value;
    if (key == "total_inactive_file") {
      total = value;
      hasTotal = true;
    }
  }
  return hasTotal ? total : v2;
}

} // namespace

std::uint64_t available_bytes(const std::string& meminfo,
                              const std::vector<CgroupMemory>& cgroups) {
  std::uint64_t avail = meminfo_bytes(meminfo, "MemAvailable");
  for (const CgroupMemory& cg : cgroups) {
    const std::uint64_t limit = cgroup_bytes(cg.limit), usage = cgroup_bytes(cg.usage);
    if (limit == 0 || limit >= kNoLimit) continue;
    const std::uint64_t inactive = inactive_file_bytes(cg.stat);
    const std::uint64_t used = usage > inactive ? usage - inactive : 0;
    const std::uint64_t room = limit > used ? limit - used : 1;
    avail = avail == 0 ? room : std::min(avail, room);
  }
  return avail;
}

std::uint64_t available_bytes() {
  std::vector<CgroupMemory> texts;
  for (const CgroupMemory& f : cgroup_memory_files(read_text("/proc/self/cgroup")))
    texts.push_back({read_text(f.limit), read_text(f.usage), read_text(f.stat)});
  return available_bytes(read_text("/proc/meminfo"), texts);
}

} // namespace fv
