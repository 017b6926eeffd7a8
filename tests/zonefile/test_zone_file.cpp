#include "common/error.hpp"
#include "formats/hdf5_util.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "synthetic_zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;
using fv::testing::strip_header;
using fv::testing::strip_zones;

/// Raw bytes of every dataset of a zone, by dataset name (via the schema visitor).
struct Collector {
  std::map<std::string, std::string> bytes;
  std::map<std::string, const void*> data;
  std::map<std::string, bool> views;
  template <class T>
  void add(const std::string& name, const fv::Array<T>& a) {
    bytes[name] = std::string(reinterpret_cast<const char*>(a.data()), a.bytes());
    data[name] = a.data();
    views[name] = a.is_view();
  }
  template <class T>
  void array(const fv::ArrayInfo& info, const fv::Array<T>& a) {
    add(info.name, a);
  }
  template <class T>
  void optional_array(const fv::ArrayInfo& info, const fv::Array<T>& a) {
    add(info.name, a);
  }
  std::set<std::string> derived; ///< arrays computed from others, not stored in the file
  template <class T>
  void derived_array(const fv::ArrayInfo& info, const fv::Array<T>& a) {
    add(info.name, a);
    derived.insert(info.name);
  }
  void csr(const fv::CsrInfo& info, const fv::Csr& c) {
    add(std::string(info.name) + "/offsets", c.offsets());
    add(std::string(info.name) + "/indices", c.indices());
  }
};

Collector collect(const fv::Zone& z) {
  Collector c;
  fv::visit_zone_arrays(z, c);
  return c;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const fv::Error& e) {
    return e.what();
  }
  return "";
}

std::string write_strip(const std::string& dir, const std::vector<int>& blocks,
                        const std::string& name = "strip.zones.h5") {
  int nx = 0;
  for (int b : blocks)
    nx += b;
  const std::string path = dir + "/" + name;
  fv::write_zone_file(path, strip_header(nx, static_cast<int>(blocks.size())), strip_zones(blocks));
  return path;
}

// Every stored array maps as an aligned view of the file; the derived ones (the face offsets)
// are not in the file and come back computed, with the writer's bytes.
TEST(ZoneFile, RoundTripMapsEveryDatasetAsAlignedViews) {
  const std::string dir = fv::testing::scratch_dir();
  const std::vector<int> blocks{3, 4};
  const auto zones = strip_zones(blocks);
  auto header = strip_header(7, 2);
  header.meshUuid = "0000-test";
  const std::string path = dir + "/rt.zones.h5";
  fv::write_zone_file(path, header, zones);

  const fv::ZoneFile f = fv::open_zone_file(path);
  EXPECT_EQ(f.nZones(), 2);
  EXPECT_EQ(f.header().formatVersion, fv::kZoneFormatVersion);
  EXPECT_EQ(f.header().creator, header.creator);
  EXPECT_EQ(f.header().commandLine, header.commandLine);
  EXPECT_EQ(f.header().options, header.options);
  EXPECT_EQ(f.header().meshUuid, "0000-test");
  EXPECT_EQ(f.header().sourceMesh, header.sourceMesh);
  EXPECT_EQ(f.header().nGlobalCells, 7);
  EXPECT_EQ(f.header().nGlobalFaces, header.nGlobalFaces);
  EXPECT_EQ(f.header().nGlobalNodes, header.nGlobalNodes);
  ASSERT_EQ(f.header().patches.size(), 3u);
  EXPECT_EQ(f.header().patches[2].name, "wall");
  EXPECT_EQ(f.header().patches[2].bcType, "BCWall");

  for (int zi = 0; zi < 2; ++zi) {
    const fv::Zone m = fv::map_zone(f, zi);
    const fv::Zone& w = zones[static_cast<std::size_t>(zi)];
    fv::visit_zone_counts(w, [&](const char* name, const std::int32_t& v) {
      std::int32_t got = -1;
      fv::visit_zone_counts(m, [&](const char* n2, const std::int32_t& v2) {
        if (std::strcmp(name, n2) == 0) got = v2;
      });
      EXPECT_EQ(got, v) << name;
    });
    const Collector cw = collect(w), cm = collect(m);
    ASSERT_EQ(cw.bytes.size(), cm.bytes.size());
    EXPECT_EQ(cm.derived, (std::set<std::string>{"faces/neighbourDelta", "faces/ownerDelta"}));
    for (const auto& [name, bytes] : cw.bytes) {
      EXPECT_EQ(cm.bytes.at(name), bytes) << "zone " << zi << " dataset " << name;
      if (cm.derived.count(name)) {
        EXPECT_FALSE(bytes.empty()) << name;
        EXPECT_FALSE(cm.views.at(name)) << name << " is derived: computed, not mapped";
      } else if (!bytes.empty()) {
        EXPECT_TRUE(cm.views.at(name)) << name << " is a copy, not a view of the mapping";
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(cm.data.at(name)) % fv::kZoneFileAlignment, 0u)
            << name;
      }
    }
    for (const auto& d : fv::zone_dataset_info(f, zi)) {
      EXPECT_EQ(cm.derived.count(d.name), 0u) << d.name << " is derived but stored";
      if (d.count > 0) {
        EXPECT_EQ(d.offset % fv::kZoneFileAlignment, 0u) << d.name;
      }
    }
  }
}

TEST(ZoneFile, SingleZoneWithEmptyArraysAndMappingOutlivesFile) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = write_strip(dir, {5});
  fv::Zone z;
  {
    const fv::ZoneFile f = fv::open_zone_file(path);
    z = fv::map_zone(f, 0);
  }                       // the file handle is gone; the mapping lives on in the arrays
  const fv::Zone& cz = z; // mapped arrays are read-only: const access only
  EXPECT_EQ(cz.nHaloCells, 0);
  EXPECT_EQ(cz.cellExchange.neighbours.size(), 0u);
  EXPECT_EQ(cz.cellExchange.send.nnz(), 0);
  EXPECT_EQ(cz.nCells, 5);
  ASSERT_EQ(cz.cellVolume.size(), 5u);
  EXPECT_DOUBLE_EQ(cz.cellVolume[4], 1.0);
  EXPECT_EQ(cz.cellCentroid[3 * 4], 4.5);
  EXPECT_TRUE(cz.cellVolume.is_view());
}

TEST(ZoneFile, TruncatedFileIsRefused) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = write_strip(dir, {4, 4, 4});
  const auto size = fs::file_size(path);
  for (auto keep : {size - 100, size / 2, std::uintmax_t{100}, std::uintmax_t{0}}) {
    const std::string cut = dir + "/cut.zones.h5";
    fs::copy_file(path, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, keep);
    const std::string msg = error_of([&] {
      const fv::ZoneFile f = fv::open_zone_file(cut);
      for (int z = 0; z < f.nZones(); ++z)
        fv::map_zone(f, z);
    });
    EXPECT_NE(msg.find(cut), std::string::npos) << msg;
    EXPECT_TRUE(msg.find("truncated") != std::string::npos) << "kept " << keep << ": " << msg;
  }
}

TEST(ZoneFile, FlippedByteFailsItsChecksum) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = write_strip(dir, {3, 3});
  std::uint64_t offset = 0;
  {
    const fv::ZoneFile f = fv::open_zone_file(path);
    for (const auto& d : fv::zone_dataset_info(f, 1))
      if (d.name == "faces/area") offset = d.offset + 17;
  }
  ASSERT_GT(offset, 0u);
  {
    std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
    io.seekg(static_cast<std::streamoff>(offset));
    char c = 0;
    io.read(&c, 1);
    c = static_cast<char>(c ^ 0x10);
    io.seekp(static_cast<std::streamoff>(offset));
    io.write(&c, 1);
  }
  const fv::ZoneFile f = fv::open_zone_file(path);
  EXPECT_NO_THROW(fv::map_zone(f, 0)); // the other zone is intact
  const std::string msg = error_of([&] { fv::map_zone(f, 1); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("zone 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("faces/area"), std::string::npos) << msg;
  EXPECT_NE(msg.find("checksum mismatch"), std::string::npos) << msg;
  EXPECT_NO_THROW(fv::map_zone(f, 1, fv::MapOptions{false}));
}

/// Rewrites the root formatVersion attribute of a zone file.
void set_version(const std::string& path, std::int32_t v) {
  fv::h5::silence_errors();
  fv::h5::Id file = fv::h5::file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_TRUE(file);
  fv::h5::Id attr = fv::h5::attribute(H5Aopen(file.get(), "formatVersion", H5P_DEFAULT));
  ASSERT_TRUE(attr);
  ASSERT_GE(H5Awrite(attr.get(), H5T_NATIVE_INT32, &v), 0);
}

TEST(ZoneFile, OtherFormatVersionsAreRefusedNamingSupportedOnes) {
  const std::string dir = fv::testing::scratch_dir();
  for (std::int32_t v : {fv::kZoneFormatVersion + 1, fv::kZoneFormatMinVersion - 1}) {
    const std::string path = write_strip(dir, {2, 2}, "v" + std::to_string(v) + ".zones.h5");
    set_version(path, v);
    const std::string msg = error_of([&] { fv::open_zone_file(path); });
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("format version " + std::to_string(v)), std::string::npos) << msg;
    EXPECT_NE(msg.find("reads format versions " + std::to_string(fv::kZoneFormatMinVersion) +
                       " to " + std::to_string(fv::kZoneFormatVersion)),
              std::string::npos)
        << msg;
  }
}

/// Replaces object `name` of `path` (the root attribute "format" when `attribute`, else a 1-D
/// dataset) by a variable-length string of `value`, as format version 1 stored its strings, then
/// corrupts the length of the first object of the file's global heap, where HDF5 keeps
/// variable-length data. HDF5 1.10 trusts that length (a crash in H5HG_read found by
/// tests/fuzz/fuzz_zone_file): a reader must refuse such a string without reading it.
void plant_corrupt_vlen_string(const std::string& path, const char* name, bool attribute,
                               const std::string& value) {
  fv::h5::silence_errors();
  {
    fv::h5::Id file = fv::h5::file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(file);
    fv::h5::Id type = fv::h5::datatype(H5Tcopy(H5T_C_S1));
    H5Tset_size(type.get(), H5T_VARIABLE);
    const char* p = value.c_str();
    if (attribute) {
      ASSERT_GE(H5Adelete(file.get(), name), 0);
      fv::h5::Id space = fv::h5::dataspace(H5Screate(H5S_SCALAR));
      fv::h5::Id a = fv::h5::attribute(
          H5Acreate2(file.get(), name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
      ASSERT_TRUE(a);
      ASSERT_GE(H5Awrite(a.get(), type.get(), &p), 0);
    } else {
      ASSERT_GE(H5Ldelete(file.get(), name, H5P_DEFAULT), 0);
      const hsize_t n = 1;
      fv::h5::Id space = fv::h5::dataspace(H5Screate_simple(1, &n, nullptr));
      fv::h5::Id ds = fv::h5::dataset(H5Dcreate2(file.get(), name, type.get(), space.get(),
                                                 H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      ASSERT_TRUE(ds);
      ASSERT_GE(H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &p), 0);
    }
  }
  std::string bytes = slurp(path);
  const auto gcol = bytes.find("GCOL");
  ASSERT_NE(gcol, std::string::npos) << "no global heap in " << path;
  // collection header (16 bytes), then object 1: index (2), references (2), reserved (4), size (8)
  for (std::size_t b = gcol + 24; b < gcol + 32; ++b)
    bytes[b] = '\x7f';
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(ZoneFile, VariableLengthStringsAreRefusedUnread) {
  const std::string dir = fv::testing::scratch_dir();
  // a version-1 file (variable-length strings) with a corrupt heap: refused by its version
  const std::string v1 = write_strip(dir, {2, 2}, "v1.zones.h5");
  set_version(v1, 1);
  plant_corrupt_vlen_string(v1, "format", true, "fvkit zone file");
  EXPECT_TRUE(fv::is_zone_file(v1));
  std::string msg = error_of([&] { fv::open_zone_file(v1); });
  EXPECT_NE(msg.find(v1 + ": zone file format version 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("re-run fvprep"), std::string::npos) << msg;
  // the current version with a variable-length patch table: refused, not read
  const std::string v2 = write_strip(dir, {2, 2}, "vlen.zones.h5");
  plant_corrupt_vlen_string(v2, "patches/name", false, "wall");
  msg = error_of([&] { fv::open_zone_file(v2); });
  EXPECT_NE(msg.find(v2 + ": zone file has no readable dataset /patches/name"), std::string::npos)
      << msg;
  // and a variable-length "format" attribute in a file of the current version
  const std::string v2a = write_strip(dir, {2, 2}, "vlen_attr.zones.h5");
  plant_corrupt_vlen_string(v2a, "format", true, "fvkit zone file");
  EXPECT_FALSE(fv::is_zone_file(v2a));
  EXPECT_NE(error_of([&] { fv::open_zone_file(v2a); }).find("not an fvkit zone file"),
            std::string::npos);
}

TEST(ZoneFile, ForeignFilesAreRefused) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string text = dir + "/not.h5";
  std::ofstream(text) << "this is not HDF5 at all, just some text\n";
  EXPECT_NE(error_of([&] { fv::open_zone_file(text); }).find("no HDF5 signature"),
            std::string::npos);
  EXPECT_NE(error_of([&] { fv::open_zone_file(dir + "/missing.h5"); }).find("No such file"),
            std::string::npos);
  const std::string plain = dir + "/plain.h5";
  {
    fv::h5::Id f = fv::h5::file(H5Fcreate(plain.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  }
  EXPECT_NE(error_of([&] { fv::open_zone_file(plain); }).find("not an fvkit zone file"),
            std::string::npos);
  const std::string fewer = write_strip(dir, {2, 3}, "fewer.zones.h5");
  {
    fv::h5::Id f = fv::h5::file(H5Fopen(fewer.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_GE(H5Ldelete(f.get(), "zones/000001", H5P_DEFAULT), 0);
  }
  EXPECT_NE(error_of([&] {
              fv::open_zone_file(fewer);
            }).find("the header says nZones = 2 but /zones holds 1 zones"),
            std::string::npos);
  const std::string good = write_strip(dir, {2, 3});
  EXPECT_TRUE(fv::is_zone_file(good));
  EXPECT_FALSE(fv::is_zone_file(plain));
  EXPECT_FALSE(fv::is_zone_file(text));
  EXPECT_FALSE(fv::is_zone_file(dir + "/missing.h5"));
  EXPECT_FALSE(fv::is_zone_file(dir));
  const fv::ZoneFile f = fv::open_zone_file(good);
  EXPECT_NE(error_of([&] { fv::map_zone(f, 2); }).find("zones 0 to 1"), std::string::npos);
}

// Issue 50, item 5: an extruded 2D mesh's thickness and direction are root attributes that
// read back exactly; a 3D mesh's file has neither (thickness 0), and one without the other or
// a thickness <= 0 is refused.
TEST(ZoneFile, ExtrusionRoundTripsAndIsAbsentForA3DMesh) {
  const std::string dir = fv::testing::scratch_dir();
  auto header = strip_header(5, 1);
  header.extrusion = {0.012345678901234567, {0.6, 0, 0.8}};
  const std::string flat = dir + "/flat.zones.h5";
  fv::write_zone_file(flat, header, strip_zones({5}));
  const fv::Extrusion e = fv::open_zone_file(flat).header().extrusion;
  EXPECT_EQ(e.thickness, header.extrusion.thickness);
  EXPECT_EQ(e.direction, header.extrusion.direction);
  EXPECT_EQ(fv::describe(e), "2D mesh extruded by 0.0123457 along (0.6, 0, 0.8)");

  const std::string solid = write_strip(dir, {2, 3}, "solid.zones.h5");
  EXPECT_FALSE(fv::open_zone_file(solid).header().extrusion.extruded());
  {
    fv::h5::Id f = fv::h5::file(H5Fopen(solid.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    EXPECT_EQ(H5Aexists(f.get(), "extrusionThickness"), 0);
    EXPECT_EQ(H5Aexists(f.get(), "extrusionDirection"), 0);
  }
  {
    fv::h5::Id f = fv::h5::file(H5Fopen(flat.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_GE(H5Adelete(f.get(), "extrusionDirection"), 0);
  }
  EXPECT_NE(error_of([&] { fv::open_zone_file(flat); }).find("3 values extrusionDirection"),
            std::string::npos);
  {
    fv::h5::Id f = fv::h5::file(H5Fopen(solid.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(fv::h5::write_attr<double>(f.get(), "extrusionThickness", -1.0));
    ASSERT_TRUE(fv::h5::write_attr(f.get(), "extrusionDirection", std::array<double, 3>{0, 0, 1}));
  }
  EXPECT_NE(error_of([&] { fv::open_zone_file(solid); }).find("extrusion is corrupt"),
            std::string::npos);
}

/// Replaces dataset `name` of zone 0 by 4 values of file type `type`, stored with `dcpl`.
void replace_dataset(const std::string& path, const char* name, hid_t type, hid_t dcpl) {
  fv::h5::silence_errors();
  fv::h5::Id file = fv::h5::file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_TRUE(file);
  const std::string full = std::string("zones/000000/") + name;
  ASSERT_GE(H5Ldelete(file.get(), full.c_str(), H5P_DEFAULT), 0);
  const hsize_t n = 4;
  fv::h5::Id space = fv::h5::dataspace(H5Screate_simple(1, &n, nullptr));
  fv::h5::Id ds = fv::h5::dataset(
      H5Dcreate2(file.get(), full.c_str(), type, space.get(), H5P_DEFAULT, dcpl, H5P_DEFAULT));
  ASSERT_TRUE(ds);
  const double v[4] = {1, 2, 3, 4};
  ASSERT_GE(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
}

TEST(ZoneFile, DatasetsThatCannotBeMappedAreRefused) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string typed = write_strip(dir, {4}, "typed.zones.h5");
  replace_dataset(typed, "cells/volume", H5T_IEEE_F32LE, H5P_DEFAULT);
  std::string msg = error_of([&] { fv::map_zone(fv::open_zone_file(typed), 0); });
  EXPECT_NE(msg.find("zone 0, dataset cells/volume: wrong element type (expected float64 "
                     "little-endian)"),
            std::string::npos)
      << msg;

  const std::string big = write_strip(dir, {4}, "bigendian.zones.h5");
  replace_dataset(big, "cells/volume", H5T_IEEE_F64BE, H5P_DEFAULT);
  msg = error_of([&] { fv::map_zone(fv::open_zone_file(big), 0); });
  EXPECT_NE(msg.find("wrong element type"), std::string::npos) << msg;

  const std::string chunked = write_strip(dir, {4}, "chunked.zones.h5");
  fv::h5::Id dcpl = fv::h5::plist(H5Pcreate(H5P_DATASET_CREATE));
  const hsize_t chunk = 2;
  H5Pset_chunk(dcpl.get(), 1, &chunk);
  replace_dataset(chunked, "cells/volume", H5T_IEEE_F64LE, dcpl.get());
  msg = error_of([&] { fv::map_zone(fv::open_zone_file(chunked), 0); });
  EXPECT_NE(msg.find("cells/volume: not stored contiguously"), std::string::npos) << msg;

  const std::string gone = write_strip(dir, {4}, "gone.zones.h5");
  {
    fv::h5::Id file = fv::h5::file(H5Fopen(gone.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_GE(H5Ldelete(file.get(), "zones/000000/conn/faceNodes/indices", H5P_DEFAULT), 0);
  }
  msg = error_of([&] { fv::map_zone(fv::open_zone_file(gone), 0); });
  EXPECT_NE(msg.find("zone 0, dataset conn/faceNodes/indices: missing"), std::string::npos) << msg;
}

bool has_temporaries(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().string().find(".tmp.") != std::string::npos) return true;
  return false;
}

TEST(ZoneFile, FailedWriteKeepsThePreviousFileIntact) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string path = write_strip(dir, {2, 2});
  const std::string before = slurp(path);
  auto zones = strip_zones({3, 3, 3});
  // the writer throws midway: zone 1 given twice after zone 0 was written
  EXPECT_THROW(
      {
        fv::ZoneFileWriter w(path, strip_header(9, 3));
        w.write_zone(zones[0]);
        w.write_zone(zones[1]);
        w.write_zone(zones[1]);
      },
      fv::Error);
  EXPECT_EQ(slurp(path), before);
  EXPECT_FALSE(has_temporaries(dir));
  // a zone never written: commit refuses, nothing replaced
  const std::string msg = error_of([&] {
    fv::ZoneFileWriter w(path, strip_header(9, 3));
    w.write_zone(zones[0]);
    w.write_zone(zones[2]);
    w.commit();
  });
  EXPECT_NE(msg.find("zone 1 of 3 was never written"), std::string::npos) << msg;
  EXPECT_EQ(slurp(path), before);
  EXPECT_FALSE(has_temporaries(dir));
  EXPECT_EQ(fv::open_zone_file(path).nZones(), 2);
  // and a complete streaming write (zones in any order) replaces it
  {
    fv::ZoneFileWriter w(path, strip_header(9, 3));
    for (int z : {2, 0, 1})
      w.write_zone(zones[static_cast<std::size_t>(z)]);
    w.commit();
  }
  EXPECT_EQ(fv::open_zone_file(path).nZones(), 3);
  EXPECT_FALSE(has_temporaries(dir));
}

// Zones placed in order and written by threads in any order (fvprep's pipeline), some with
// their checksums computed first on other threads, give the same file contents as
// write_zone(), checksums included; a placed zone never written is an error.
TEST(ZoneFile, PlacedZonesWrittenByThreadsInAnyOrder) {
  const std::string dir = fv::testing::scratch_dir();
  const auto zones = strip_zones({3, 5, 2, 4});
  const std::string serial = dir + "/serial.zones.h5", threaded = dir + "/threaded.zones.h5";
  fv::write_zone_file(serial, strip_header(14, 4), zones);
  {
    fv::ZoneFileWriter w(threaded, strip_header(14, 4));
    std::vector<fv::ZoneFileWriter::PlacedZone> placed;
    for (const fv::Zone& z : zones)
      placed.push_back(w.place_zone(z));
    std::vector<std::thread> threads;
    for (int k : {2, 0}) // checksums first, beside each other, for two of the zones
      threads.emplace_back([&placed, k] { placed[static_cast<std::size_t>(k)].checksum(); });
    for (std::thread& t : threads)
      t.join();
    threads.clear();
    for (int k : {3, 1, 0, 2})
      threads.emplace_back([&placed, k] { placed[static_cast<std::size_t>(k)].write(); });
    for (std::thread& t : threads)
      t.join();
    EXPECT_GT(w.write_seconds(), 0.0); // the bytes' writes, one zone at a time, are timed
    EXPECT_THROW(placed[0].checksum(), fv::Error); // after its write
    w.commit();
  }
  const fv::ZoneFile a = fv::open_zone_file(serial), b = fv::open_zone_file(threaded);
  ASSERT_EQ(b.nZones(), 4);
  for (int z = 0; z < 4; ++z) {
    const Collector ca = collect(fv::map_zone(a, z)), cb = collect(fv::map_zone(b, z));
    EXPECT_EQ(ca.bytes, cb.bytes) << "zone " << z;
  }
  const std::string msg = error_of([&] {
    fv::ZoneFileWriter w(threaded, strip_header(14, 4));
    std::vector<fv::ZoneFileWriter::PlacedZone> placed;
    for (const fv::Zone& z : zones)
      placed.push_back(w.place_zone(z));
    for (int k : {0, 1, 3})
      placed[static_cast<std::size_t>(k)].write();
    w.commit();
  });
  EXPECT_NE(msg.find("zone 2 of 4 was never written"), std::string::npos) << msg;
  EXPECT_FALSE(has_temporaries(dir));
  EXPECT_EQ(fv::open_zone_file(threaded).nZones(), 4); // the previous file is intact
}

} // namespace
