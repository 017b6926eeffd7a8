#pragma once
/// \file zone_mapping.hpp
/// fvrun runs one zone per MPI rank: rank r maps zone r of the zone file, of the file's
/// partitioning with as many zones as there are ranks.
#include "common/zone.hpp"

#include <mpi.h>
#include <string>
#include <vector>

namespace fv::parallel {

/// COLLECTIVE. Verifies that the number of ranks of `comm` equals `n_zones`, the zone count of
/// `zone_file`; otherwise every rank throws the same usage error (exit 2) naming both counts,
/// the part counts of the file's partitionings (`available_parts`, may be empty; `n_zones` is
/// listed in any case) and the two ways out (mpirun -np <n_zones>, or fvprep --parts <ranks>).
/// `groups` > 1: `comm` is one of that many groups of ranks (fvrun --sweep-groups), which the
/// message says, the way out being the file's partitioning into the group's size or
/// n_zones * groups ranks. Returns this rank's zone id.
int zone_of_rank(MPI_Comm comm, const std::string& zone_file, int n_zones,
                 const std::vector<int>& available_parts = {}, int groups = 1);

/// This rank's zone of a zone file, mapped, with the file's header.
struct RankZone {
  Zone zone;
  ZoneFileHeader header;
};

/// COLLECTIVE. Opens `zone_file` and maps this rank's zone (logged as the phase "mapping
/// <file>"): of the file's partitioning with one zone per rank of `comm` when the file holds
/// several (`fvprep partition add`; logged with the command that added it). On a rank-count
/// mismatch, zone_of_rank()'s usage error names the part counts of the file's own
/// partitionings. `verify_checksums`: check the zone's checksums while mapping. `groups`: as
/// zone_of_rank()'s, for its message.
RankZone map_rank_zone(MPI_Comm comm, const std::string& zone_file, bool verify_checksums = true,
                       int groups = 1);

} // namespace fv::parallel
