#pragma once
/// \file zone_mapping.hpp
/// fvrun runs one zone per MPI rank: rank r maps zone r of the zone file.
#include <mpi.h>
#include <string>
#include <vector>

namespace fv::parallel {

/// COLLECTIVE. Verifies that the number of ranks of `comm` equals `n_zones`, the zone count of
/// `zone_file`; otherwise every rank throws the same usage error (exit 2) naming both counts,
/// the part counts available (`available_parts`: partitionings present or known for this mesh,
/// may be empty) and the two ways out (mpirun -np <n_zones>, or fvprep --parts <ranks>).
/// Returns this rank's zone id.
int zone_of_rank(MPI_Comm comm, const std::string& zone_file, int n_zones,
                 const std::vector<int>& available_parts = {});

} // namespace fv::parallel
