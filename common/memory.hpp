#pragma once
/// \file memory.hpp
/// The process's resident memory and the memory still available to it (Linux /proc and cgroup
/// v2 files), for tools that size their working sets (fvprep's zone threads).
#include <cstdint>
#include <string>

namespace fv {

/// Resident set size of this process now, bytes (/proc/self/statm); 0 where unknown.
std::uint64_t resident_bytes();

/// Memory this process may still take, bytes: MemAvailable of /proc/meminfo, lowered to the
/// room left under the cgroup's memory.max when one is set (a batch job's limit); 0 where
/// neither is known.
std::uint64_t available_bytes();

/// The same from the files' text (tests): `meminfo` is /proc/meminfo's, `cgroupMax` and
/// `cgroupCurrent` are memory.max's and memory.current's ("max" or empty: no limit).
std::uint64_t available_bytes(const std::string& meminfo, const std::string& cgroupMax,
                              const std::string& cgroupCurrent);

} // namespace fv
