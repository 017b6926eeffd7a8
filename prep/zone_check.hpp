#pragma once
/// \file zone_check.hpp
/// `fvprep check ZONES`: validates a zone file end to end — checksums, schema sizes, CSR
/// invariants, local numbering rules, geometry (positive volumes, closed cells, consistent
/// deltas), global ids (owned cells partition 0..nGlobalCells-1 exactly once; halo cells match
/// their owners), exchange lists (every send list equals the neighbour's receive list, same
/// global ids, same order), node weights and the mesh UUID.
#include <iosfwd>
#include <string>

namespace fv {

/// Options of run_zone_check().
struct ZoneCheckOptions {
  bool verifyChecksums = true; ///< recompute every dataset's XXH64
  bool checkUuid = true;       ///< recompute the mesh UUID from the zones and compare
  /// Relative tolerance of geometric identities (closure sum vs. sum of face areas, node
  /// weights vs. the size of the mesh).
  double tolerance = 1e-9;
  int maxMessages = 20; ///< problems printed in full; the rest are only counted
  /// Partitioning to check (its part count); 0: every partitioning of the file, one after the
  /// other (one summary line each).
  int parts = 0;
};

/// Checks the zone file at `path`. Prints one line per problem (up to maxMessages) and a final
/// summary to `out` (std::cout when null). Returns 0 when the file passed every check, 1
/// otherwise (including when it cannot be opened). Never throws for bad files.
int run_zone_check(const std::string& path, const ZoneCheckOptions& options = {},
                   std::ostream* out = nullptr);

} // namespace fv
