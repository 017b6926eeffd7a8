#pragma once
/// \file prepare.hpp
/// The fvprep pipeline after import and validation: renumbered global mesh, METIS partition,
/// zones and the zone-file header, with one report of what was done.
#include "common/zone.hpp"
#include "formats/mesh.hpp"
#include "prep/faces.hpp"
#include "prep/partition.hpp"
#include "prep/prep_options.hpp"
#include "prep/prep_report.hpp"
#include "prep/zones.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fv {

class ZoneFileWriter;

/// A build_zones_streamed() sink that places each zone in `writer` (in zone order) and leaves
/// the writing of its bytes to the tail, so that several threads write zones at once.
std::function<ZoneTail(Zone&&)> stream_into(ZoneFileWriter& writer);

/// Options of prepare_zones().
struct PrepareOptions {
  PrepOptions prep;           ///< renumbering, default patch, geometry tolerances
  int parts = 1;              ///< number of zones (MPI ranks)
  PartitionOptions partition; ///< METIS options
};

/// Everything fvprep writes and prints. Owns its data.
struct PreparedZones {
  std::vector<Zone> zones;   ///< zones[i].zoneId == i
  ZoneFileHeader header;     ///< counts, patches, UUID, options (commandLine left empty)
  PrepReport report;         ///< timings, bandwidths, per-zone orderings
  PartitionReport partition; ///< edge cut, imbalance, halo cells
};

/// Runs build_global_mesh (from `faces`, built by build_faces()/validate_mesh() with the same
/// default patch, and consumed), partition_cells on the renumbered cell graph, build_zones and
/// make_zone_header. The global mesh is freed before returning.
PreparedZones prepare_zones(const Mesh& mesh, FaceSet&& faces, const PrepareOptions& opts);

/// What prepare_zone_file() did (the zones themselves went to the file).
struct PrepareSummary {
  ZoneFileHeader header;
  PrepReport report;
  PartitionReport partition;
  std::uint64_t dataBytes = 0; ///< array bytes written
};

/// The fvprep pipeline writing straight to a zone file: like prepare_zones(), but each zone is
/// written (formats/zone_file_writer.hpp) as soon as it is built and then freed, so memory stays
/// at the global mesh plus one zone per thread. `mesh` is consumed: it is freed once the global
/// mesh and the header are made, before the zones are built (fvprep's peak). The file appears
/// atomically at `path` on success. `commandLine` is stored in the header.
PrepareSummary prepare_zone_file(Mesh&& mesh, FaceSet&& faces, const PrepareOptions& opts,
                                 const std::string& path, const std::string& commandLine);

} // namespace fv
