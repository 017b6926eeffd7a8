#pragma once
/// \file memory.hpp
/// The process's resident memory and the memory still available to it (Linux /proc and the
/// memory cgroup, v1 or v2), for tools that size their working sets (fvprep's zone threads).
#include <cstdint>
#include <string>
#include <vector>

namespace fv {

/// Resident set size of this process now, bytes (/proc/self/statm); 0 where unknown.
std::uint64_t resident_bytes();

/// Memory this process may still take, bytes: MemAvailable of /proc/meminfo, lowered to the
/// room left under this process's memory cgroup limit when one is set (a batch job's or a
/// container's); 0 where neither is known.
std::uint64_t available_bytes();

/// The pieces of available_bytes(), on the files' text (tests).
/// One memory cgroup's files (paths) or their text: its limit, its usage (which counts the page
/// cache it holds) and its memory.stat, whose inactive file pages are reclaimable.
struct CgroupMemory {
  std::string limit, usage, stat;
  bool operator==(const CgroupMemory& o) const {
    return limit == o.limit && usage == o.usage && stat == o.stat;
  }
};

/// The memory cgroup files of the process whose /proc/PID/cgroup reads `procCgroup`: cgroup v2
/// ("0::/path": memory.max, memory.current, memory.stat) and v1 ("N:...memory...:/path":
/// memory.limit_in_bytes, memory.usage_in_bytes, memory.stat) under `root` (normally
/// /sys/fs/cgroup), then the same at the mount's top, which is the process's own cgroup inside
/// a container.
std::vector<CgroupMemory> cgroup_memory_files(const std::string& procCgroup,
                                              const std::string& root = "/sys/fs/cgroup");

/// `meminfo` is /proc/meminfo's text, `cgroups` the files' text ("max", empty or a limit of 2^60
/// or more: no limit). A cgroup's room is its limit less its working set (usage less the
/// inactive file pages of memory.stat: `inactive_file`, v1's `total_inactive_file`).
std::uint64_t available_bytes(const std::string& meminfo, const std::vector<CgroupMemory>& cgroups);

} // namespace fv
