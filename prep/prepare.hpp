#pragma once
/// \file prepare.hpp
/// The fvprep pipeline: imported + validated mesh -> renumbered global mesh -> METIS partition
/// -> zones -> zone file (written atomically).
#include "formats/mesh.hpp"
#include "prep/partition.hpp"
#include "prep/prep_options.hpp"
#include "prep/validate.hpp"

#include <string>

namespace fv {

/// Everything `fvprep MESH -o OUT` needs beyond the mesh itself.
struct PrepareOptions {
  std::string output;         ///< zone file to write
  int parts = 1;              ///< number of zones
  PrepOptions prep;           ///< renumbering, default patch, geometry tolerances
  PartitionOptions partition; ///< METIS options (ignored for one part)
  std::string commandLine;    ///< recorded in the file header
  bool perZoneReport = false; ///< print one line per zone in the summary
};

/// What the pipeline produced, for the summary.
struct PrepareResult {
  std::string meshUuid;
  std::uint64_t fileBytes = 0;
  double seconds = 0;
};

/// Runs the pipeline on a mesh that validate_mesh() accepted (its faces are reused), prints the
/// summary (phases, bandwidth, partition, colours, hyperplanes) to `log` and writes the file.
PrepareResult prepare_zones(const Mesh& mesh, ValidationReport validated,
                            const PrepareOptions& opts, std::ostream& log);

} // namespace fv
