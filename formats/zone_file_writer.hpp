#pragma once
/// \file zone_file_writer.hpp
/// Writes fvkit zone files: one HDF5 file holding every zone of a partitioned mesh, each
/// dataset contiguous, uncompressed, little-endian, 64-byte aligned and checksummed (XXH64), so
/// that fvrun can memory-map a zone's arrays in place. Layout: docs/zone-file-format.md.
///
/// The file is written to a temporary name next to the target and renamed over it only when
/// complete (fv::AtomicFile): an interrupted or failed write never leaves a partial file under
/// the final name and never destroys an existing one.
#include "common/zone.hpp"
#include "formats/zone_file_reader.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fv {

/// Alignment (bytes) of every dataset's first byte in a zone file.
inline constexpr int kZoneFileAlignment = 64;

/// Streaming writer: zones are written one at a time (in any order, each exactly once), so
/// fvprep never needs to hold more than one zone in memory.
///
///   ZoneFileWriter w("mesh.zones.h5", header);   // header.nZones zones expected
///   for (...) w.write_zone(build_zone(z));
///   w.commit();                                    // the file appears under its name here
///
/// Destroying the writer without commit() discards everything written.
/// A partitioning added to an existing zone file (`fvprep partition add`).
struct PartitioningHeader {
  std::int32_t nZones = 1; ///< part count: different from every partitioning in the file
  std::string commandLine; ///< the command that added it
  std::string options;     ///< resolved options (as ZoneFileHeader::options)
};

class ZoneFileWriter {
 public:
  /// Creates the temporary file and writes the header. Throws fv::Error naming `path`.
  ZoneFileWriter(const std::string& path, const ZoneFileHeader& header);
  /// Adds a partitioning to the existing zone file `path`: a temporary copy of the file gets
  /// the new partitioning's zones (write_zone(), zone ids in [0, added.nZones)) and replaces
  /// `path` at commit(); until then `path` is untouched. Throws fv::Error naming `path` when it
  /// is no zone file or already holds a partitioning of added.nZones zones.
  ZoneFileWriter(const std::string& path, const PartitioningHeader& added);
  ~ZoneFileWriter();
  ZoneFileWriter(const ZoneFileWriter&) = delete;
  ZoneFileWriter& operator=(const ZoneFileWriter&) = delete;

  struct Impl;

  /// A zone whose datasets exist in the file (their space allocated) but whose bytes are not
  /// written yet. write() writes them at their offsets and checksums them; it may run on any
  /// thread, concurrently with other zones' write() and with the writer's next place_zone(),
  /// but not with commit(). The zone placed must outlive write().
  class PlacedZone {
   public:
    void write();

   private:
    friend class ZoneFileWriter;
    struct Piece {
      std::uint64_t offset; ///< file offset of the dataset's first byte
      const void* data;
      std::size_t bytes;
    };
    Impl* impl_ = nullptr;
    int zoneId_ = -1;
    bool done_ = false;
    std::vector<Piece> pieces_;
  };

  /// Creates one zone's group, counts and datasets (zone.zoneId in [0, header.nZones), not
  /// placed before); its bytes follow with PlacedZone::write(). One call at a time, like every
  /// other member (HDF5 is not thread-safe); any thread.
  PlacedZone place_zone(const Zone& zone);

  /// place_zone(zone).write(). Sizes are not validated here beyond what the layout needs:
  /// `fvprep check` validates contents.
  void write_zone(const Zone& zone);

  /// Verifies every zone was placed and written, stores the checksums, closes the file and
  /// renames it to its final name.
  void commit();

  /// Bytes of array data written so far (without HDF5 metadata).
  std::uint64_t data_bytes() const;

 private:
  std::unique_ptr<Impl> impl_;
};

/// Throws a usage fv::Error naming the file when it already holds a partitioning of `parts`
/// zones (what adding one needs; `fvprep partition add` checks before doing the work).
void verify_no_partitioning(const ZoneFile& file, int parts);

/// Rewrites the zone file `path` without its partitioning of `parts` zones (through a temporary
/// file and a rename; the other partitionings are copied unchanged). Removing the file's first
/// partitioning makes the next one first. Throws fv::Error naming `path` when there is no such
/// partitioning or it is the only one.
void remove_partitioning(const std::string& path, int parts);

/// Writes all zones at once (zones[i].zoneId must be i; header.nZones == zones.size()).
void write_zone_file(const std::string& path, const ZoneFileHeader& header,
                     const std::vector<Zone>& zones);

} // namespace fv
