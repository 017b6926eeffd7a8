#include "common/memory.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fv {

namespace {

std::string read_text(const char* path) {
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

} // namespace

std::uint64_t resident_bytes() {
  std::istringstream in(read_text("/proc/self/statm"));
  std::uint64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::uint64_t available_bytes(const std::string& meminfo, const std::string& cgroupMax,
                              const std::string& cgroupCurrent) {
  std::uint64_t avail = meminfo_bytes(meminfo, "MemAvailable");
  const std::uint64_t limit = cgroup_bytes(cgroupMax), used = cgroup_bytes(cgroupCurrent);
  if (limit > 0) {
    const std::uint64_t room = limit > used ? limit - used : 1;
    avail = avail == 0 ? room : std::min(avail, room);
  }
  return avail;
}

std::uint64_t available_bytes() {
  return available_bytes(read_text("/proc/meminfo"), read_text("/sys/fs/cgroup/memory.max"),
                         read_text("/sys/fs/cgroup/memory.current"));
}

} // namespace fv
