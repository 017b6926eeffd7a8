#include "runtime/parallel/zone_mapping.hpp"

#include "runtime/parallel/errors.hpp"
#include "runtime/parallel/mpi_util.hpp"

#include <algorithm>
#include <sstream>

namespace fv::parallel {

int zone_of_rank(MPI_Comm comm, const std::string& zone_file, int n_zones,
                 const std::vector<int>& available_parts) {
  const int ranks = comm_size(comm);
  std::ostringstream o;
  if (ranks != n_zones) {
    std::vector<int> parts = available_parts;
    if (std::find(parts.begin(), parts.end(), n_zones) == parts.end()) parts.push_back(n_zones);
    std::sort(parts.begin(), parts.end());
    o << zone_file << " holds " << n_zones << " zone" << (n_zones == 1 ? "" : "s")
      << " but fvrun runs on " << ranks << " MPI rank" << (ranks == 1 ? "" : "s")
      << " (one zone per rank); part counts available: ";
    for (std::size_t i = 0; i < parts.size(); ++i)
      o << (i ? ", " : "") << parts[i];
    o << "; run `mpirun -np " << n_zones << " fvrun ...`, or add " << ranks
      << " parts with `fvprep partition add " << zone_file << " --parts " << ranks << "`";
  }
  check_all(comm, ranks == n_zones, o.str(), ErrorKind::Usage);
  return comm_rank(comm);
}

} // namespace fv::parallel
