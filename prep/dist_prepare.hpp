#pragma once
/// \file dist_prepare.hpp
/// The fvprep pipeline over MPI ranks (`mpirun -np N fvprep MESH --parts P -o OUT`): the
/// renumbered mesh (prep/dist_mesh.hpp), the partition (PT-Scotch, or METIS on rank 0), the
/// zones (prep/dist_zones.hpp) and one zone file: rank 0 creates it and places every zone, the
/// rank that built a zone writes its bytes (formats/zone_file_writer.hpp). The file is what
/// fvrun reads from a serial prepare; with --partitioner metis it is the serial file.
#include "formats/mesh.hpp"
#include "formats/mesh_slice.hpp"
#include "prep/dist_comm.hpp"
#include "prep/partition.hpp"
#include "prep/prepare.hpp"

#include <string>
#include <vector>

namespace fv {

/// Who partitions the dual graph in a distributed prepare.
enum class DistPartitioner {
  PtScotch, ///< PT-Scotch on every rank (the graph stays distributed): the default
  Metis     ///< METIS on rank 0 (the graph is gathered): the serial prepare's partition
};
/// "ptscotch" / "metis"; throws a usage fv::Error otherwise.
DistPartitioner parse_dist_partitioner(const std::string& s);

/// A distributed prepare without the file: this rank's zones (ascending ids), the header and
/// the reports (the per-zone reports on rank 0). For tests and for prepare_zone_file_distributed.
struct DistPreparedZones {
  std::vector<Zone> zones;
  ZoneFileHeader header;
  PrepReport report;
  PartitionReport partition;
};
DistPreparedZones prepare_zones_distributed(const dist::Comm& comm, MeshSlice slice,
                                            const PrepareOptions& opts, DistPartitioner who);
/// The same from the whole mesh on every rank (each keeps its slice: slice_mesh()).
DistPreparedZones prepare_zones_distributed(const dist::Comm& comm, Mesh mesh,
                                            const PrepareOptions& opts, DistPartitioner who);

/// The distributed prepare writing `path` (through a temporary file and a rename, by rank 0).
/// `slice` is this rank's slice of the source mesh (read_mesh_slice(); consumed: freed once
/// the ranks hold their blocks of the renumbered mesh). The summary is complete on rank 0
/// (header, report with per-zone lines, partition report, bytes written). COLLECTIVE: bad input
/// throws the same fv::Error on every rank and leaves no file.
PrepareSummary prepare_zone_file_distributed(const dist::Comm& comm, MeshSlice slice,
                                             const PrepareOptions& opts, DistPartitioner who,
                                             const std::string& path,
                                             const std::string& commandLine);
/// The same from the whole mesh on every rank (each keeps its slice: slice_mesh()).
PrepareSummary prepare_zone_file_distributed(const dist::Comm& comm, Mesh mesh,
                                             const PrepareOptions& opts, DistPartitioner who,
                                             const std::string& path,
                                             const std::string& commandLine);

} // namespace fv
