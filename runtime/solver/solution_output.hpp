#pragma once
/// \file solution_output.hpp
/// The solution writer fvrun plugs into run_case(): the volume solution (HDF5 + XDMF, global
/// cell order, formats/solution_file.hpp) with density, velocity, pressure, Mach number and
/// the conservative variables, gathered over the ranks of `comm`.
#include "common/zone.hpp"
#include "runtime/solver/run_loop.hpp"

#include <mpi.h>
#include <string>

namespace fv {

/// A SolutionWriter that writes <output_dir>/solution.h5 (+ solution.xmf) at the end of the
/// run and <output_dir>/solution_last_good.h5 when a non-physical state stops it.
/// COLLECTIVE over comm when called.
SolutionWriter volume_solution_writer(MPI_Comm comm, const ZoneFileHeader& header);

} // namespace fv
