// Several partitionings in one zone file (`fvprep partition add/list/remove`): a partitioning
// added from the zone file alone equals a fresh prepare of the same part count bitwise, every
// partitioning passes `fvprep check`, and removing one keeps the others unchanged.
#include "common/error.hpp"
#include "formats/hdf5_util.hpp"
#include "formats/zone_file_layout.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/generate_mesh.hpp"
#include "prep/prepare.hpp"
#include "prep/repartition.hpp"
#include "prep/stored_options.hpp"
#include "prep/validate.hpp"
#include "prep/zone_check.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <hdf5.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// Every dataset of every zone of a partitioning, "zone/dataset" -> bytes.
std::map<std::string, std::string> contents(const std::string& path, int parts) {
  const fv::ZoneFile f = fv::open_zone_file(path, parts);
  EXPECT_EQ(f.nZones(), parts);
  std::map<std::string, std::string> all;
  for (int z = 0; z < f.nZones(); ++z) {
    const fv::Zone zone = fv::map_zone(f, z);
    for (auto& [name, bytes] : fv::testing::zone_dataset_bytes(zone))
      all[std::to_string(z) + "/" + name] = bytes;
  }
  return all;
}

/// A shuffled, perturbed channel of mixed cells with wall patches (so zones carry wall
/// distances), prepared into `path` with `parts` zones as fvprep does.
/// `extrusion`: what the mesh says of its extrusion (as a 2D mesh's reader would).
void prepare(const std::string& path, int parts, bool zoneOrderRcm = false,
             const fv::Extrusion& extrusion = {}) {
  fv::GenOptions g{fv::MeshFamily::Channel, fv::GenCells::Mixed, {12, 6, 4}};
  g.perturb = 0.2;
  g.shuffle = true;
  fv::Mesh mesh = fv::generate_mesh(g);
  mesh.extrusion = extrusion;
  fv::ValidationReport report = fv::validate_mesh(mesh, {});
  fv::PrepareOptions po;
  po.parts = parts;
  po.prep.wavefrontOrder = !zoneOrderRcm;
  fv::prepare_zone_file(std::move(mesh), std::move(report.faces), po, path, "test prepare");
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const fv::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Partitionings, AddedOneEqualsAFreshPrepareBitwise) {
  const std::string dir = fv::testing::scratch_dir();
  for (bool rcm : {false, true}) {
    SCOPED_TRACE(rcm ? "zone order rcm" : "zone order wavefront");
    const std::string file = dir + "/multi.zones.h5", fresh = dir + "/fresh.zones.h5";
    prepare(file, 2, rcm);
    const auto first = contents(file, 2);
    for (int parts : {3, 7, 1}) {
      fv::add_partitioning(file, parts, {}, "test add");
      prepare(fresh, parts, rcm);
      EXPECT_EQ(contents(file, parts), contents(fresh, parts)) << parts << " parts";
    }
    const fv::ZoneFile f = fv::open_zone_file(file);
    EXPECT_EQ(f.partitionings(), (std::vector<int>{2, 1, 3, 7}));
    EXPECT_EQ(f.nZones(), 2);
    EXPECT_EQ(contents(file, 2), first); // the first partitioning is untouched
    EXPECT_EQ(fv::open_zone_file(file, 7).header().commandLine, "test add");
    EXPECT_EQ(fv::open_zone_file(file, 7).header().meshUuid, f.header().meshUuid);
    std::ostringstream out;
    EXPECT_EQ(fv::run_zone_check(file, {}, &out), 0) << out.str();
    EXPECT_EQ(out.str().find("FAILED"), std::string::npos) << out.str();
    // one OK line per partitioning
    std::size_t oks = 0;
    for (auto p = out.str().find(": OK ("); p != std::string::npos;
         p = out.str().find(": OK (", p + 1))
      ++oks;
    EXPECT_EQ(oks, 4u) << out.str();
  }
}

/// Makes `path` look like a zone file of format version 2, which also stored the face offsets
/// (faces/ownerDelta, faces/neighbourDelta): writes them into every zone with values a reader
/// must not use, and sets formatVersion to 2.
void make_version_two(const std::string& path) {
  std::vector<fv::idx_t> faces;
  {
    const fv::ZoneFile f = fv::open_zone_file(path); // closed before the file is opened to write
    for (int z = 0; z < f.nZones(); ++z)
      faces.push_back(fv::map_zone(f, z).nFaces);
  }
  const int nZones = static_cast<int>(faces.size());
  fv::h5::silence_errors();
  fv::h5::Id file = fv::h5::file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_TRUE(file);
  for (int z = 0; z < nZones; ++z) {
    const std::string group = fv::zonefile::zone_group_name(z) + "/faces";
    const std::vector<double> junk(3 * static_cast<std::size_t>(faces[z]), 1e300);
    for (const char* name : {"ownerDelta", "neighbourDelta"}) {
      const hsize_t n = junk.size();
      fv::h5::Id space = fv::h5::dataspace(H5Screate_simple(1, &n, nullptr));
      const std::string ds = group + "/" + name;
      fv::h5::Id d = fv::h5::dataset(H5Dcreate2(file.get(), ds.c_str(), H5T_IEEE_F64LE, space.get(),
                                                H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      ASSERT_TRUE(d) << ds;
      ASSERT_GE(H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, junk.data()),
                0);
    }
  }
  fv::h5::Id attr = fv::h5::attribute(H5Aopen(file.get(), "formatVersion", H5P_DEFAULT));
  const std::int32_t two = 2;
  ASSERT_GE(H5Awrite(attr.get(), H5T_NATIVE_INT32, &two), 0);
}

// Version 3 stores no face offsets (they are derived from the centroids on reading). A version-2
// file is read the same, its stored offsets unused; a partitioning added to it is written in
// version 3, and the file then says version 3 (an older fvkit refuses it by its version).
TEST(Partitionings, VersionTwoFileIsReadAndGrowsIntoVersionThree) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string file = dir + "/old.zones.h5", fresh = dir + "/fresh.zones.h5";
  prepare(file, 2);
  const auto before = contents(file, 2);
  make_version_two(file);
  EXPECT_EQ(fv::open_zone_file(file).header().formatVersion, 2);
  EXPECT_EQ(contents(file, 2), before);
  fv::add_partitioning(file, 3, {}, "add 3");
  EXPECT_EQ(fv::open_zone_file(file).header().formatVersion, fv::kZoneFormatVersion);
  prepare(fresh, 3);
  EXPECT_EQ(contents(file, 3), contents(fresh, 3));
  EXPECT_EQ(contents(file, 2), before);
  std::ostringstream out;
  EXPECT_EQ(fv::run_zone_check(file, {}, &out), 0) << out.str();
}

TEST(Partitionings, RemovingOneKeepsTheOthersAndTheNextBecomesFirst) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string file = dir + "/multi.zones.h5";
  prepare(file, 2);
  fv::add_partitioning(file, 4, {}, "add 4");
  fv::add_partitioning(file, 3, {}, "add 3");
  const auto two = contents(file, 2), three = contents(file, 3), four = contents(file, 4);
  const std::string uuid = fv::open_zone_file(file).header().meshUuid;
  const auto bytesBefore = fv::open_zone_file(file).fileBytes();

  fv::remove_partitioning(file, 3);
  EXPECT_EQ(fv::open_zone_file(file).partitionings(), (std::vector<int>{2, 4}));
  EXPECT_EQ(contents(file, 2), two);
  EXPECT_EQ(contents(file, 4), four);
  EXPECT_LT(fv::open_zone_file(file).fileBytes(), bytesBefore); // the space is given back

  fv::remove_partitioning(file, 2); // the first one: 4 becomes first, with its header
  const fv::ZoneFile f = fv::open_zone_file(file);
  EXPECT_EQ(f.partitionings(), (std::vector<int>{4}));
  EXPECT_EQ(f.nZones(), 4);
  EXPECT_EQ(f.header().commandLine, "add 4");
  EXPECT_EQ(f.header().meshUuid, uuid);
  EXPECT_EQ(contents(file, 4), four);
  std::ostringstream out;
  EXPECT_EQ(fv::run_zone_check(file, {}, &out), 0) << out.str();
  (void)three;
}

// Issue 50, item 5: the prepare writes the mesh's extrusion into the header, and adding and
// removing partitionings (which rewrite the header they read) keep it.
TEST(Partitionings, AddAndRemoveKeepTheExtrusion) {
  const std::string file = fv::testing::scratch_dir() + "/flat.zones.h5";
  const fv::Extrusion e{0.04, {0, 0, 1}};
  prepare(file, 2, false, e);
  auto expect_extrusion = [&](const fv::ZoneFile& f) {
    EXPECT_EQ(f.header().extrusion.thickness, e.thickness) << f.nZones() << " zones";
    EXPECT_EQ(f.header().extrusion.direction, e.direction) << f.nZones() << " zones";
  };
  expect_extrusion(fv::open_zone_file(file));
  fv::add_partitioning(file, 3, {}, "add 3");
  expect_extrusion(fv::open_zone_file(file));
  expect_extrusion(fv::open_zone_file(file, 3));
  fv::remove_partitioning(file, 2); // the first one: the header is rewritten from 3's
  expect_extrusion(fv::open_zone_file(file));
  std::ostringstream out;
  EXPECT_EQ(fv::run_zone_check(file, {}, &out), 0) << out.str();
  EXPECT_NE(out.str().find("2D mesh extruded by 0.04 along (0, 0, 1)"), std::string::npos)
      << out.str();
}

TEST(Partitionings, RefusalsNameTheFileAndThePartCounts) {
  const std::string dir = fv::testing::scratch_dir();
  const std::string file = dir + "/multi.zones.h5";
  prepare(file, 2);
  fv::add_partitioning(file, 5, {}, "add 5");
  std::string msg = error_of([&] { fv::open_zone_file(file, 8); });
  EXPECT_NE(msg.find(file +
                     ": no partitioning of 8 zones (the file holds partitionings of 2, 5 "
                     "zones; add one with: fvprep partition add " +
                     file + " --parts 8)"),
            std::string::npos)
      << msg;
  msg = error_of([&] { fv::add_partitioning(file, 5, {}, "again"); });
  EXPECT_NE(msg.find(file + ": already holds a partitioning of 5 zones"), std::string::npos) << msg;
  msg = error_of([&] { fv::add_partitioning(file, 2, {}, "again"); });
  EXPECT_NE(msg.find("already holds a partitioning of 2 zones"), std::string::npos) << msg;
  msg = error_of([&] { fv::remove_partitioning(file, 9); });
  EXPECT_NE(msg.find(file + ": holds no partitioning of 9 zones"), std::string::npos) << msg;
  fv::remove_partitioning(file, 5);
  msg = error_of([&] { fv::remove_partitioning(file, 2); });
  EXPECT_NE(msg.find("is its only one"), std::string::npos) << msg;
  // a refused add or remove leaves the file as it was
  EXPECT_EQ(fv::open_zone_file(file).partitionings(), (std::vector<int>{2}));
  msg = error_of([&] { fv::add_partitioning(dir + "/missing.zones.h5", 2, {}, "x"); });
  EXPECT_NE(msg.find("missing.zones.h5"), std::string::npos) << msg;
}

// Issue 50, item 13: the options a prepare stores read back exactly, whatever they hold: a
// subnormal closure tolerance (std::stod refuses it), names with the separators ';' and ','
// and the escape character, leading spaces; and `partition add` builds with them.
TEST(Partitionings, StoredOptionsReadBackExactly) {
  fv::PrepareOptions po;
  po.prep.closureTol = 1e-320;
  po.prep.faces.defaultPatch = "a;b\\c, d";
  po.prep.walls = {"w;1", "x,y", " lead", "back\\"};
  po.prep.wavefrontOrder = false;
  po.prep.renumber = fv::Renumber::None;
  fv::ZoneFileHeader h;
  h.options = fv::describe_prepare_options(po);
  const fv::PrepOptions back = fv::prep_options_of(h, "f.zones.h5");
  EXPECT_EQ(back.closureTol, 1e-320) << h.options;
  EXPECT_EQ(back.faces.defaultPatch, po.prep.faces.defaultPatch) << h.options;
  EXPECT_EQ(back.walls, po.prep.walls) << h.options;
  EXPECT_FALSE(back.wavefrontOrder);
  EXPECT_EQ(back.renumber, fv::Renumber::None);
  po.prep.closureTol = 0.1234567891234567;
  h.options = fv::describe_prepare_options(po);
  EXPECT_EQ(fv::prep_options_of(h, "f.zones.h5").closureTol, 0.1234567891234567) << h.options;
  // files written before the escapes: plain names and 6 significant digits still read
  h.options = "renumber=rcm; parts=2; imbalance=1.03; objective=cut; seed=0; "
              "default-patch=far; closure-tol=1e-08; walls=wing,flap";
  const fv::PrepOptions old = fv::prep_options_of(h, "f.zones.h5");
  EXPECT_EQ(old.faces.defaultPatch, "far");
  EXPECT_EQ(old.closureTol, 1e-8);
  EXPECT_EQ(old.walls, (std::vector<std::string>{"wing", "flap"}));
  h.options = "closure-tol=1e-8x";
  EXPECT_NE(error_of([&] {
              fv::prep_options_of(h, "f.zones.h5");
            }).find("f.zones.h5: stored option closure-tol=1e-8x is not a finite number"),
            std::string::npos);

  // end to end: a box of dyadic coordinates closes exactly, so 1e-320 is a valid tolerance
  const std::string dir = fv::testing::scratch_dir();
  const std::string file = dir + "/box.zones.h5";
  fv::GenOptions g{fv::MeshFamily::Box, fv::GenCells::Hex, {4, 4, 4}};
  fv::Mesh mesh = fv::generate_mesh(g);
  fv::ValidationReport report = fv::validate_mesh(mesh, {});
  fv::PrepareOptions tiny;
  tiny.parts = 1;
  tiny.prep.closureTol = 1e-320;
  tiny.prep.faces.defaultPatch = "a;b";
  fv::prepare_zone_file(std::move(mesh), std::move(report.faces), tiny, file, "test prepare");
  fv::add_partitioning(file, 2, {}, "test add");
  const fv::ZoneFile added = fv::open_zone_file(file, 2);
  const fv::PrepOptions stored = fv::prep_options_of(added.header(), file);
  EXPECT_EQ(stored.closureTol, 1e-320) << added.header().options;
  EXPECT_EQ(stored.faces.defaultPatch, "a;b") << added.header().options;
}

} // namespace
