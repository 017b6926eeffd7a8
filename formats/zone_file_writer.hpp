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
#include "formats/zone_shape.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fv {

/// Alignment (bytes) of every dataset's first byte in a zone file.
inline constexpr int kZoneFileAlignment = 64;

/// A partitioning added to an existing zone file (`fvprep partition add`).
struct PartitioningHeader {
  std::int32_t nZones = 1; ///< part count: different from every partitioning in the file
  std::string commandLine; ///< the command that added it
  std::string options;     ///< resolved options (as ZoneFileHeader::options)
};

/// Streaming writer: zones are written one at a time (in any order, each exactly once), so
/// fvprep never needs to hold more than one zone in memory.
///
///   ZoneFileWriter w("mesh.zones.h5", header);   // header.nZones zones expected
///   for (...) w.write_zone(build_zone(z));
///   w.commit();                                    // the file appears under its name here
///
/// A zone held by another process (a distributed fvprep; the writer lives in one process) is
/// placed from its shape and written by its holder into the temporary file:
///
///   writer process:  auto p = w.place_zone_shape(zone_shape_from_bytes(received));
///                    send to_bytes(p) and w.temp_path() to the holder
///   holder:          auto sums = write_zone_pieces(tempPath, placement_from_bytes(b), zone);
///                    send sums back
///   writer process:  w.set_zone_written(p.zoneId, sums); ... w.commit();
///
/// The file is the same, byte for byte, as the one write_zone() of every zone writes, but for
/// the file's creation time that HDF5 stamps on the superblock extension
/// (docs/zone-file-format.md, "Writing").
/// Destroying the writer without commit() discards everything written.
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
  /// written yet. checksum() computes the checksums of its bytes and write() writes them at
  /// their offsets (computing the checksums first when checksum() has not run); both may run
  /// on any thread, concurrently with other zones' checksum() and write() and with the
  /// writer's next place_zone(), but not with commit(), and checksum() before or not at all
  /// beside write() of the same zone. The zone placed must outlive write(). The bytes of the
  /// zones go to the file one zone at a time, and each zone's writeback to disk starts as soon
  /// as it is written; the checksums need no lock, so a caller that runs the writes one at a
  /// time can compute them on other threads first.
  class PlacedZone {
   public:
    void checksum();
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
    bool summed_ = false, done_ = false;
    std::vector<Piece> pieces_;
  };

  /// Creates one zone's group, counts and datasets (zone.zoneId in [0, header.nZones), not
  /// placed before); its bytes follow with PlacedZone::write(). One call at a time, like every
  /// other member (HDF5 is not thread-safe); any thread.
  PlacedZone place_zone(const Zone& zone);

  /// Where the bytes of a zone placed by place_zone_shape() go in the temporary file
  /// (temp_path()): one piece per dataset, in the writer's order (zone_piece_paths()). Sent to
  /// the process that holds the zone, which writes them with write_zone_pieces().
  struct RemotePlacement {
    struct Piece {
      std::uint64_t offset = 0; ///< file offset of the dataset's first byte (0 when bytes == 0)
      std::uint64_t bytes = 0;  ///< the dataset's size in bytes
    };
    std::int32_t zoneId = -1;
    std::vector<Piece> pieces;
  };

  /// place_zone() for a zone this process does not hold: creates the group, counts and
  /// datasets of a zone of that shape (the same file layout as place_zone() of the zone itself)
  /// and says where its bytes go. The zone is written once its holder has written them
  /// (write_zone_pieces()) and set_zone_written() has stored their checksums; commit() refuses
  /// the file until then. Throws fv::Error as place_zone() does, and when the shape has
  /// other counts or pieces than the zone schema.
  RemotePlacement place_zone_shape(const ZoneShape& shape);

  /// Marks zone `zoneId`, placed by place_zone_shape(), as written, with the checksums of its
  /// pieces (write_zone_pieces()' result, in piece order) that commit() stores. Throws fv::Error
  /// for a zone not placed by place_zone_shape(), one marked before, or a checksum count other
  /// than its piece count.
  void set_zone_written(int zoneId, const std::vector<std::uint64_t>& checksums);

  /// The temporary file the zones are written into until commit() (what write_zone_pieces()
  /// opens).
  const std::string& temp_path() const;

  /// place_zone(zone).write(). Sizes are not validated here beyond what the layout needs:
  /// `fvprep check` validates contents.
  void write_zone(const Zone& zone);

  /// Verifies every zone was placed and written, stores the checksums, closes the file and
  /// renames it to its final name.
  void commit();

  /// Bytes of array data placed so far (without HDF5 metadata; zones placed by shape
  /// included).
  std::uint64_t data_bytes() const;

  /// Seconds spent writing zone bytes so far (PlacedZone::write() without the checksums; the
  /// zones write one at a time): what the file writes cost the zone building.
  double write_seconds() const;

 private:
  std::unique_ptr<Impl> impl_;
};

/// Writes the bytes of `zone`, placed by ZoneFileWriter::place_zone_shape() in another process
/// (or by this one), into the temporary zone file `tempPath` at the placement's offsets and
/// returns their XXH64 checksums, in piece order, as the writer computes them for a zone written
/// by PlacedZone::write(): what set_zone_written() takes. Checks every piece's size against the
/// placement before writing anything. Throws fv::Error naming the file (and the zone and
/// dataset where one is at fault) on a mismatch or an I/O failure. The bytes may still be in
/// this process's page cache: sync_zone_pieces() once, before the writer commits.
std::vector<std::uint64_t> write_zone_pieces(const std::string& tempPath,
                                             const ZoneFileWriter::RemotePlacement& placement,
                                             const Zone& zone);

/// Syncs what this process wrote into the temporary zone file `tempPath` to disk (on a
/// shared file system a client's cache is its own: every writing process calls this before
/// the writer's process renames the file into place). Throws fv::Error naming the file.
void sync_zone_pieces(const std::string& tempPath);

/// A placement as bytes, to send to the process that writes the zone (host byte order), and
/// back. placement_from_bytes() throws fv::Error when the bytes are no placement.
std::vector<std::uint8_t> to_bytes(const ZoneFileWriter::RemotePlacement& placement);
ZoneFileWriter::RemotePlacement placement_from_bytes(const void* data, std::size_t bytes);
inline ZoneFileWriter::RemotePlacement placement_from_bytes(const std::vector<std::uint8_t>& b) {
  return placement_from_bytes(b.data(), b.size());
}

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
