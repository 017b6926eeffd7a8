#include "formats/zone_file_writer.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "formats/checksum.hpp"
#include "formats/hdf5_util.hpp"
#include "formats/zone_file_layout.hpp"
#include "formats/zone_file_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>
#include <vector>

namespace fv {

struct ZoneFileWriter::Impl {
  AtomicFile out; // declared first: destroyed last, after HDF5 has closed the temporary
  ZoneFileHeader header;
  h5::Id file;
  h5::Id dcpl, lcpl;
  std::string prefix; ///< group prefix of the zones written ("" for the file's first partitioning)
  std::vector<bool> written;
  std::uint64_t dataBytes = 0;
  /// Per zone: the datasets placed (full paths) and, once PlacedZone::write() ran, their
  /// checksums, which commit() stores as attributes (HDF5 calls stay on the writer's thread).
  std::vector<std::vector<std::string>> paths;
  std::vector<std::vector<std::uint64_t>> sums;
  std::vector<char> bytesWritten; ///< per zone: PlacedZone::write() done
  int rawFd = -1;                 ///< the temporary file, for the datasets' bytes

  explicit Impl(const std::string& path) : out(path) {}
  ~Impl() {
    if (rawFd >= 0) ::close(rawFd);
  }

  void start(int nZones) {
    written.assign(static_cast<std::size_t>(nZones), false);
    paths.assign(static_cast<std::size_t>(nZones), {});
    sums.assign(static_cast<std::size_t>(nZones), {});
    bytesWritten.assign(static_cast<std::size_t>(nZones), 0);
  }

  [[noreturn]] void fail(const std::string& what) const {
    const std::string detail = h5::error_detail();
    FV_THROW(out.target() << ": cannot write zone file: " << what
                          << (detail.empty() ? "" : ": " + detail));
  }

  /// Creates a dataset of the array's size (its file space allocated at once) and records
  /// where its bytes go; PlacedZone::write() writes them.
  template <class T>
  void place_dataset(hid_t zoneGroup, const std::string& gname, const std::string& name,
                     const Array<T>& a, int zoneId, ZoneFileWriter::PlacedZone& pz) {
    const hsize_t n = a.size();
    h5::Id space = h5::dataspace(H5Screate_simple(1, &n, &n));
    h5::Id ds = h5::dataset(H5Dcreate2(zoneGroup, name.c_str(), h5::file_type<T>(), space.get(),
                                       lcpl.get(), dcpl.get(), H5P_DEFAULT));
    if (!ds) fail("zone " + std::to_string(zoneId) + ", dataset " + name + ": cannot create");
    ZoneFileWriter::PlacedZone::Piece piece{0, a.data(), a.bytes()};
    if (n > 0) {
      const haddr_t off = H5Dget_offset(ds.get());
      if (off == HADDR_UNDEF)
        fail("zone " + std::to_string(zoneId) + ", dataset " + name + ": no file space");
      piece.offset = static_cast<std::uint64_t>(off);
    }
    pz.pieces_.push_back(piece);
    paths[static_cast<std::size_t>(zoneId)].push_back(gname + "/" + name);
    dataBytes += a.bytes();
  }
};

namespace {
/// Places each array of a zone as a dataset (visitor of visit_zone_arrays).
struct DatasetPlacer {
  ZoneFileWriter::Impl& m;
  hid_t g;
  const std::string& gname;
  int id;
  ZoneFileWriter::PlacedZone& pz;
  template <class T>
  void array(const ArrayInfo& info, const Array<T>& a) {
    m.place_dataset(g, gname, info.name, a, id, pz);
  }
  template <class T>
  void optional_array(const ArrayInfo& info, const Array<T>& a) {
    m.place_dataset(g, gname, info.name, a, id, pz);
  }
  void csr(const CsrInfo& info, const Csr& c) {
    m.place_dataset(g, gname, std::string(info.name) + "/offsets", c.offsets(), id, pz);
    m.place_dataset(g, gname, std::string(info.name) + "/indices", c.indices(), id, pz);
  }
};
} // namespace

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
  if (!fapl || H5Pset_file_space_strategy(fcpl.get(), H5F_FSPACE_STRATEGY_NONE, 0, 1) < 0)
    return h5::Id();
  return h5::file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()));
}

/// Root attributes of a zone file (docs/zone-file-format.md).
bool write_header_attrs(hid_t root, const ZoneFileHeader& header) {
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
         h5::write_string_attr(root, "checksum", "xxh64");
}

/// Dataset creation (contiguous, storage allocated at creation so that every non-empty
/// dataset has a file offset, never pre-filled: we write every byte) and link creation
/// (intermediate groups) properties.
/// A second descriptor of the temporary file, through which the datasets' bytes are written
/// (at offsets HDF5 allocated) by any thread, beside HDF5's own.
void open_raw(ZoneFileWriter::Impl& m) {
  m.rawFd = ::open(m.out.temp_path().c_str(), O_WRONLY | O_CLOEXEC);
  if (m.rawFd < 0) m.fail("cannot open " + m.out.temp_path() + ": " + std::strerror(errno));
}

void set_dataset_properties(ZoneFileWriter::Impl& m) {
  m.dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
  if (H5Pset_layout(m.dcpl.get(), H5D_CONTIGUOUS) < 0 ||
      H5Pset_alloc_time(m.dcpl.get(), H5D_ALLOC_TIME_EARLY) < 0 ||
      H5Pset_fill_time(m.dcpl.get(), H5D_FILL_TIME_NEVER) < 0)
    m.fail("cannot set dataset properties");
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
  h5::Id patches = h5::group(H5Gcreate2(root, "patches", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!patches) m.fail("cannot create group /patches");
  std::vector<std::string> names, types;
  for (const Patch& p : header.patches) {
    names.push_back(p.name);
    types.push_back(p.bcType);
  }
  if (!h5::write_string_dataset(patches.get(), "name", names)) m.fail("cannot write /patches/name");
  if (!h5::write_string_dataset(patches.get(), "bcType", types))
    m.fail("cannot write /patches/bcType");
  h5::Id zones = h5::group(H5Gcreate2(root, "zones", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
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
  m.prefix = zonefile::partitioning_prefix(added.nZones);
  const std::string gname = m.prefix.substr(0, m.prefix.size() - 1);
  h5::Id g =
      h5::group(H5Gcreate2(m.file.get(), gname.c_str(), m.lcpl.get(), H5P_DEFAULT, H5P_DEFAULT));
  const bool ok = g && h5::write_attr<std::int32_t>(g.get(), "nZones", added.nZones) &&
                  h5::write_string_attr(g.get(), "commandLine", added.commandLine) &&
                  h5::write_string_attr(g.get(), "options", added.options);
  if (!ok) m.fail("cannot create the partitioning group /" + gname);
  h5::Id zones = h5::group(H5Gcreate2(m.file.get(), (m.prefix + "zones").c_str(), H5P_DEFAULT,
                                      H5P_DEFAULT, H5P_DEFAULT));
  if (!zones) m.fail("cannot create group /" + m.prefix + "zones");
}

ZoneFileWriter::~ZoneFileWriter() = default;

ZoneFileWriter::PlacedZone ZoneFileWriter::place_zone(const Zone& zone) {
  FV_VERIFY(impl_ && impl_->file, "zone file writer used after commit()");
  Impl& m = *impl_;
  const int id = zone.zoneId;
  FV_VERIFY(id >= 0 && id < m.header.nZones,
            m.out.target() << ": zone id " << id << " outside [0, " << m.header.nZones << ")");
  FV_VERIFY(!m.written[static_cast<std::size_t>(id)], m.out.target()
                                                          << ": zone " << id << " written twice");

  const std::string gname = zonefile::zone_group_name(id, m.prefix);
  h5::Id g =
      h5::group(H5Gcreate2(m.file.get(), gname.c_str(), m.lcpl.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (!g) m.fail("zone " + std::to_string(id) + ": cannot create group " + gname);

  bool ok = true;
  visit_zone_counts(zone, [&](const char* name, const std::int32_t& v) {
    ok = ok && h5::write_attr<std::int32_t>(g.get(), name, v);
  });
  if (!ok) m.fail("zone " + std::to_string(id) + ": cannot write counts");

  PlacedZone pz;
  pz.impl_ = impl_.get();
  pz.zoneId_ = id;
  visit_zone_arrays(zone, DatasetPlacer{m, g.get(), gname, id, pz});
  m.sums[static_cast<std::size_t>(id)].assign(pz.pieces_.size(), 0);
  m.written[static_cast<std::size_t>(id)] = true;
  return pz;
}

void ZoneFileWriter::PlacedZone::write() {
  FV_VERIFY(impl_ && !done_, "PlacedZone::write() called twice or on an empty placement");
  Impl& m = *impl_;
  std::vector<std::uint64_t>& sums = m.sums[static_cast<std::size_t>(zoneId_)];
  for (std::size_t k = 0; k < pieces_.size(); ++k) {
    const Piece& p = pieces_[k];
    const char* src = static_cast<const char*>(p.data);
    std::size_t left = p.bytes;
    std::uint64_t at = p.offset;
    while (left > 0) {
      const ssize_t w = ::pwrite(m.rawFd, src, left, static_cast<off_t>(at));
      if (w < 0 && errno == EINTR) continue;
      FV_VERIFY(w > 0, m.out.target() << ": cannot write zone file: zone " << zoneId_ << ": "
                                      << (w < 0 ? std::strerror(errno) : "no progress"));
      src += w;
      at += static_cast<std::uint64_t>(w);
      left -= static_cast<std::size_t>(w);
    }
    sums[k] = xxh64(p.data, p.bytes);
  }
  m.bytesWritten[static_cast<std::size_t>(zoneId_)] = 1;
  done_ = true;
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
