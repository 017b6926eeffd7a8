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

std::vector<std::pair<std::string, std::string>> cgroup_memory_files(const std::string& procCgroup,
                                                                     const std::string& root) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(procCgroup);
  std::string line;
  while (std::getline(in, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    const std::string sub = path == "/" ? "" : path;
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      out.emplace_back(root + sub + "/memory.max", root + sub + "/memory.current");
      if (!sub.empty()) out.emplace_back(root + "/memory.max", root + "/memory.current");
    } else {
      std::istringstream names(controllers);
      std::string c;
      while (std::getline(names, c, ','))
        if (c == "memory") {
          const std::string dir = root + "/memory";
          out.emplace_back(dir + sub + "/memory.limit_in_bytes",
                           dir + sub + "/memory.usage_in_bytes");
          if (!sub.empty())
            out.emplace_back(dir + "/memory.limit_in_bytes", dir + "/memory.usage_in_bytes");
        }
    }
  }
  return out;
}

std::uint64_t available_bytes(const std::string& meminfo,
                              const std::vector<std::pair<std::string, std::string>>& cgroups) {
  std::uint64_t avail = meminfo_bytes(meminfo, "MemAvailable");
  for (const auto& [limitText, usageText] : cgroups) {
    const std::uint64_t limit = cgroup_bytes(limitText), used = cgroup_bytes(usageText);
    if (limit == 0 || limit >= kNoLimit) continue;
    const std::uint64_t room = limit > used ? limit - used : 1;
    avail = avail == 0 ? room : std::min(avail, room);
  }
  return avail;
}

std::uint64_t available_bytes() {
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& [limit, usage] : cgroup_memory_files(read_text("/proc/self/cgroup")))
    texts.emplace_back(read_text(limit), read_text(usage));
  return available_bytes(read_text("/proc/meminfo"), texts);
}

} // namespace fv
