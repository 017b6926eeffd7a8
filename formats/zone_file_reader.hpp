#pragma once
/// \file zone_file_reader.hpp
/// Reads fvkit zone files (see zone_file_writer.hpp and docs/zone-file-format.md).
///
///   fv::ZoneFile f = fv::open_zone_file("mesh.zones.h5");  // header + zone count
///   fv::Zone z = fv::map_zone(f, rank);                     // this rank's zone, mapped
///
/// map_zone() memory-maps (read-only, no copy) only the byte range holding that zone's
/// datasets; every array of the returned Zone is an fv::Array view that keeps the mapping alive,
/// so the Zone stays valid after the ZoneFile is gone.
#include "common/zone.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fv {

/// Options of map_zone().
struct MapOptions {
  /// Recompute the XXH64 of every dataset and compare with the stored one (reads every byte of
  /// the zone once; a few GB/s).
  bool verifyChecksums = true;
};

/// Where one dataset of a zone lies in the file (for `fvprep info` and diagnostics).
struct ZoneDatasetInfo {
  std::string name;       ///< path below the zone group, e.g. "conn/cellFaces/offsets"
  std::uint64_t offset;   ///< byte offset in the file (0 for empty datasets)
  std::uint64_t count;    ///< elements
  std::uint64_t bytes;    ///< count * element size
  std::uint64_t checksum; ///< stored XXH64
};

/// An open zone file: its header and zone count. Cheap to copy (shared state); holds the HDF5
/// file open for map_zone().
///
/// A zone file holds one or more partitionings of the same mesh (`fvprep partition add`): the
/// first one written by fvprep, and others of different part counts. A ZoneFile has one of
/// them open; header().nZones, commandLine and options are those of that partitioning.
class ZoneFile {
 public:
  const std::string& path() const;
  const ZoneFileHeader& header() const;
  int nZones() const { return header().nZones; }
  /// Part counts of every partitioning in the file: the first one fvprep wrote, then the
  /// added ones in ascending order.
  const std::vector<int>& partitionings() const;
  /// Size of the file in bytes.
  std::uint64_t fileBytes() const;

  struct State;
  explicit ZoneFile(std::shared_ptr<State> s) : state_(std::move(s)) {}
  const std::shared_ptr<State>& state() const { return state_; }

 private:
  std::shared_ptr<State> state_;
};

/// Opens a zone file and reads its header. Throws fv::Error naming the file if it is not an
/// fvkit zone file, is truncated, or has a format version this build cannot read (the message
/// lists the supported versions).
///
/// `parts` picks the partitioning: 0, the file's first one; else the one of exactly `parts`
/// zones (an error listing the part counts the file holds when there is none).
ZoneFile open_zone_file(const std::string& path, int parts = 0);

/// True if `path` is an HDF5 file carrying the fvkit zone-file marker (any format version), e.g.
/// to tell `fvprep info` whether it was given a zone file or a mesh. Never throws.
bool is_zone_file(const std::string& path);

/// Memory-maps zone `zoneId` (0-based). Throws fv::Error naming file, zone and dataset when a
/// dataset is missing, has the wrong type or layout, lies beyond the end of the file, or (with
/// verifyChecksums) fails its checksum.
Zone map_zone(const ZoneFile& file, int zoneId, const MapOptions& options = {});

/// Layout of zone `zoneId`'s datasets, in schema order (no mapping, no checksum pass).
std::vector<ZoneDatasetInfo> zone_dataset_info(const ZoneFile& file, int zoneId);

} // namespace fv
