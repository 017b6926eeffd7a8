#include "formats/zone_file_writer.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "formats/byte_io.hpp"
#include "formats/checksum.hpp"
#include "formats/hdf5_util.hpp"
#include "formats/zone_file_layout.hpp"
#include "formats/zone_file_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <limits>
#include <mutex>
#include <set>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace fv {

namespace {

/// Writes `bytes` bytes at `data` to `fd` at file offset `offset` (pwrite until done); on
/// failure throws fv::Error "<what>: <reason>".
void pwrite_all(int fd, const void* data, std::size_t bytes, std::uint64_t offset,
                const std::string& what) {
  const char* src = static_cast<const char*>(data);
  std::size_t left = bytes;
  std::uint64_t at = offset;
  while (left > 0) {
    const ssize_t w = ::pwrite(fd, src, left, static_cast<off_t>(at));
    if (w < 0 && errno == EINTR) continue;
    FV_VERIFY(w > 0, what << ": " << (w < 0 ? std::strerror(errno) : "no progress"));
    src += w;
    at += static_cast<std::uint64_t>(w);
    left -= static_cast<std::size_t>(w);
  }
}

/// Asks the kernel to start writing [offset, offset + bytes) of `fd` to disk now, without waiting
/// (Linux sync_file_range; nothing elsewhere). A hint: the final fdatasync still makes the file
/// durable; started early, the writeback of each zone overlaps the building of the next ones
/// instead of all of it waiting for that final sync. Errors are left to that sync.
void start_writeback(int fd, std::uint64_t offset, std::uint64_t bytes) {
#if defined(__linux__)
  if (bytes > 0)
    (void)::sync_file_range(fd, static_cast<off64_t>(offset), static_cast<off64_t>(bytes),
                            SYNC_FILE_RANGE_WRITE);
#else
  (void)fd;
  (void)offset;
  (void)bytes;
#endif
}

/// The file range [first, end) that a zone's pieces cover.
template <class Pieces>
std::pair<std::uint64_t, std::uint64_t> pieces_range(const Pieces& pieces) {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), end = 0;
  for (const auto& p : pieces) {
    if (p.bytes == 0) continue;
    first = std::min<std::uint64_t>(first, p.offset);
    end = std::max<std::uint64_t>(end, p.offset + p.bytes);
  }
  return {std::min(first, end), end};
}

/// The checksum of a piece's bytes, as stored in its dataset's xxh64 attribute (the one
/// definition for zones written here and zones written by write_zone_pieces()).
std::uint64_t piece_checksum(const void* data, std::size_t bytes) {
  return xxh64(data, bytes);
}

} // namespace

struct ZoneFileWriter::Impl {
  AtomicFile out; // declared first: destroyed last, after HDF5 has closed the temporary
  ZoneFileHeader header;
  h5::Id file;
  /// Creation properties: the zone datasets, other datasets (/patches), groups, links.
  h5::Id dcpl, stringDcpl, gcpl, lcpl;
  std::string prefix; ///< group prefix of the zones written ("" for the file's first partitioning)
  std::vector<bool> written; ///< per zone: placed (its group and datasets exist)
  std::uint64_t dataBytes = 0;
  /// Per zone: the datasets placed (full paths) and, once PlacedZone::write() ran or
  /// set_zone_written() brought them, their checksums, which commit() stores as attributes
  /// (HDF5 calls stay on the writer's thread).
  std::vector<std::vector<std::string>> paths;
  std::vector<std::vector<std::uint64_t>> sums;
  std::vector<char> bytesWritten; ///< per zone: its bytes are written and checksummed
  std::vector<char> byShape;      ///< per zone: placed by place_zone_shape()
  int rawFd = -1;                 ///< the temporary file, for the datasets' bytes
  /// Held while a PlacedZone writes its bytes: the zones of a file are written one at a time.
  /// A buffered write takes the file's inode lock anyway (ext4, XFS), and threads that wait
  /// for it inside the kernel spin on it, burning cores (bench/results/prep_writes_20261128/);
  /// waiting here they sleep.
  std::mutex writeMutex;
  double writeSeconds = 0; ///< time in the writes under writeMutex

  explicit Impl(const std::string& path) : out(path) {}
  ~Impl() {
    if (rawFd >= 0) ::close(rawFd);
  }

  void start(int nZones) {
    written.assign(static_cast<std::size_t>(nZones), false);
    paths.assign(static_cast<std::size_t>(nZones), {});
    sums.assign(static_cast<std::size_t>(nZones), {});
    bytesWritten.assign(static_cast<std::size_t>(nZones), 0);
    byShape.assign(static_cast<std::size_t>(nZones), 0);
  }

  [[noreturn]] void fail(const std::string& what) const {
    const std::string detail = h5::error_detail();
    FV_THROW(out.target() << ": cannot write zone file: " << what
                          << (detail.empty() ? "" : ": " + detail));
  }

  /// Creates a dataset of `n` elements of type T (its file space allocated at once) and
  /// returns where its bytes go.
  template <class T>
  RemotePlacement::Piece place_dataset(hid_t zoneGroup, const std::string& gname,
                                       const std::string& name, std::uint64_t n, int zoneId) {
    const std::string where = "zone " + std::to_string(zoneId) + ", dataset " + name;
    if (n > std::numeric_limits<std::uint64_t>::max() / 2 / sizeof(T))
      fail(where + ": " + std::to_string(n) + " elements is no dataset size");
    const hsize_t dims = static_cast<hsize_t>(n);
    h5::Id space = h5::dataspace(H5Screate_simple(1, &dims, &dims));
    h5::Id ds = h5::dataset(H5Dcreate2(zoneGroup, name.c_str(), h5::file_type<T>(), space.get(),
                                       lcpl.get(), dcpl.get(), H5P_DEFAULT));
    if (!ds) fail(where + ": cannot create");
    RemotePlacement::Piece piece{0, n * sizeof(T)};
    if (n > 0) {
      const haddr_t off = H5Dget_offset(ds.get());
      if (off == HADDR_UNDEF) fail(where + ": no file space");
      piece.offset = static_cast<std::uint64_t>(off);
    }
    paths[static_cast<std::size_t>(zoneId)].push_back(gname + "/" + name);
    dataBytes += piece.bytes;
    return piece;
  }

  /// Creates group `name` below `parent` (its parent group must exist): without timestamps
  /// (gcpl), unlike a group that HDF5 creates on its own as an intermediate group.
  void create_group(hid_t parent, const std::string& name, const std::string& where) {
    h5::Id sub = h5::group(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT));
    if (!sub) fail(where + ": cannot create group " + name);
  }

  /// The one placement path (place_zone() and place_zone_shape()): the zone's group, its
  /// counts and its datasets, sized by the shape.
  RemotePlacement place(const ZoneShape& shape) {
    const std::vector<std::string>& countNames = zone_count_names();
    const std::vector<std::string>& piecePaths = zone_piece_paths();
    FV_VERIFY(shape.counts.size() == countNames.size() &&
                  shape.elements.size() == piecePaths.size(),
              out.target() << ": zone shape with " << shape.counts.size() << " counts and "
                           << shape.elements.size() << " datasets; the zone schema has "
                           << countNames.size() << " and " << piecePaths.size());
    const int id = shape.zone_id();
    FV_VERIFY(id >= 0 && id < header.nZones,
              out.target() << ": zone id " << id << " outside [0, " << header.nZones << ")");
    FV_VERIFY(!written[static_cast<std::size_t>(id)], out.target()
                                                          << ": zone " << id << " written twice");

    const std::string gname = zonefile::zone_group_name(id, prefix);
    h5::Id g =
        h5::group(H5Gcreate2(file.get(), gname.c_str(), lcpl.get(), gcpl.get(), H5P_DEFAULT));
    if (!g) fail("zone " + std::to_string(id) + ": cannot create group " + gname);

    for (std::size_t i = 0; i < countNames.size(); ++i)
      if (!h5::write_attr<std::int32_t>(g.get(), countNames[i].c_str(), shape.counts[i]))
        fail("zone " + std::to_string(id) + ": cannot write counts");

    RemotePlacement rp;
    rp.zoneId = id;
    const Zone schema; // no data: the pieces' element types
    std::size_t k = 0;
    std::set<std::string> subgroups;
    visit_zone_pieces(schema, [&](const std::string& name, const auto& a) {
      using T = typename std::decay_t<decltype(a)>::value_type;
      // its groups ("conn", "conn/cellFaces"), where HDF5 would create them: just before it
      for (std::size_t slash = name.find('/'); slash != std::string::npos;
           slash = name.find('/', slash + 1))
        if (subgroups.insert(name.substr(0, slash)).second)
          create_group(g.get(), name.substr(0, slash), "zone " + std::to_string(id));
      rp.pieces.push_back(place_dataset<T>(g.get(), gname, name, shape.elements[k++], id));
    });
    sums[static_cast<std::size_t>(id)].assign(rp.pieces.size(), 0);
    written[static_cast<std::size_t>(id)] = true;
    return rp;
  }
};

namespace {

/// File access properties of zone files: every object >= 1 byte starts on a
/// kZoneFileAlignment boundary; the 1.8+ object format (compact/dense groups, so 10,000 zone
/// groups stay cheap to look up).
h5::Id zone_file_access() {
  h5::Id fapl = h5::plist(H5Pcreate(H5P_FILE_ACCESS));
  if (H5Pset_alignment(fapl.get(), 1, kZoneFileAlignment) < 0 ||
      H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0 ||
      H5Pset_small_data_block_size(fapl.get(), 0) < 0)
    return h5::Id();
  return fapl;
}

/// Creates an empty zone file at `path` (truncating). File space: written once, never
/// modified, so free space is not tracked at all (the alignment padding would otherwise fill
/// the free-space manager with thousands of fragments that every allocation searches:
/// quadratic time in the number of zones).
h5::Id create_zone_hdf5(const std::string& path) {
  h5::Id fapl = zone_file_access();
  h5::Id fcpl = h5::plist(H5Pcreate(H5P_FILE_CREATE));
  if (!fapl || H5Pset_file_space_strategy(fcpl.get(), H5F_FSPACE_STRATEGY_NONE, 0, 1) < 0 ||
      H5Pset_obj_track_times(fcpl.get(), 0) < 0) // the root group: no timestamps either
    return h5::Id();
  return h5::file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()));
}

/// Root attributes of a zone file (docs/zone-file-format.md); those of the extrusion only for
/// an extruded 2D mesh.
bool write_header_attrs(hid_t root, const ZoneFileHeader& header) {
  const Extrusion& e = header.extrusion;
  return h5::write_string_attr(root, zonefile::kFormatAttr, zonefile::kFormatName) &&
         h5::write_attr<std::int32_t>(root, "formatVersion", header.formatVersion) &&
         h5::write_string_attr(root, "creator", header.creator) &&
         h5::write_string_attr(root, "commandLine", header.commandLine) &&
         h5::write_string_attr(root, "options", header.options) &&
         h5::write_string_attr(root, "meshUuid", header.meshUuid) &&
         h5::write_string_attr(root, "sourceMesh", header.sourceMesh) &&
         h5::write_attr<std::int32_t>(root, "nZones", header.nZones) &&
         h5::write_attr<std::int64_t>(root, "nGlobalCells", header.nGlobalCells) &&
         h5::write_attr<std::int64_t>(root, "nGlobalFaces", header.nGlobalFaces) &&
         h5::write_attr<std::int64_t>(root, "nGlobalNodes", header.nGlobalNodes) &&
         h5::write_attr<std::int32_t>(root, "alignment", kZoneFileAlignment) &&
         h5::write_string_attr(root, "checksum", "xxh64") &&
         (!e.extruded() ||
          (h5::write_attr<double>(root, zonefile::kExtrusionThicknessAttr, e.thickness) &&
           h5::write_attr(root, zonefile::kExtrusionDirectionAttr, e.direction)));
}

/// A second descriptor of the temporary file, through which the datasets' bytes are written
/// (at offsets HDF5 allocated) by any thread, beside HDF5's own.
void open_raw(ZoneFileWriter::Impl& m) {
  m.rawFd = ::open(m.out.temp_path().c_str(), O_WRONLY | O_CLOEXEC);
  if (m.rawFd < 0) m.fail("cannot open " + m.out.temp_path() + ": " + std::strerror(errno));
}

/// Dataset creation (contiguous, storage allocated at creation so that every non-empty
/// dataset has a file offset, never pre-filled: we write every byte), group creation and link
/// creation (intermediate groups) properties. No object records its creation and modification
/// times (HDF5 stores them by default), so that the same zones make the same file, byte for
/// byte, whenever and however they are written (write_zone() or place_zone_shape()).
void set_dataset_properties(ZoneFileWriter::Impl& m) {
  m.dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
  if (H5Pset_layout(m.dcpl.get(), H5D_CONTIGUOUS) < 0 ||
      H5Pset_alloc_time(m.dcpl.get(), H5D_ALLOC_TIME_EARLY) < 0 ||
      H5Pset_fill_time(m.dcpl.get(), H5D_FILL_TIME_NEVER) < 0 ||
      H5Pset_obj_track_times(m.dcpl.get(), 0) < 0)
    m.fail("cannot set dataset properties");
  m.stringDcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
  m.gcpl = h5::plist(H5Pcreate(H5P_GROUP_CREATE));
  if (H5Pset_obj_track_times(m.stringDcpl.get(), 0) < 0 ||
      H5Pset_obj_track_times(m.gcpl.get(), 0) < 0)
    m.fail("cannot set group properties");
  m.lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(m.lcpl.get(), 1);
}

} // namespace

ZoneFileWriter::ZoneFileWriter(const std::string& path, const ZoneFileHeader& header)
    : impl_(std::make_unique<Impl>(path)) {
  h5::silence_errors();
  Impl& m = *impl_;
  m.header = header;
  FV_VERIFY_USAGE(header.nZones >= 1,
                  path << ": a zone file needs at least one zone, got nZones = " << header.nZones);
  FV_VERIFY(header.formatVersion == kZoneFormatVersion,
            path << ": this build writes zone format version " << kZoneFormatVersion
                 << ", header asks for " << header.formatVersion);
  m.start(header.nZones);
  m.file = create_zone_hdf5(m.out.temp_path());
  if (!m.file) m.fail("cannot create temporary file " + m.out.temp_path());
  open_raw(m);
  set_dataset_properties(m);

  const hid_t root = m.file.get();
  if (!write_header_attrs(root, header)) m.fail("cannot write the header attributes");

  // Patch table: two 1-D datasets of fixed-length UTF-8 strings.
  h5::Id patches = h5::group(H5Gcreate2(root, "patches", H5P_DEFAULT, m.gcpl.get(), H5P_DEFAULT));
  if (!patches) m.fail("cannot create group /patches");
  std::vector<std::string> names, types;
  for (const Patch& p : header.patches) {
    names.push_back(p.name);
    types.push_back(p.bcType);
  }
  if (!h5::write_string_dataset(patches.get(), "name", names, m.stringDcpl.get()))
    m.fail("cannot write /patches/name");
  if (!h5::write_string_dataset(patches.get(), "bcType", types, m.stringDcpl.get()))
    m.fail("cannot write /patches/bcType");
  h5::Id zones = h5::group(H5Gcreate2(root, "zones", H5P_DEFAULT, m.gcpl.get(), H5P_DEFAULT));
  if (!zones) m.fail("cannot create group /zones");
}

void verify_no_partitioning(const ZoneFile& file, int parts) {
  const auto& all = file.partitionings();
  FV_VERIFY_USAGE(std::find(all.begin(), all.end(), parts) == all.end(),
                  file.path() << ": already holds a partitioning of " << parts
                              << " zones (remove it first: fvprep partition remove " << file.path()
                              << " --parts " << parts << ")");
}

ZoneFileWriter::ZoneFileWriter(const std::string& path, const PartitioningHeader& added)
    : impl_(std::make_unique<Impl>(path)) {
  h5::silence_errors();
  Impl& m = *impl_;
  FV_VERIFY_USAGE(added.nZones >= 1,
                  path << ": a partitioning needs at least one zone, got " << added.nZones);
  {
    const ZoneFile existing = open_zone_file(path); // a zone file of this format version
    verify_no_partitioning(existing, added.nZones);
    m.header = existing.header();
  }
  m.header.nZones = added.nZones;
  m.header.commandLine = added.commandLine;
  m.header.options = added.options;
  m.start(added.nZones);
  std::error_code ec;
  std::filesystem::copy_file(path, m.out.temp_path(),
                             std::filesystem::copy_options::overwrite_existing, ec);
  FV_VERIFY(!ec, path << ": cannot copy to " << m.out.temp_path() << ": " << ec.message());
  h5::Id fapl = zone_file_access();
  m.file = h5::file(H5Fopen(m.out.temp_path().c_str(), H5F_ACC_RDWR, fapl.get()));
  if (!m.file) m.fail("cannot open the copy " + m.out.temp_path());
  open_raw(m);
  set_dataset_properties(m);
  if (m.header.formatVersion != kZoneFormatVersion) {
    // the partitioning added is of this build's format (version 3: without the derived
    // arrays); the file says so, so that an older reader refuses it by its version instead of
    // missing a dataset. The file's other partitionings stay readable by this build.
    h5::Id attr = h5::attribute(H5Aopen(m.file.get(), "formatVersion", H5P_DEFAULT));
    const std::int32_t version = kZoneFormatVersion;
    if (!attr || H5Awrite(attr.get(), h5::mem_type<std::int32_t>(), &version) < 0)
      m.fail("cannot update the file's formatVersion to " + std::to_string(version));
    m.header.formatVersion = kZoneFormatVersion;
  }
  m.prefix = zonefile::partitioning_prefix(added.nZones);
  const std::string gname = m.prefix.substr(0, m.prefix.size() - 1);
  const htri_t hasGroup = H5Lexists(m.file.get(), zonefile::kPartitioningsGroup, H5P_DEFAULT);
  if (hasGroup < 0) m.fail("cannot look for group /" + std::string(zonefile::kPartitioningsGroup));
  if (hasGroup == 0) m.create_group(m.file.get(), zonefile::kPartitioningsGroup, "partitionings");
  h5::Id g =
      h5::group(H5Gcreate2(m.file.get(), gname.c_str(), m.lcpl.get(), m.gcpl.get(), H5P_DEFAULT));
  const bool ok = g && h5::write_attr<std::int32_t>(g.get(), "nZones", added.nZones) &&
                  h5::write_string_attr(g.get(), "commandLine", added.commandLine) &&
                  h5::write_string_attr(g.get(), "options", added.options);
  if (!ok) m.fail("cannot create the partitioning group /" + gname);
  h5::Id zones = h5::group(H5Gcreate2(m.file.get(), (m.prefix + "zones").c_str(), H5P_DEFAULT,
                                      m.gcpl.get(), H5P_DEFAULT));
  if (!zones) m.fail("cannot create group /" + m.prefix + "zones");
}

ZoneFileWriter::~ZoneFileWriter() = default;

ZoneFileWriter::PlacedZone ZoneFileWriter::place_zone(const Zone& zone) {
  FV_VERIFY(impl_ && impl_->file, "zone file writer used after commit()");
  const RemotePlacement rp = impl_->place(zone_shape(zone));
  PlacedZone pz;
  pz.impl_ = impl_.get();
  pz.zoneId_ = rp.zoneId;
  std::size_t k = 0;
  visit_zone_pieces(zone, [&](const std::string&, const auto& a) {
    pz.pieces_.push_back(PlacedZone::Piece{rp.pieces[k++].offset, a.data(), a.bytes()});
  });
  return pz;
}

ZoneFileWriter::RemotePlacement ZoneFileWriter::place_zone_shape(const ZoneShape& shape) {
  FV_VERIFY(impl_ && impl_->file, "zone file writer used after commit()");
  RemotePlacement rp = impl_->place(shape);
  impl_->byShape[static_cast<std::size_t>(rp.zoneId)] = 1;
  return rp;
}

void ZoneFileWriter::set_zone_written(int zoneId, const std::vector<std::uint64_t>& checksums) {
  FV_VERIFY(impl_ && impl_->file, "zone file writer used after commit()");
  Impl& m = *impl_;
  FV_VERIFY(zoneId >= 0 && zoneId < m.header.nZones,
            m.out.target() << ": set_zone_written: zone id " << zoneId << " outside [0, "
                           << m.header.nZones << ")");
  const auto z = static_cast<std::size_t>(zoneId);
  FV_VERIFY(m.written[z] && m.byShape[z],
            m.out.target() << ": set_zone_written: zone " << zoneId << " was "
                           << (m.written[z] ? "placed by place_zone(), not place_zone_shape()"
                                            : "never placed"));
  FV_VERIFY(!m.bytesWritten[z],
            m.out.target() << ": set_zone_written: zone " << zoneId << " marked written twice");
  FV_VERIFY(checksums.size() == m.sums[z].size(),
            m.out.target() << ": set_zone_written: zone " << zoneId << ": " << checksums.size()
                           << " checksums for its " << m.sums[z].size() << " datasets");
  m.sums[z] = checksums;
  m.bytesWritten[z] = 1;
}

const std::string& ZoneFileWriter::temp_path() const {
  return impl_->out.temp_path();
}

void ZoneFileWriter::PlacedZone::checksum() {
  FV_VERIFY(impl_ && !summed_ && !done_,
            "PlacedZone::checksum() called twice, after write() or on an empty placement");
  // this zone's own entries of the checksum table, sized when it was placed: no lock
  std::vector<std::uint64_t>& sums = impl_->sums[static_cast<std::size_t>(zoneId_)];
  for (std::size_t k = 0; k < pieces_.size(); ++k)
    sums[k] = piece_checksum(pieces_[k].data, pieces_[k].bytes);
  summed_ = true;
}

void ZoneFileWriter::PlacedZone::write() {
  FV_VERIFY(impl_ && !done_, "PlacedZone::write() called twice or on an empty placement");
  Impl& m = *impl_;
  if (!summed_) checksum(); // concurrently with other zones' writes
  {
    const std::lock_guard<std::mutex> lock(m.writeMutex);
    const auto t0 = std::chrono::steady_clock::now();
    for (const Piece& p : pieces_)
      pwrite_all(m.rawFd, p.data, p.bytes, p.offset,
                 m.out.target() + ": cannot write zone file: zone " + std::to_string(zoneId_));
    m.writeSeconds += log::seconds_since(t0);
  }
  const auto range = pieces_range(pieces_);
  start_writeback(m.rawFd, range.first, range.second - range.first);
  m.bytesWritten[static_cast<std::size_t>(zoneId_)] = 1;
  done_ = true;
}

std::vector<std::uint64_t> write_zone_pieces(const std::string& tempPath,
                                             const ZoneFileWriter::RemotePlacement& placement,
                                             const Zone& zone) {
  const std::string where = tempPath + ": cannot write zone " + std::to_string(zone.zoneId);
  FV_VERIFY(placement.zoneId == zone.zoneId,
            where << ": the placement given is zone " << placement.zoneId << "'s");
  struct Piece {
    std::string path;
    const void* data;
    std::size_t bytes;
  };
  std::vector<Piece> pieces;
  visit_zone_pieces(zone, [&](const std::string& path, const auto& a) {
    pieces.push_back(Piece{path, a.data(), a.bytes()});
  });
  FV_VERIFY(pieces.size() == placement.pieces.size(),
            where << ": the placement has " << placement.pieces.size()
                  << " datasets, the zone schema " << pieces.size());
  for (std::size_t k = 0; k < pieces.size(); ++k)
    FV_VERIFY(pieces[k].bytes == placement.pieces[k].bytes,
              where << ", dataset " << pieces[k].path << ": " << pieces[k].bytes
                    << " bytes, placed for " << placement.pieces[k].bytes);

  const int fd = ::open(tempPath.c_str(), O_WRONLY | O_CLOEXEC);
  FV_VERIFY(fd >= 0, where << ": cannot open the file: " << std::strerror(errno));
  std::vector<std::uint64_t> sums(pieces.size());
  try {
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      pwrite_all(fd, pieces[k].data, pieces[k].bytes, placement.pieces[k].offset,
                 where + ", dataset " + pieces[k].path);
      sums[k] = piece_checksum(pieces[k].data, pieces[k].bytes);
    }
    const auto range = pieces_range(placement.pieces);
    start_writeback(fd, range.first, range.second - range.first);
  } catch (...) {
    ::close(fd);
    throw;
  }
  FV_VERIFY(::close(fd) == 0, where << ": cannot close: " << std::strerror(errno));
  return sums;
}

void sync_zone_pieces(const std::string& tempPath) {
  // On disk before the writer's process renames the file into place: its fsync need not
  // cover what another node's file-system client still caches.
  const int fd = ::open(tempPath.c_str(), O_WRONLY | O_CLOEXEC);
  FV_VERIFY(fd >= 0, tempPath << ": cannot open the file: " << std::strerror(errno));
  const bool synced = ::fdatasync(fd) == 0;
  const int err = errno;
  ::close(fd);
  FV_VERIFY(synced, tempPath << ": cannot sync: " << std::strerror(err));
}

namespace {
constexpr char kPlacementTag[5] = "FVZP";
constexpr std::uint32_t kPlacementVersion = 1;
} // namespace

std::vector<std::uint8_t> to_bytes(const ZoneFileWriter::RemotePlacement& placement) {
  bytes::Writer w;
  bytes::put_tag(w, kPlacementTag, kPlacementVersion);
  w.put(placement.zoneId);
  w.put(static_cast<std::uint32_t>(placement.pieces.size()));
  for (const auto& p : placement.pieces) {
    w.put(p.offset);
    w.put(p.bytes);
  }
  return w.take();
}

ZoneFileWriter::RemotePlacement placement_from_bytes(const void* data, std::size_t nBytes) {
  bytes::Reader r(data, nBytes, "zone placement");
  bytes::check_tag(r, kPlacementTag, kPlacementVersion);
  ZoneFileWriter::RemotePlacement rp;
  rp.zoneId = r.get<std::int32_t>();
  const auto n = r.get<std::uint32_t>();
  FV_VERIFY(r.left() == std::size_t{16} * n,
            "zone placement: " << nBytes << " bytes for " << n << " datasets");
  rp.pieces.resize(n);
  for (auto& p : rp.pieces) {
    p.offset = r.get<std::uint64_t>();
    p.bytes = r.get<std::uint64_t>();
  }
  return rp;
}

void ZoneFileWriter::write_zone(const Zone& zone) {
  place_zone(zone).write();
}

void ZoneFileWriter::commit() {
  FV_VERIFY(impl_ && impl_->file, "zone file writer committed twice");
  Impl& m = *impl_;
  for (std::size_t z = 0; z < m.written.size(); ++z)
    FV_VERIFY(m.written[z] && m.bytesWritten[z], m.out.target()
                                                     << ": zone " << z << " of " << m.written.size()
                                                     << " was never written; file discarded");
  // The checksums, now that every zone's bytes are in.
  for (std::size_t z = 0; z < m.paths.size(); ++z)
    for (std::size_t k = 0; k < m.paths[z].size(); ++k) {
      h5::Id ds = h5::dataset(H5Dopen2(m.file.get(), m.paths[z][k].c_str(), H5P_DEFAULT));
      if (!ds || !h5::write_attr(ds.get(), zonefile::kChecksumAttr, m.sums[z][k]))
        m.fail("dataset " + m.paths[z][k] + ": cannot write checksum");
    }
  if (H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL) < 0) m.fail("cannot flush");
  if (H5Fclose(m.file.release()) < 0) m.fail("cannot close the temporary file");
  if (::close(m.rawFd) != 0) {
    m.rawFd = -1;
    m.fail(std::string("cannot close the temporary file: ") + std::strerror(errno));
  }
  m.rawFd = -1;
  m.out.commit();
}

double ZoneFileWriter::write_seconds() const {
  const std::lock_guard<std::mutex> lock(impl_->writeMutex);
  return impl_->writeSeconds;
}

std::uint64_t ZoneFileWriter::data_bytes() const {
  return impl_->dataBytes;
}

namespace {

/// Copies object `name` (a group, recursively, with its attributes) of `src` to `dst` under
/// `dstName`; the copy's datasets get new, aligned storage in `dst`.
bool copy_object(hid_t src, const std::string& name, hid_t dst, const std::string& dstName) {
  h5::Id lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  return H5Ocopy(src, name.c_str(), dst, dstName.c_str(), H5P_DEFAULT, lcpl.get()) >= 0;
}

} // namespace

void remove_partitioning(const std::string& path, int parts) {
  h5::silence_errors();
  const ZoneFile file = open_zone_file(path);
  const std::vector<int> all = file.partitionings();
  FV_VERIFY_USAGE(std::find(all.begin(), all.end(), parts) != all.end(),
                  path << ": holds no partitioning of " << parts << " zones");
  FV_VERIFY_USAGE(all.size() > 1, path << ": its partitioning of " << parts
                                       << " zones is its only one: nothing would be left");
  // the new first partitioning: the old one, or the next one when the old one goes
  const int first = all[0] == parts ? all[1] : all[0];
  const ZoneFileHeader header =
      first == all[0] ? file.header() : open_zone_file(path, first).header();
  const std::string firstPrefix = first == all[0] ? "" : zonefile::partitioning_prefix(first);

  AtomicFile out(path);
  auto fail = [&](const std::string& what) {
    const std::string detail = h5::error_detail();
    FV_THROW(path << ": cannot rewrite zone file: " << what
                  << (detail.empty() ? "" : ": " + detail));
  };
  h5::Id src = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, h5::unlocked_access().get()));
  if (!src) fail("cannot open it");
  {
    h5::Id dst = create_zone_hdf5(out.temp_path());
    if (!dst) fail("cannot create temporary file " + out.temp_path());
    if (!write_header_attrs(dst.get(), header)) fail("cannot write the header attributes");
    if (!copy_object(src.get(), "patches", dst.get(), "patches")) fail("cannot copy /patches");
    if (!copy_object(src.get(), firstPrefix + "zones", dst.get(), "zones"))
      fail("cannot copy /" + firstPrefix + "zones");
    for (int n : all) {
      if (n == parts || n == first) continue;
      const std::string g = zonefile::partitioning_prefix(n);
      const std::string name = g.substr(0, g.size() - 1);
      if (!copy_object(src.get(), name, dst.get(), name)) fail("cannot copy /" + name);
    }
    if (H5Fflush(dst.get(), H5F_SCOPE_GLOBAL) < 0 || H5Fclose(dst.release()) < 0)
      fail("cannot close the temporary file");
  }
  out.commit();
}

void write_zone_file(const std::string& path, const ZoneFileHeader& header,
                     const std::vector<Zone>& zones) {
  FV_VERIFY(static_cast<std::size_t>(header.nZones) == zones.size(),
            path << ": header says " << header.nZones << " zones but " << zones.size()
                 << " were given");
  ZoneFileWriter w(path, header);
  for (const Zone& z : zones)
    w.write_zone(z);
  w.commit();
}

} // namespace fv
