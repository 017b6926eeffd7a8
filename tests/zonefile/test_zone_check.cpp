#include "formats/hdf5_util.hpp"
#include "formats/mesh_uuid.hpp"
#include "formats/zone_file_reader.hpp"
#include "formats/zone_file_writer.hpp"
#include "prep/zone_check.hpp"
#include "synthetic_zones.hpp"
#include "tests/testing/testing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

using namespace fv::testing;

struct Checked {
  int rc;
  std::string text;
};

Checked check(const std::string& path, fv::ZoneCheckOptions opt = {}) {
  std::ostringstream os;
  const int rc = fv::run_zone_check(path, opt, &os);
  return {rc, os.str()};
}

/// Writes the strip cut into `blocks`, after letting `edit` corrupt the zones.
template <class Edit>
std::string write(const std::string& dir, const std::vector<int>& blocks, Edit&& edit,
                  const std::string& name = "s.zones.h5") {
  int nx = 0;
  for (int b : blocks)
    nx += b;
  auto zones = strip_zones(blocks);
  auto h = strip_header(nx, static_cast<int>(blocks.size()));
  h.meshUuid = fv::mesh_uuid(zones, h.nGlobalCells, h.nGlobalNodes);
  edit(h, zones);
  const std::string path = dir + "/" + name;
  fv::write_zone_file(path, h, zones);
  return path;
}
const auto kNoEdit = [](fv::ZoneFileHeader&, std::vector<fv::Zone>&) {};

TEST(ZoneCheck, ConsistentZoneSetsPass) {
  const std::string dir = scratch_dir();
  for (const std::vector<int>& blocks :
       {std::vector<int>{6}, {3, 3}, {1, 2, 1, 5, 1, 1, 4}, even_blocks(64, 64)}) {
    const std::string path = write(dir, blocks, kNoEdit);
    const Checked c = check(path);
    EXPECT_EQ(c.rc, 0) << blocks.size() << " zones:\n" << c.text;
    EXPECT_NE(c.text.find("OK"), std::string::npos) << c.text;
  }
}

TEST(ZoneCheck, CorruptedSendListIsCaught) {
  const std::string dir = scratch_dir();
  // zone 1 of {2, 3, 2} sends its first cell to zone 0: point it at another owned cell
  const std::string path = write(dir, {2, 3, 2}, [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) {
    z[1].cellExchange.send.indices()[0] = 0; // interior cell, wrong global id
  });
  const Checked c = check(path);
  EXPECT_EQ(c.rc, 1);
  EXPECT_NE(c.text.find("zone 1: cell send list to zone 0"), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("does not match zone 0's receive list from zone 1"), std::string::npos)
      << c.text;
  EXPECT_NE(c.text.find("FAILED"), std::string::npos);
}

TEST(ZoneCheck, OwnershipHaloGeometryAndUuidProblemsAreCaught) {
  const std::string dir = scratch_dir();
  struct Case {
    const char* expect;
    void (*edit)(fv::ZoneFileHeader&, std::vector<fv::Zone>&);
  };
  const Case cases[] =
      {{"already owned by zone 0",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) { z[1].cellGlobalId[0] = 0; }},
       {"differs in type, volume or centroid",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) {
          z[0].cellVolume[z[0].nCells] = 2.0; // zone 0's halo cell
        }},
       {"is not closed",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) { z[0].faceArea[3 * 5] += 0.5; }},
       {"volume -1 is not positive",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) { z[1].cellVolume[0] = -1; }},
       {"owner < neighbour",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) {
          const fv::idx_t f = z[0].nBoundaryFaces;
          std::swap(z[0].faceOwner[f], z[0].faceNeighbour[f]);
        }},
       {"zone 1: conn/nodeCellWeight has 3 entries, expected",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) {
          z[1].nodeCellWeight = fv::Array<fv::real_t>(3, 0.5);
        }},
       {"zone 0: order/hyperplanes lists entity",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) {
          z[0].hyperplanes.indices()[0] = z[0].hyperplanes.indices()[1];
        }},
       {"nodeCellWeight sums to",
        [](fv::ZoneFileHeader&, std::vector<fv::Zone>& z) { z[1].nodeCellWeight[0] *= 2; }},
       {"the zones own 7 cells but the header says nGlobalCells = 1000000000000",
        [](fv::ZoneFileHeader& h, std::vector<fv::Zone>&) { h.nGlobalCells = 1000000000000; }},
       {"hash to", [](fv::ZoneFileHeader& h, std::vector<fv::Zone>&) {
          h.meshUuid = "00000000-0000-8000-8000-000000000000";
        }}};
  for (const Case& k : cases) {
    const Checked c = check(write(dir, {3, 4}, k.edit));
    EXPECT_EQ(c.rc, 1) << k.expect;
    EXPECT_NE(c.text.find(k.expect), std::string::npos) << "expected '" << k.expect << "' in:\n"
                                                        << c.text;
  }
}

TEST(ZoneCheck, DamagedFilesFailWithTheReadersMessage) {
  const std::string dir = scratch_dir();
  const std::string path = write(dir, {3, 3}, kNoEdit);
  // flipped byte in zone 0's node coordinates
  std::uint64_t at = 0;
  for (const auto& d : fv::zone_dataset_info(fv::open_zone_file(path), 0))
    if (d.name == "nodes/xyz") at = d.offset + 8;
  ASSERT_GT(at, 0u);
  {
    std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(static_cast<std::streamoff>(at));
    io.put('\x7f');
  }
  Checked c = check(path);
  EXPECT_EQ(c.rc, 1);
  EXPECT_NE(c.text.find("zone 0, dataset nodes/xyz: checksum mismatch"), std::string::npos)
      << c.text;

  const std::string cut = write(dir, {3, 3}, kNoEdit, "cut.zones.h5");
  std::filesystem::resize_file(cut, std::filesystem::file_size(cut) / 2);
  c = check(cut);
  EXPECT_EQ(c.rc, 1);
  EXPECT_NE(c.text.find("truncated"), std::string::npos) << c.text;

  const std::string newer = write(dir, {3, 3}, kNoEdit, "newer.zones.h5");
  {
    fv::h5::silence_errors();
    fv::h5::Id f = fv::h5::file(H5Fopen(newer.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    fv::h5::Id a = fv::h5::attribute(H5Aopen(f.get(), "formatVersion", H5P_DEFAULT));
    const std::int32_t v = fv::kZoneFormatVersion + 1;
    ASSERT_GE(H5Awrite(a.get(), H5T_NATIVE_INT32, &v), 0);
  }
  c = check(newer);
  EXPECT_EQ(c.rc, 1);
  EXPECT_NE(c.text.find("is not supported"), std::string::npos) << c.text;
}

} // namespace
