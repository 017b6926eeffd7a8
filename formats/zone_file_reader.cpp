#include "formats/zone_file_reader.hpp"

#include "common/error.hpp"
#include "common/version.hpp"
#include "formats/checksum.hpp"
#include "formats/hdf5_util.hpp"
#include "formats/zone_file_layout.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fv {

struct ZoneFile::State {
  std::string path;
  ZoneFileHeader header;
  std::string prefix;             ///< group prefix of the open partitioning ("" for the first)
  std::vector<int> partitionings; ///< part counts: the first partitioning, then the added ones
  h5::Id file;
  int fd = -1;
  std::uint64_t fileBytes = 0;
  ~State() {
    if (fd >= 0) ::close(fd);
  }
};

const std::string& ZoneFile::path() const {
  return state_->path;
}
const ZoneFileHeader& ZoneFile::header() const {
  return state_->header;
}
std::uint64_t ZoneFile::fileBytes() const {
  return state_->fileBytes;
}
const std::vector<int>& ZoneFile::partitionings() const {
  return state_->partitionings;
}

namespace {

std::string hdf5_reason() {
  const std::string d = h5::error_detail();
  return d.empty() ? std::string() : " (HDF5: " + d + ")";
}

/// The optional extrusion attributes: both or neither (a 3D mesh, or a file written before
/// they existed: thickness 0); a thickness finite and > 0, a finite direction of length 1.
void read_extrusion(ZoneFile::State& s) {
  const hid_t root = s.file.get();
  const bool hasThickness = H5Aexists(root, zonefile::kExtrusionThicknessAttr) > 0;
  const bool hasDirection = H5Aexists(root, zonefile::kExtrusionDirectionAttr) > 0;
  if (!hasThickness && !hasDirection) return;
  Extrusion e;
  FV_VERIFY(hasThickness && hasDirection &&
                h5::read_attr<double>(root, zonefile::kExtrusionThicknessAttr, e.thickness) &&
                h5::read_attr(root, zonefile::kExtrusionDirectionAttr, e.direction),
            s.path << ": zone file's extrusion needs a scalar " << zonefile::kExtrusionThicknessAttr
                   << " and 3 values " << zonefile::kExtrusionDirectionAttr << hdf5_reason());
  const auto& d = e.direction;
  const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  FV_VERIFY(std::isfinite(e.thickness) && e.thickness > 0 && std::fabs(len - 1) < 1e-6,
            s.path << ": zone file's extrusion is corrupt: " << describe(e));
  s.header.extrusion = e;
}

void read_patches(ZoneFile::State& s) {
  const hid_t root = s.file.get();
  std::vector<std::string> cols[2];
  const char* names[2] = {"patches/name", "patches/bcType"};
  for (int k = 0; k < 2; ++k)
    FV_VERIFY(h5::read_string_dataset(root, names[k], cols[k]),
              s.path << ": zone file has no readable dataset /" << names[k]
                     << " (1-D fixed-length strings)" << hdf5_reason());
  FV_VERIFY(cols[0].size() == cols[1].size(), s.path << ": /patches/name has " << cols[0].size()
                                                     << " entries but /patches/bcType has "
                                                     << cols[1].size());
  for (std::size_t p = 0; p < cols[0].size(); ++p)
    s.header.patches.push_back(Patch{cols[0][p], cols[1][p]});
}

/// A dataset of a zone, located and validated but not yet mapped.
struct Located {
  ZoneDatasetInfo info;
};

/// Locates every dataset of a zone (visitor pass 1) and checks type, shape, layout and extent.
struct Locator {
  const ZoneFile::State& s;
  hid_t group;
  int zoneId;
  std::vector<ZoneDatasetInfo>& out;

  [[noreturn]] void fail(const std::string& name, const std::string& what) const {
    FV_THROW(s.path << ": zone " << zoneId << ", dataset " << name << ": " << what
                    << hdf5_reason());
  }

  template <class T>
  void locate(const std::string& name) {
    h5::Id ds = h5::dataset(H5Dopen2(group, name.c_str(), H5P_DEFAULT));
    if (!ds) fail(name, "missing or unreadable");
    h5::Id type = h5::datatype(H5Dget_type(ds.get()));
    if (!type || H5Tequal(type.get(), h5::file_type<T>()) <= 0)
      fail(name, std::string("wrong element type (expected ") + h5::type_name<T>() + ")");
    h5::Id space = h5::dataspace(H5Dget_space(ds.get()));
    if (!space || H5Sget_simple_extent_ndims(space.get()) != 1) fail(name, "not one-dimensional");
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space.get(), &n, nullptr);
    h5::Id dcpl = h5::plist(H5Dget_create_plist(ds.get()));
    if (!dcpl || H5Pget_layout(dcpl.get()) != H5D_CONTIGUOUS)
      fail(name, "not stored contiguously, so it cannot be memory-mapped");
    ZoneDatasetInfo info{name, 0, n, n * sizeof(T), 0};
    if (n > 0) {
      const haddr_t off = H5Dget_offset(ds.get());
      if (off == HADDR_UNDEF) fail(name, "has no storage in the file");
      info.offset = off;
      if (off % alignof(T) != 0)
        fail(name, "starts at byte " + std::to_string(off) + ", not aligned for its element type");
      if (off > s.fileBytes || info.bytes > s.fileBytes - off)
        fail(name, "bytes [" + std::to_string(off) + ", " + std::to_string(off + info.bytes) +
                       ") lie beyond the end of the file (" + std::to_string(s.fileBytes) +
                       " bytes): the file is truncated");
    }
    if (!h5::read_attr<std::uint64_t>(ds.get(), zonefile::kChecksumAttr, info.checksum))
      fail(name, "has no checksum attribute");
    out.push_back(std::move(info));
  }
  template <class T>
  void array(const ArrayInfo& info, Array<T>&) {
    locate<T>(info.name);
  }
  /// An optional dataset a file may lack (written before it existed): an empty array then.
  template <class T>
  void optional_array(const ArrayInfo& info, Array<T>&) {
    if (H5Lexists(group, info.name, H5P_DEFAULT) > 0) {
      locate<T>(info.name);
      return;
    }
    out.push_back(ZoneDatasetInfo{info.name, 0, 0, 0, xxh64(nullptr, 0)});
  }
  /// Not in the file (a version-2 file's copy is not read): derive_zone_arrays().
  template <class T>
  void derived_array(const ArrayInfo&, Array<T>&) {}
  void csr(const CsrInfo& info, Csr&) {
    locate<idx_t>(std::string(info.name) + "/offsets");
    locate<idx_t>(std::string(info.name) + "/indices");
  }
};

/// Pass 2: hands out views into the mapping, in the same schema order.
struct Binder {
  const ZoneFile::State& s;
  int zoneId;
  const std::vector<ZoneDatasetInfo>& infos;
  const char* base;       // mapped address of file byte `mapStart`
  std::uint64_t mapStart; // page-aligned file offset of the mapping
  const std::shared_ptr<const void>& keep;
  bool verify;
  std::size_t next = 0;

  template <class T>
  Array<T> bind() {
    const ZoneDatasetInfo& d = infos[next++];
    if (d.count == 0) {
      if (verify && d.checksum != xxh64(nullptr, 0))
        FV_THROW(s.path << ": zone " << zoneId << ", dataset " << d.name
                        << ": checksum mismatch on an empty dataset (stored " << hex64(d.checksum)
                        << "): the file is corrupt");
      return Array<T>::view(nullptr, 0, keep);
    }
    const T* p = reinterpret_cast<const T*>(base + (d.offset - mapStart));
    if (verify) {
      const std::uint64_t h = xxh64(p, d.bytes);
      FV_VERIFY(h == d.checksum, s.path << ": zone " << zoneId << ", dataset " << d.name
                                        << ": checksum mismatch (stored " << hex64(d.checksum)
                                        << ", computed " << hex64(h) << "): the file is corrupt");
    }
    return Array<T>::view(p, static_cast<std::size_t>(d.count), keep);
  }
  template <class T>
  void array(const ArrayInfo&, Array<T>& a) {
    a = bind<T>();
  }
  template <class T>
  void optional_array(const ArrayInfo&, Array<T>& a) {
    a = bind<T>();
  }
  template <class T>
  void derived_array(const ArrayInfo&, Array<T>&) {} // computed after binding
  void csr(const CsrInfo&, Csr& c) {
    Array<idx_t> off = bind<idx_t>();
    Array<idx_t> ind = bind<idx_t>();
    c = Csr(std::move(off), std::move(ind));
  }
};

h5::Id open_zone_group(const ZoneFile::State& s, int zoneId) {
  FV_VERIFY(zoneId >= 0 && zoneId < s.header.nZones,
            s.path << ": zone " << zoneId << " requested, but the file has zones 0 to "
                   << s.header.nZones - 1);
  const std::string gname = zonefile::zone_group_name(zoneId, s.prefix);
  h5::Id g = h5::group(H5Gopen2(s.file.get(), gname.c_str(), H5P_DEFAULT));
  FV_VERIFY(g, s.path << ": zone " << zoneId << ": group /" << gname << " is missing"
                      << hdf5_reason());
  return g;
}

std::vector<ZoneDatasetInfo> locate_zone(const ZoneFile::State& s, hid_t g, int zoneId) {
  std::vector<ZoneDatasetInfo> infos;
  Zone dummy;
  visit_zone_arrays(dummy, Locator{s, g, zoneId, infos});
  return infos;
}

/// Checks that the zones group below `prefix` holds header.nZones zones.
void check_zone_count(const ZoneFile::State& s, const std::string& prefix) {
  H5G_info_t zinfo{};
  const std::string zones = prefix + "zones";
  FV_VERIFY(H5Gget_info_by_name(s.file.get(), zones.c_str(), &zinfo, H5P_DEFAULT) >= 0,
            s.path << ": zone file has no /" << zones << " group" << hdf5_reason());
  FV_VERIFY(zinfo.nlinks == static_cast<hsize_t>(s.header.nZones),
            s.path << ": the header says nZones = " << s.header.nZones << " but /" << zones
                   << " holds " << zinfo.nlinks << " zones");
}

/// Part counts of the file: the first partitioning's, then the added ones (names of
/// /partitionings, which sort by part count).
void read_partitionings(ZoneFile::State& s) {
  s.partitionings = {s.header.nZones};
  const hid_t root = s.file.get();
  if (H5Lexists(root, zonefile::kPartitioningsGroup, H5P_DEFAULT) <= 0) return;
  h5::Id g = h5::group(H5Gopen2(root, zonefile::kPartitioningsGroup, H5P_DEFAULT));
  H5G_info_t info{};
  FV_VERIFY(g && H5Gget_info(g.get(), &info) >= 0,
            s.path << ": unreadable group /" << zonefile::kPartitioningsGroup << hdf5_reason());
  FV_VERIFY(info.nlinks < 100000, s.path << ": /" << zonefile::kPartitioningsGroup << " holds "
                                         << info.nlinks << " entries");
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char name[16] = {};
    const ssize_t len = H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name,
                                           sizeof name, H5P_DEFAULT);
    char* end = nullptr;
    const long parts = len > 0 && len < 16 ? std::strtol(name, &end, 10) : -1;
    FV_VERIFY(parts >= 1 && parts <= 999999 && end && *end == '\0' && parts != s.header.nZones,
              s.path << ": /" << zonefile::kPartitioningsGroup << "/" << name
                     << " is not a partitioning (a part count other than the first one's)");
    s.partitionings.push_back(static_cast<int>(parts));
  }
}

/// Opens the added partitioning of `parts` zones: header.nZones, commandLine and options
/// become that partitioning's.
void select_partitioning(ZoneFile::State& s, int parts) {
  const auto& all = s.partitionings;
  if (std::find(all.begin(), all.end(), parts) == all.end()) {
    std::string list;
    for (int n : all)
      list += (list.empty() ? "" : ", ") + std::to_string(n);
    FV_THROW(s.path << ": no partitioning of " << parts << " zones (the file holds "
                    << (all.size() == 1 ? "one of " : "partitionings of ") << list
                    << " zones; add one with: fvprep partition add " << s.path << " --parts "
                    << parts << ")");
  }
  s.prefix = zonefile::partitioning_prefix(parts);
  const std::string gname = s.prefix.substr(0, s.prefix.size() - 1);
  h5::Id g = h5::group(H5Gopen2(s.file.get(), gname.c_str(), H5P_DEFAULT));
  ZoneFileHeader& h = s.header;
  const bool ok = g && h5::read_attr<std::int32_t>(g.get(), "nZones", h.nZones) &&
                  h5::read_string_attr(g.get(), "commandLine", h.commandLine) &&
                  h5::read_string_attr(g.get(), "options", h.options);
  FV_VERIFY(ok, s.path << ": partitioning /" << gname << " has no nZones, commandLine or options"
                       << hdf5_reason());
  FV_VERIFY(h.nZones == parts,
            s.path << ": partitioning /" << gname << " says nZones = " << h.nZones);
  check_zone_count(s, s.prefix);
}

} // namespace

ZoneFile open_zone_file(const std::string& path, int parts) {
  h5::silence_errors();
  auto s = std::make_shared<ZoneFile::State>();
  s->path = path;
  struct stat st {};
  FV_VERIFY(::stat(path.c_str(), &st) == 0,
            path << ": cannot open zone file: " << std::strerror(errno));
  FV_VERIFY(S_ISREG(st.st_mode), path << ": cannot open zone file: not a regular file");
  s->fileBytes = static_cast<std::uint64_t>(st.st_size);

  const htri_t isH5 = H5Fis_hdf5(path.c_str());
  FV_VERIFY(isH5 > 0, path << ": not a zone file: no HDF5 signature (" << s->fileBytes
                           << " bytes; empty, truncated before its header, or another format)");
  // Zone files are immutable once renamed into place, and thousands of ranks open them at once,
  // often on parallel file systems without flock(): read them without HDF5's file locks.
  h5::Id fapl = h5::unlocked_access();
  s->file = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()));
  if (!s->file) {
    const std::string d = h5::error_detail();
    const bool truncated = d.find("truncated") != std::string::npos;
    FV_THROW(path << ": cannot open zone file" << (truncated ? ": the file is truncated" : "")
                  << (d.empty() ? "" : " (HDF5: " + d + ")"));
  }
  const hid_t root = s->file.get();
  ZoneFileHeader& h = s->header;
  h.formatVersion = -1;
  const bool hasVersion = h5::read_attr<std::int32_t>(root, "formatVersion", h.formatVersion);
  std::string format;
  const bool named =
      h5::read_string_attr(root, zonefile::kFormatAttr, format) && format == zonefile::kFormatName;
  // A zone file of another format version may store its strings differently (version 1:
  // variable-length): its version number, an integer, is read before any string.
  const bool otherVersion =
      hasVersion && H5Aexists(root, zonefile::kFormatAttr) > 0 &&
      (h.formatVersion < kZoneFormatMinVersion || h.formatVersion > kZoneFormatVersion);
  FV_VERIFY(named || otherVersion,
            path << ": an HDF5 file but not an fvkit zone file (root attribute '"
                 << zonefile::kFormatAttr << "' is not \"" << zonefile::kFormatName << "\")");
  FV_VERIFY(hasVersion, path << ": zone file has no formatVersion attribute");
  if (otherVersion) {
    if (!h5::read_string_attr(root, "creator", h.creator)) h.creator = "an fvkit of that version";
    FV_THROW(path << ": zone file format version " << h.formatVersion << " (written by '"
                  << h.creator << "') is not supported: fvkit " << kVersion
                  << " reads format versions " << kZoneFormatMinVersion << " to "
                  << kZoneFormatVersion << "; re-run fvprep with this fvkit to rewrite it");
  }
  h5::read_string_attr(root, "creator", h.creator);
  bool ok = h5::read_string_attr(root, "commandLine", h.commandLine) &&
            h5::read_string_attr(root, "options", h.options) &&
            h5::read_string_attr(root, "meshUuid", h.meshUuid) &&
            h5::read_string_attr(root, "sourceMesh", h.sourceMesh) &&
            h5::read_attr<std::int32_t>(root, "nZones", h.nZones) &&
            h5::read_attr<std::int64_t>(root, "nGlobalCells", h.nGlobalCells) &&
            h5::read_attr<std::int64_t>(root, "nGlobalFaces", h.nGlobalFaces) &&
            h5::read_attr<std::int64_t>(root, "nGlobalNodes", h.nGlobalNodes);
  FV_VERIFY(ok, path << ": zone file header is incomplete (a root attribute is missing)"
                     << hdf5_reason());
  FV_VERIFY(h.nZones >= 1, path << ": zone file header says nZones = " << h.nZones);
  check_zone_count(*s, "");
  read_partitionings(*s);
  if (parts != 0 && parts != h.nZones) select_partitioning(*s, parts);
  read_patches(*s);
  read_extrusion(*s);

  s->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  FV_VERIFY(s->fd >= 0, path << ": cannot open for mapping: " << std::strerror(errno));
  return ZoneFile(std::move(s));
}

bool is_zone_file(const std::string& path) {
  h5::silence_errors();
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || H5Fis_hdf5(path.c_str()) <= 0) {
    h5::error_detail(); // clear the stack
    return false;
  }
  h5::Id fapl = h5::unlocked_access();
  h5::Id f = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()));
  std::string format;
  std::int32_t version = -1;
  // a zone file of another format version counts too (open_zone_file() then names its version)
  const bool yes = f && ((h5::read_string_attr(f.get(), zonefile::kFormatAttr, format) &&
                          format == zonefile::kFormatName) ||
                         (H5Aexists(f.get(), zonefile::kFormatAttr) > 0 &&
                          h5::read_attr<std::int32_t>(f.get(), "formatVersion", version) &&
                          (version < kZoneFormatMinVersion || version > kZoneFormatVersion)));
  h5::error_detail();
  return yes;
}

std::vector<ZoneDatasetInfo> zone_dataset_info(const ZoneFile& file, int zoneId) {
  const ZoneFile::State& s = *file.state();
  h5::Id g = open_zone_group(s, zoneId);
  return locate_zone(s, g.get(), zoneId);
}

Zone map_zone(const ZoneFile& file, int zoneId, const MapOptions& options) {
  const ZoneFile::State& s = *file.state();
  h5::Id g = open_zone_group(s, zoneId);

  Zone z;
  visit_zone_counts(z, [&](const char* name, std::int32_t& v) {
    FV_VERIFY(h5::read_attr<std::int32_t>(g.get(), name, v),
              s.path << ": zone " << zoneId << ": count attribute " << name << " is missing");
  });
  FV_VERIFY(z.zoneId == zoneId,
            s.path << ": zone group " << zoneId << " says it is zone " << z.zoneId);
  const std::vector<ZoneDatasetInfo> infos = locate_zone(s, g.get(), zoneId);
  g.reset();

  // Map the smallest page-aligned range that covers every non-empty dataset of the zone.
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
  for (const ZoneDatasetInfo& d : infos)
    if (d.count > 0) {
      lo = std::min(lo, d.offset);
      hi = std::max(hi, d.offset + d.bytes);
    }
  std::shared_ptr<const void> keep;
  const char* base = nullptr;
  std::uint64_t mapStart = 0;
  if (hi > 0) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    mapStart = lo / page * page;
    const std::size_t len = static_cast<std::size_t>(hi - mapStart);
    void* p = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, s.fd, static_cast<off_t>(mapStart));
    FV_VERIFY(p != MAP_FAILED, s.path << ": zone " << zoneId << ": cannot memory-map bytes ["
                                      << mapStart << ", " << hi << "): " << std::strerror(errno));
    keep = std::shared_ptr<const void>(
        p, [len](const void* q) { ::munmap(const_cast<void*>(q), len); });
    base = static_cast<const char*>(p);
  }
  visit_zone_arrays(z, Binder{s, zoneId, infos, base, mapStart, keep, options.verifyChecksums});
  try {
    derive_zone_arrays(z);
  } catch (const Error& e) {
    FV_THROW(s.path << ": " << e.what());
  }
  return z;
}

} // namespace fv
