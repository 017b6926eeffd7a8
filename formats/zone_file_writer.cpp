#include "formats/zone_file_writer.hpp"

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "formats/checksum.hpp"
#include "formats/hdf5_util.hpp"
#include "formats/zone_file_layout.hpp"

#include <vector>

namespace fv {

struct ZoneFileWriter::Impl {
  AtomicFile out; // declared first: destroyed last, after HDF5 has closed the temporary
  ZoneFileHeader header;
  h5::Id file;
  h5::Id dcpl, lcpl;
  std::vector<bool> written;
  std::uint64_t dataBytes = 0;

  explicit Impl(const std::string& path) : out(path) {}

  [[noreturn]] void fail(const std::string& what) const {
    const std::string detail = h5::error_detail();
    FV_THROW(out.target() << ": cannot write zone file: " << what
                          << (detail.empty() ? "" : ": " + detail));
  }

  template <class T>
  void write_dataset(hid_t zoneGroup, const std::string& name, const Array<T>& a, int zoneId) {
    const hsize_t n = a.size();
    h5::Id space = h5::dataspace(H5Screate_simple(1, &n, &n));
    h5::Id ds = h5::dataset(H5Dcreate2(zoneGroup, name.c_str(), h5::file_type<T>(), space.get(),
                                       lcpl.get(), dcpl.get(), H5P_DEFAULT));
    if (!ds) fail("zone " + std::to_string(zoneId) + ", dataset " + name + ": cannot create");
    if (n > 0 && H5Dwrite(ds.get(), h5::mem_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, a.data()) < 0)
      fail("zone " + std::to_string(zoneId) + ", dataset " + name + ": cannot write");
    const std::uint64_t sum = xxh64(a.data(), a.bytes());
    if (!h5::write_attr(ds.get(), zonefile::kChecksumAttr, sum))
      fail("zone " + std::to_string(zoneId) + ", dataset " + name + ": cannot write checksum");
    dataBytes += a.bytes();
  }
};

namespace {
/// Writes each array of a zone as a dataset (visitor of visit_zone_arrays).
struct DatasetWriter {
  ZoneFileWriter::Impl& m;
  hid_t g;
  int id;
  template <class T>
  void array(const ArrayInfo& info, const Array<T>& a) {
    m.write_dataset(g, info.name, a, id);
  }
  template <class T>
  void optional_array(const ArrayInfo& info, const Array<T>& a) {
    m.write_dataset(g, info.name, a, id);
  }
  void csr(const CsrInfo& info, const Csr& c) {
    m.write_dataset(g, std::string(info.name) + "/offsets", c.offsets(), id);
    m.write_dataset(g, std::string(info.name) + "/indices", c.indices(), id);
  }
};
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
  m.written.assign(static_cast<std::size_t>(header.nZones), false);

  // File access: every object >= 1 byte starts on a kZoneFileAlignment boundary; the 1.8+
  // object format (compact/dense groups, so 10,000 zone groups stay cheap to look up).
  h5::Id fapl = h5::plist(H5Pcreate(H5P_FILE_ACCESS));
  if (H5Pset_alignment(fapl.get(), 1, kZoneFileAlignment) < 0 ||
      H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0 ||
      H5Pset_small_data_block_size(fapl.get(), 0) < 0)
    m.fail("cannot set file access properties");
  // File space: written once, never modified, so free space is not tracked at all (the
  // alignment padding would otherwise fill the free-space manager with thousands of fragments
  // that every allocation searches: quadratic time in the number of zones).
  h5::Id fcpl = h5::plist(H5Pcreate(H5P_FILE_CREATE));
  if (H5Pset_file_space_strategy(fcpl.get(), H5F_FSPACE_STRATEGY_NONE, 0, 1) < 0)
    m.fail("cannot set file space strategy");
  m.file = h5::file(H5Fcreate(m.out.temp_path().c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()));
  if (!m.file) m.fail("cannot create temporary file " + m.out.temp_path());

  // Datasets: contiguous, storage allocated at creation (so every non-empty dataset has a file
  // offset), never pre-filled (we write every byte).
  m.dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
  if (H5Pset_layout(m.dcpl.get(), H5D_CONTIGUOUS) < 0 ||
      H5Pset_alloc_time(m.dcpl.get(), H5D_ALLOC_TIME_EARLY) < 0 ||
      H5Pset_fill_time(m.dcpl.get(), H5D_FILL_TIME_NEVER) < 0)
    m.fail("cannot set dataset properties");
  m.lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(m.lcpl.get(), 1);

  const hid_t root = m.file.get();
  bool ok = h5::write_string_attr(root, zonefile::kFormatAttr, zonefile::kFormatName) &&
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
  if (!ok) m.fail("cannot write the header attributes");

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

ZoneFileWriter::~ZoneFileWriter() = default;

void ZoneFileWriter::write_zone(const Zone& zone) {
  FV_VERIFY(impl_ && impl_->file, "zone file writer used after commit()");
  Impl& m = *impl_;
  const int id = zone.zoneId;
  FV_VERIFY(id >= 0 && id < m.header.nZones,
            m.out.target() << ": zone id " << id << " outside [0, " << m.header.nZones << ")");
  FV_VERIFY(!m.written[static_cast<std::size_t>(id)], m.out.target()
                                                          << ": zone " << id << " written twice");

  const std::string gname = zonefile::zone_group_name(id);
  h5::Id g =
      h5::group(H5Gcreate2(m.file.get(), gname.c_str(), m.lcpl.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (!g) m.fail("zone " + std::to_string(id) + ": cannot create group " + gname);

  bool ok = true;
  visit_zone_counts(zone, [&](const char* name, const std::int32_t& v) {
    ok = ok && h5::write_attr<std::int32_t>(g.get(), name, v);
  });
  if (!ok) m.fail("zone " + std::to_string(id) + ": cannot write counts");

  visit_zone_arrays(zone, DatasetWriter{m, g.get(), id});
  m.written[static_cast<std::size_t>(id)] = true;
}

void ZoneFileWriter::commit() {
  FV_VERIFY(impl_ && impl_->file, "zone file writer committed twice");
  Impl& m = *impl_;
  for (std::size_t z = 0; z < m.written.size(); ++z)
    FV_VERIFY(m.written[z], m.out.target() << ": zone " << z << " of " << m.written.size()
                                           << " was never written; file discarded");
  if (H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL) < 0) m.fail("cannot flush");
  if (H5Fclose(m.file.release()) < 0) m.fail("cannot close the temporary file");
  m.out.commit();
}

std::uint64_t ZoneFileWriter::data_bytes() const {
  return impl_->dataBytes;
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
