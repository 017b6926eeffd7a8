#pragma once
/// \file repartition.hpp
/// `fvprep partition add`: a new partitioning of a prepared mesh made from its zone file alone.
/// The renumbered global mesh is reassembled from the zones by global id (numbering, element
/// node order, face orientation, cell geometry and wall distance exactly as fvprep built them),
/// then partitioned by METIS and split into zones as a fresh prepare does: for the same part
/// count and METIS options, the zones equal those of `fvprep MESH --parts N` bitwise. The source
/// mesh is not read again, faces are not matched again and the cell geometry is not recomputed
/// (zones compute their faces' geometry and node weights, as in a fresh prepare).
#include "formats/zone_file_reader.hpp"
#include "prep/global_mesh.hpp"
#include "prep/partition.hpp"
#include "prep/prep_report.hpp"

#include <cstdint>
#include <string>

namespace fv {

/// The renumbered global mesh whose zones `file` holds (its open partitioning), reassembled by
/// global id. Connectivity (cellFaces, cellCells, nodeCells) is derived as build_global_mesh()
/// derives it; cellMesh and nodeMesh are the identity (the zone file
/// does not record the source mesh's ids). Throws fv::Error naming the file when the zones do
/// not cover the global counts of the header exactly once.
GlobalMesh global_mesh_from_zones(const ZoneFile& file, PrepReport* report = nullptr);

/// What add_partitioning() did.
struct RepartitionSummary {
  PrepReport report;
  PartitionReport partition;
  std::uint64_t dataBytes = 0; ///< array bytes written
};

/// Adds a partitioning of `parts` zones to the zone file `path` (through a temporary copy and a
/// rename: the file is intact if anything fails). `commandLine` is stored with it.
RepartitionSummary add_partitioning(const std::string& path, int parts,
                                    const PartitionOptions& options,
                                    const std::string& commandLine);

} // namespace fv
