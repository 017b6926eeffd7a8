#include "runtime/parallel/zone_mapping.hpp"

#include "common/log.hpp"
#include "formats/zone_file_reader.hpp"
#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <algorithm>
#include <sstream>

namespace fv::parallel {

int zone_of_rank(MPI_Comm comm, const std::string& zone_file, int n_zones,
                 const std::vector<int>& available_parts, int groups) {
  const int ranks = comm_size(comm);
  std::ostringstream o;
  if (ranks != n_zones) {
    std::vector<int> parts = available_parts;
    if (std::find(parts.begin(), parts.end(), n_zones) == parts.end()) parts.push_back(n_zones);
    std::sort(parts.begin(), parts.end());
    o << zone_file << " holds " << n_zones << " zone" << (n_zones == 1 ? "" : "s") << " but ";
    if (groups > 1)
      o << "each of the " << groups << " rank groups (--sweep-groups " << groups << ") runs on ";
    else
      o << "fvrun runs on ";
    o << ranks << " MPI rank" << (ranks == 1 ? "" : "s")
      << " (one zone per rank); the file's partitionings: ";
    for (std::size_t i = 0; i < parts.size(); ++i)
      o << (i ? ", " : "") << parts[i];
    o << " zones; run `mpirun -np " << n_zones * groups << " fvrun ...`, or add " << ranks
      << " parts with `fvprep partition add " << zone_file << " --parts " << ranks << "`";
  }
  check_all(comm, ranks == n_zones, o.str(), ErrorKind::Usage);
  return comm_rank(comm);
}

RankZone map_rank_zone(MPI_Comm comm, const std::string& zone_file, bool verify_checksums,
                       int groups) {
  const int size = comm_size(comm);
  log::Phase p("mapping " + zone_file);
  ZoneFile file = open_zone_file(zone_file);
  // the partitioning with one zone per rank (`fvprep partition add` puts several in a file)
  const std::vector<int> held = file.partitionings();
  if (file.nZones() != size && std::find(held.begin(), held.end(), size) != held.end()) {
    file = open_zone_file(zone_file, size);
    std::string list;
    for (int n : held)
      list += (list.empty() ? "" : ", ") + std::to_string(n);
    FV_LOG_INFO("fvrun: " << zone_file << ": the partitioning of " << size
                          << " zones (the file holds " << list
                          << "), added by: " << file.header().commandLine);
  }
  RankZone r;
  r.header = file.header();
  // on a rank-count mismatch, name the part counts this file holds (those of other files of the
  // same mesh are not listed: `mpirun -np N fvrun THIS_FILE` would not run on them)
  const int zoneId = zone_of_rank(comm, zone_file, file.nZones(), held, groups);
  MapOptions mo;
  mo.verifyChecksums = verify_checksums;
  r.zone = map_zone(file, zoneId, mo);
  return r;
}

} // namespace fv::parallel
