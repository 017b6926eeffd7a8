#pragma once
/// \file zone_info.hpp
/// `fvprep info ZONES`: a summary of a zone file (header, totals, patches) and a per-zone table,
/// as text or JSON. Reads counts and layouts only (no checksum pass), so it is fast on any size.
#include <iosfwd>
#include <string>

namespace fv {

/// Prints the summary of the zone file at `path` to `os` (std::cout when null): text by
/// default, one JSON object with `json`. Throws fv::Error if the file cannot be read.
void print_zone_info(const std::string& path, bool json, std::ostream* os = nullptr);

/// `fvprep partition list`: one line per partitioning of the zone file (part count, largest
/// and smallest zone, imbalance, halo cells, the command that made it).
void print_partitionings(std::ostream& os, const std::string& path);

} // namespace fv
