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
class ZoneFileWriter {
 public:
  /// Creates the temporary file and writes the header. Throws fv::Error naming `path`.
  ZoneFileWriter(const std::string& path, const ZoneFileHeader& header);
  ~ZoneFileWriter();
  ZoneFileWriter(const ZoneFileWriter&) = delete;
  ZoneFileWriter& operator=(const ZoneFileWriter&) = delete;

  /// Writes one zone (zone.zoneId in [0, header.nZones), not written before). Sizes are not
  /// validated here beyond what the layout needs: `fvprep check` validates contents.
  void write_zone(const Zone& zone);

  /// Verifies every zone was written, closes the file and renames it to its final name.
  void commit();

  /// Bytes of array data written so far (without HDF5 metadata).
  std::uint64_t data_bytes() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// Writes all zones at once (zones[i].zoneId must be i; header.nZones == zones.size()).
void write_zone_file(const std::string& path, const ZoneFileHeader& header,
                     const std::vector<Zone>& zones);

} // namespace fv
